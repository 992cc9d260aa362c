//! A room's push channel (the server's side and the reasons: `api/_lib/push.rs`). From the local
//! server: Server-Sent Events, read with the browser's `EventSource`, which reconnects by itself.
//! Deployed: a Supabase Realtime broadcast channel (Phoenix's channel protocol, version 1.0.0: JSON
//! text frames over a WebSocket), spoken here directly: the page only joins one topic, hears one
//! event and sends heartbeats, which a client crate would cost the room bundle far more than.
//! A message says "room R is at version V"; deployed, it also carries the room as the API would
//! answer a poll, which the page shows without fetching when it only adds moves its engine can
//! replay to the game shown. Anything else the page fetches as a poll would. Anyone may broadcast
//! on the public channel, so a forged message can show made-up moves until the page's next poll
//! (the pushed room's ETag is not taken) or its player's next move (docs/ARCHITECTURE.md).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

use gloo_timers::callback::Interval;
use gloo_timers::future::TimeoutFuture;
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Event, EventSource, MessageEvent, WebSocket};

use crate::api::{PushMode, RoomView};

/// What the channel says.
#[derive(Debug, PartialEq)]
pub enum Heard {
    /// The room is at this version now, and is this room if the push carried it.
    Changed(i64, Option<Box<RoomView>>),
    /// The channel is open (again): what happened while it was not is to be fetched.
    Open,
    /// This many pages have the room open (Realtime's presence: the local server counts its own).
    Present(u32),
    /// The channel failed. `EventSource` retries by itself after a network failure (after a
    /// refusal it gives up); a closed socket stays closed: the room opens a new channel now and then.
    Failed,
}

enum Link {
    Events(EventSource),
    /// The socket and its heartbeat, which stops when dropped.
    Realtime {
        socket: WebSocket,
        _heartbeat: Interval,
    },
}

/// An open channel; closed when dropped.
pub struct PushChannel {
    link: Link,
    _listener: Closure<dyn FnMut(Event)>,
}

impl PushChannel {
    /// Whether the channel is gone for good (an `EventSource` after a refusal, any closed socket).
    pub fn closed(&self) -> bool {
        match &self.link {
            Link::Events(source) => source.ready_state() == EventSource::CLOSED,
            Link::Realtime { socket, .. } => socket.ready_state() >= WebSocket::CLOSING,
        }
    }
}

impl Drop for PushChannel {
    fn drop(&mut self) {
        match &self.link {
            Link::Events(source) => source.close(),
            Link::Realtime { socket, .. } => {
                let _ = socket.close();
            }
        }
    }
}

/// What tells the room what a channel hears.
pub type Listener = Box<dyn Fn(Heard)>;

/// [`open`]'s type.
pub type Opener = fn(&PushMode, &str, Listener) -> Option<PushChannel>;

/// [`open`], in a module loaded after the room's first paint (see `crate::browser::OnDemand`): the
/// room's update loop starts once it has arrived (the room is already shown from its join); if it
/// does not arrive, the room polls, as it does whenever the channel is down.
#[cfg(feature = "room-screen")]
#[leptos::wasm_split::wasm_split(room_push, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn open_code() -> Result<Opener, leptos::wasm_split::SplitLoaderError> {
    Ok(open)
}

/// Opens the channel `mode` names for `room` and tells `heard` what it hears. `None` without a
/// push, or if the browser refuses to open it.
fn open(mode: &PushMode, room: &str, heard: Listener) -> Option<PushChannel> {
    match mode {
        PushMode::Sse { url, .. } => open_events(url, room, heard),
        PushMode::Realtime { socket, key, poll_ms } => {
            open_realtime(socket, key, room, (*poll_ms).min(super::pacing::HEARTBEAT_MS), heard)
        }
        PushMode::Poll => None,
    }
}

fn listen(target: &web_sys::EventTarget, kinds: &[&str], listener: &Closure<dyn FnMut(Event)>) -> Option<()> {
    for kind in kinds {
        target.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref()).ok()?;
    }
    Some(())
}

