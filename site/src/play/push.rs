//! A room's push channel (the server's side and the reasons: `api/src/push.rs`): the local
//! server's Server-Sent Events, read with the browser's `EventSource`, which reconnects by itself.
//! A message only says "room R is at version V"; the page then fetches the room as a poll would,
//! so a forged or stale message costs at most one GET.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Event, EventSource, MessageEvent};

/// What the channel says.
pub enum Heard {
    /// The room is at this version now.
    Changed(i64),
    /// The channel is open (again): what happened while it was not is to be fetched.
    Open,
    /// The channel failed; the browser retries by itself after a network failure (after a
    /// refusal it gives up, and the room opens a new channel now and then).
    Failed,
}

/// An open channel; closed when dropped.
pub struct PushChannel {
    source: EventSource,
    _listener: Closure<dyn FnMut(Event)>,
}

impl PushChannel {
    /// Whether the browser gave up on the channel (after a refusal; it retries network failures).
    pub fn closed(&self) -> bool {
        self.source.ready_state() == EventSource::CLOSED
    }
}

impl Drop for PushChannel {
    fn drop(&mut self) {
        self.source.close();
    }
}

/// Opens `url` for `room` and tells `heard` what it hears. `None` if the browser refuses to open it.
pub fn open(url: &str, room: &str, heard: impl Fn(Heard) + 'static) -> Option<PushChannel> {
    let source = EventSource::new(&format!("{url}?roomId={room}")).ok()?;
    let listener = Closure::<dyn FnMut(Event)>::new(move |event: Event| match event.type_().as_str() {
        "open" => heard(Heard::Open),
        "error" => heard(Heard::Failed),
        _ => {
            let data = event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()).unwrap_or_default();
            if let Some(version) =
                serde_json::from_str::<serde_json::Value>(&data).ok().and_then(|m| m["version"].as_i64())
            {
                heard(Heard::Changed(version));
            }
        }
    });
    for kind in ["room", "open", "error"] {
        source.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref()).ok()?;
    }
    Some(PushChannel { source, _listener: listener })
}

/// Marks the page `<html data-push="live|off">`: whether changes arrive by push, for the browser
/// tests and for anyone wondering.
pub fn show_state(state: &str) {
    if let Some(root) = crate::browser::document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-push", state);
    }
}

/// Ends a task's wait early: the room's poll loop waits for its timer or for a push, whichever
/// comes first. (Hand-made: the `futures` crate's channels and `select` cost the room bundle 9 KB.)
#[derive(Clone, Default)]
pub struct Nudge(Rc<RefCell<(bool, Option<Waker>)>>);

impl Nudge {
    pub fn nudge(&self) {
        let waker = {
            let mut state = self.0.borrow_mut();
            state.0 = true;
            state.1.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// Waits `ms` milliseconds, or less if nudged (a nudge while nobody waits ends the next
    /// wait); true if it was nudged.
    pub async fn sleep(&self, ms: u32) -> bool {
        let mut timer = TimeoutFuture::new(ms);
        std::future::poll_fn(|cx| {
            let mut state = self.0.borrow_mut();
            if std::mem::take(&mut state.0) {
                return Poll::Ready(true);
            }
            if Pin::new(&mut timer).poll(cx).is_ready() {
                return Poll::Ready(false);
            }
            state.1 = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }
}