fn message_text(event: &Event) -> String {
    event.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()).unwrap_or_default()
}

fn open_events(url: &str, room: &str, heard: impl Fn(Heard) + 'static) -> Option<PushChannel> {
    let source = EventSource::new(&format!("{url}?roomId={room}")).ok()?;
    let listener = Closure::<dyn FnMut(Event)>::new(move |event: Event| match event.type_().as_str() {
        "open" => heard(Heard::Open),
        "error" => heard(Heard::Failed),
        _ => {
            if let Some(version) =
                serde_json::from_str::<Value>(&message_text(&event)).ok().and_then(|m| m["version"].as_i64())
            {
                heard(Heard::Changed(version, None));
            }
        }
    });
    listen(&source, &["room", "open", "error"], &listener)?;
    Some(PushChannel { link: Link::Events(source), _listener: listener })
}

/// The Realtime topic of a room, as `sql/init.sql`'s trigger broadcasts on it (`room:<id>`,
/// which Realtime's clients address as `realtime:room:<id>`).
fn realtime_topic(room: &str) -> String {
    format!("realtime:room:{room}")
}

/// The join ref of the page's one channel; heartbeats count up from the next number.
const JOIN_REF: &str = "1";

/// Joins a public broadcast channel (no acknowledgements, nothing of its own heard), with
/// presence under a key the server chooses. (Frames are written as text: `json!` costs the bundle
/// 1 KB a frame.)
fn join_frame(topic: &str) -> String {
    let config = r#"{"broadcast":{"ack":false,"self":false},"presence":{"enabled":true,"key":""},"private":false}"#;
    format!(
        r#"{{"topic":{},"event":"phx_join","payload":{{"config":{config}}},"ref":"1","join_ref":"1"}}"#,
        quoted(topic)
    )
}

/// Counts this page among the room's open pages (it carries nothing: only the number matters).
fn track_frame(topic: &str) -> String {
    let payload = r#"{"type":"presence","event":"track","payload":{}}"#;
    format!(r#"{{"topic":{},"event":"presence","payload":{payload},"ref":"track","join_ref":"1"}}"#, quoted(topic))
}

fn quoted(text: &str) -> String {
    Value::from(text).to_string()
}

fn heartbeat_frame(number: u32) -> String {
    format!(r#"{{"topic":"phoenix","event":"heartbeat","payload":{{}},"ref":"{number}"}}"#)
}

/// What a frame from Realtime means to the page.
#[derive(Debug, PartialEq)]
enum Frame {
    Heard(Heard),
    /// The server answered heartbeat number `n`.
    Beat(u32),
    /// Everyone in the room's presence now (the count of keys)...
    Presence(u32),
    /// ... and who came and went since (keys joining, keys leaving).
    PresenceChange(u32, u32),
    /// Our channel was refused or closed by the server: the socket is to be closed.
    Refused,
    /// Nothing for us (another event, another topic, something unreadable).
    Other,
}

fn read_frame(text: &str, topic: &str) -> Frame {
    let Ok(frame) = serde_json::from_str::<Value>(text) else { return Frame::Other };
    let (event, payload) = (frame["event"].as_str().unwrap_or_default(), &frame["payload"]);
    if frame["topic"] == "phoenix" && event == "phx_reply" {
        return frame["ref"].as_str().and_then(|r| r.parse().ok()).map_or(Frame::Other, Frame::Beat);
    }
    if frame["topic"] != topic {
        return Frame::Other;
    }
    match event {
        "phx_reply" if frame["ref"] == JOIN_REF => {
            if payload["status"] == "ok" {
                Frame::Heard(Heard::Open)
            } else {
                Frame::Refused
            }
        }
        "broadcast" if payload["event"] == "room" => {
            let message = &payload["payload"];
            let version = message["version"].as_i64();
            let room = crate::api::room_from(message["view"].clone()).ok().filter(|view| version == Some(view.version));
            version.map_or(Frame::Other, |v| Frame::Heard(Heard::Changed(v, room.map(Box::new))))
        }
        "presence_state" => Frame::Presence(keys(payload)),
        "presence_diff" => Frame::PresenceChange(keys(&payload["joins"]), keys(&payload["leaves"])),
        "phx_error" | "phx_close" => Frame::Refused,
        _ => Frame::Other,
    }
}

fn keys(map: &Value) -> u32 {
    map.as_object().map_or(0, |m| m.len() as u32)
}

/// A Realtime channel for `room`. It heartbeats every `every_ms` (the pace at which the page polls
/// while push works, and at most every 25 s, as Realtime's own clients do): a heartbeat still
/// unanswered at the next one means a dead connection, which is closed, so the page falls back
/// to polling within about one poll interval instead of waiting for TCP to notice.
fn open_realtime(
    socket_url: &str,
    key: &str,
    room: &str,
    every_ms: u32,
    heard: impl Fn(Heard) + 'static,
) -> Option<PushChannel> {
    let key = String::from(js_sys::encode_uri_component(key));
    let socket = WebSocket::new(&format!("{socket_url}?apikey={key}&vsn=1.0.0")).ok()?;
    let topic = realtime_topic(room);
    // Heartbeats sent and answered, by number.
    let beats = Rc::new((Cell::new(1u32), Cell::new(1u32)));
    let present = Cell::new(0u32);
    let listener = {
        let (socket, beats) = (socket.clone(), beats.clone());
        Closure::<dyn FnMut(Event)>::new(move |event: Event| match event.type_().as_str() {
            "open" => {
                let _ = socket.send_with_str(&join_frame(&topic));
            }
            "message" => match read_frame(&message_text(&event), &topic) {
                Frame::Heard(Heard::Open) => {
                    let _ = socket.send_with_str(&track_frame(&topic));
                    heard(Heard::Open)
                }
                Frame::Heard(news) => heard(news),
                Frame::Presence(keys) => {
                    present.set(keys);
                    heard(Heard::Present(keys))
                }
                Frame::PresenceChange(joins, leaves) => {
                    present.set((present.get() + joins).saturating_sub(leaves));
                    heard(Heard::Present(present.get()))
                }
                Frame::Beat(number) => beats.1.set(number),
                Frame::Refused => {
                    let _ = socket.close();
                }
                Frame::Other => {}
            },
            _ => heard(Heard::Failed),
        })
    };
    listen(&socket, &["open", "message", "error", "close"], &listener)?;
    let heartbeat = {
        let socket = socket.clone();
        Interval::new(every_ms.clamp(1_000, 25_000), move || {
            if socket.ready_state() != WebSocket::OPEN {
                return;
            }
            let (sent, answered) = (beats.0.get(), beats.1.get());
            if answered < sent {
                let _ = socket.close();
                return;
            }
            beats.0.set(sent + 1);
            let _ = socket.send_with_str(&heartbeat_frame(sent + 1));
        })
    };
    Some(PushChannel { link: Link::Realtime { socket, _heartbeat: heartbeat }, _listener: listener })
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TOPIC: &str = "realtime:room:abc";

    #[test]
    fn the_join_and_heartbeat_frames_are_phoenix_messages() {
        let join: Value = serde_json::from_str(&join_frame(&realtime_topic("abc"))).unwrap();
        assert_eq!(join["topic"], TOPIC);
        assert_eq!(join["event"], "phx_join");
        assert_eq!((join["ref"].as_str(), join["join_ref"].as_str()), (Some("1"), Some("1")));
        assert_eq!(join["payload"]["config"]["private"], false);
        assert_eq!(join["payload"]["config"]["broadcast"]["self"], false);
        assert_eq!(join["payload"]["config"]["presence"]["enabled"], true);
        let track: Value = serde_json::from_str(&track_frame(TOPIC)).unwrap();
        assert_eq!((&track["event"], &track["join_ref"]), (&json!("presence"), &json!("1")));
        assert_eq!((&track["payload"]["type"], &track["payload"]["event"]), (&json!("presence"), &json!("track")));
        let beat: Value = serde_json::from_str(&heartbeat_frame(7)).unwrap();
        assert_eq!(beat, json!({"topic": "phoenix", "event": "heartbeat", "payload": {}, "ref": "7"}));
    }

    #[test]
    fn a_broadcast_carrying_the_room_is_read_with_it_at_its_version() {
        let view = |version: i64| {
            json!({"roomId": "abc", "game": "popucom", "config": {}, "moves": [[4, 4]], "version": version,
                   "gameNumber": 0, "seats": [], "state": {}, "takeback": null})
        };
        let frame = |version: i64, view: Value| {
            let message = json!({"roomId": "abc", "version": version, "view": view, "etag": "\"1-7\""});
            let frame = json!({"topic": TOPIC, "event": "broadcast",
                               "payload": {"type": "broadcast", "event": "room", "payload": message}});
            read_frame(&frame.to_string(), TOPIC)
        };
        let Frame::Heard(Heard::Changed(7, Some(room))) = frame(7, view(7)) else { panic!("not read") };
        assert_eq!((room.version, room.moves.len()), (7, 1));
        // A view of another version, or one that is not a room, is not taken: the page fetches.
        assert_eq!(frame(7, view(6)), Frame::Heard(Heard::Changed(7, None)));
        assert_eq!(frame(7, json!({"version": 7})), Frame::Heard(Heard::Changed(7, None)));
    }

    #[test]
    fn realtime_frames_are_read_for_this_room_only() {
        let frame = |v: Value| read_frame(&v.to_string(), TOPIC);
        let broadcast = |topic: &str, event: &str, version: Value| {
            json!({"topic": topic, "event": "broadcast", "ref": null,
                   "payload": {"type": "broadcast", "event": event, "payload": {"roomId": "abc", "version": version}}})
        };
        assert_eq!(frame(broadcast(TOPIC, "room", json!(12))), Frame::Heard(Heard::Changed(12, None)));
        assert_eq!(frame(broadcast("realtime:room:other", "room", json!(12))), Frame::Other);
        assert_eq!(frame(broadcast(TOPIC, "chat", json!(12))), Frame::Other);
        assert_eq!(frame(broadcast(TOPIC, "room", json!("12"))), Frame::Other);

        let reply = |topic: &str, r: &str, status: &str| json!({"topic": topic, "event": "phx_reply", "ref": r, "payload": {"status": status, "response": {}}});
        assert_eq!(frame(reply(TOPIC, "1", "ok")), Frame::Heard(Heard::Open));
        assert_eq!(frame(reply(TOPIC, "1", "error")), Frame::Refused);
        assert_eq!(frame(reply("realtime:room:other", "1", "ok")), Frame::Other);
        assert_eq!(frame(reply("phoenix", "5", "ok")), Frame::Beat(5));

        for event in ["phx_error", "phx_close"] {
            assert_eq!(frame(json!({"topic": TOPIC, "event": event, "payload": {}})), Frame::Refused);
            assert_eq!(frame(json!({"topic": "realtime:room:x", "event": event, "payload": {}})), Frame::Other);
        }
        assert_eq!(read_frame("not json", TOPIC), Frame::Other);

        let metas = json!({"metas": [{"phx_ref": "F1"}]});
        let state = json!({"topic": TOPIC, "event": "presence_state", "payload": {"a": metas, "b": metas}});
        assert_eq!(frame(state), Frame::Presence(2));
        let diff = json!({"topic": TOPIC, "event": "presence_diff",
                          "payload": {"joins": {"c": metas, "d": metas, "e": metas}, "leaves": {"a": metas}}});
        assert_eq!(frame(diff.clone()), Frame::PresenceChange(3, 1));
        let mut elsewhere = diff;
        elsewhere["topic"] = json!("realtime:room:other");
        assert_eq!(frame(elsewhere), Frame::Other);
    }
}
