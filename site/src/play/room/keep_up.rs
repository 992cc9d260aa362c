//! Keeping a room current: polls (about once a second while waiting and visible, slower
//! otherwise, at once when the tab comes back; a failed poll shows "connection lost" and retries
//! with back-off), and the push where the server has it: a change (or the channel opening, to catch
//! up) ends the wait at once, and polls slow down to the server's pace; when the channel fails,
//! polling goes back to its own pace until the browser reopens it. The channel closes with this
//! task. Reads use `try_` so that a poll finishing after the page is gone ends quietly.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use tabula_core::Game;

use super::super::pacing::{poll_delay_ms, retry_delay_ms, REOPEN_PUSH_MS, TICK_MS};
use super::super::push::{self, Heard};
use super::super::GameUi;
use super::requests::adds_moves;
use super::session::{RoomSession, RoomState};
use crate::api::{self, ApiError, Fetched};
use crate::browser;

/// Starts the task that keeps `session` current while its page is open.
pub(super) fn keep_up<U: GameUi>(session: RoomSession<U>) {
    let RoomState { room, etag, held, pending, offline, open_pages, my_colour, live, .. } = session.state;
    let visible_signal = session.state.visible;
    let id = session.id();
    spawn_local(async move {
        let nudge = push::Nudge::default();
        let push_pace = Arc::new(AtomicU32::new(0));
        let mode = api::push_mode().await.unwrap_or(api::PushMode::Poll);
        let heard = {
            let (nudge, push_pace, session) = (nudge.clone(), push_pace.clone(), session.clone());
            let poll_ms = match &mode {
                api::PushMode::Sse { poll_ms, .. } | api::PushMode::Realtime { poll_ms, .. } => *poll_ms,
                api::PushMode::Poll => 0,
            };
            move |heard| {
                let news = match heard {
                    Heard::Changed(version, pushed) => {
                        let shown = room.try_get_untracked().flatten();
                        let newer = version > shown.as_ref().map_or(-1, |r| r.version);
                        // The room came with the push: shown at once when it only adds moves the
                        // engine can replay to the game shown and no move of ours is in flight
                        // (its answer decides). Anyone may broadcast on the room's public channel,
                        // so its ETag is not taken: the next poll brings the room in full.
                        let idle = pending.try_with_untracked(Option::is_none).unwrap_or(false);
                        let pushed = pushed.filter(|view| newer && idle && shown.is_some_and(|r| adds_moves(&r, view)));
                        match pushed.filter(|view| session.replay(view).is_some()) {
                            Some(view) => {
                                session.accept(*view);
                                false
                            }
                            None => newer,
                        }
                    }
                    Heard::Open => {
                        push_pace.store(poll_ms, Ordering::Relaxed);
                        push::show_state("live");
                        true
                    }
                    Heard::Present(pages) => {
                        let _ = open_pages.try_set(Some(pages as usize));
                        false
                    }
                    Heard::Failed => {
                        let _ = open_pages.try_set(None);
                        push_pace.store(0, Ordering::Relaxed);
                        push::show_state("off");
                        false
                    }
                };
                if news {
                    nudge.nudge();
                }
            }
        };
        // A channel the browser gave up on (it does after a refusal) is opened anew now and then.
        let (mut channel, mut reopen_in) = (None::<push::PushChannel>, 0u32);
        let mut failures = 0u32;
        // Clock time since the last poll: a hidden tab's timers may wake only once a second (or once
        // a minute), so counting ticks would stretch its polls past the abandonment time.
        let mut last_poll = js_sys::Date::now();
        let mut news = false;
        let mut seen_wake = session.wake.load(Ordering::Relaxed);
        let mut was_visible = browser::page_visible();
        while session.alive.load(Ordering::Relaxed) {
            // A push stays news until a poll has fetched it (not while a move is in flight).
            news |= nudge.sleep(TICK_MS).await;
            reopen_in = reopen_in.saturating_sub(TICK_MS);
            if channel.as_ref().is_some_and(push::PushChannel::closed) {
                channel = None;
            }
            if channel.is_none() && reopen_in == 0 && !matches!(mode, api::PushMode::Poll) {
                channel = push::open(&mode, &id, heard.clone());
                reopen_in = REOPEN_PUSH_MS;
            }
            let wake_now = session.wake.load(Ordering::Relaxed);
            let (Some(busy), Some(colour), Some(game)) = (
                pending.try_with_untracked(Option::is_some),
                my_colour.try_get_untracked(),
                live.try_with_untracked(|h| h.as_ref().map(|h| h.current().status())),
            ) else {
                break;
            };
            let visible = browser::page_visible();
            if visible != was_visible {
                let _ = visible_signal.try_set(visible);
            }
            let woken = news || wake_now != seen_wake || (visible && !was_visible);
            was_visible = visible;
            let my_turn = colour.is_some() && game.and_then(|s| s.to_move()) == colour;
            let pace = Some(push_pace.load(Ordering::Relaxed)).filter(|&ms| ms > 0);
            let due = if failures > 0 { retry_delay_ms(failures - 1) } else { poll_delay_ms(visible, my_turn, pace) };
            let waited = (js_sys::Date::now() - last_poll).max(0.0) as u32;
            if !woken && waited < due || busy {
                continue;
            }
            (seen_wake, last_poll, news) = (wake_now, js_sys::Date::now(), false);
            let before = session.generation.load(Ordering::Relaxed);
            let (Some(tag), Some(seat)) = (etag.try_get_value(), held.try_get_untracked()) else { break };
            let token = seat.map(|s| s.token);
            // A seated page tells the room how many pages it has open, where only they count.
            let pages = token.as_ref().and(open_pages.try_get_untracked().flatten()).map(|n| n as u32);
            match api::fetch_room(&id, tag.as_deref(), token.as_deref(), pages).await {
                Ok(Fetched::Unchanged) => {
                    failures = 0;
                    offline.set(false);
                }
                Ok(Fetched::Room { room: view, etag: tag }) => {
                    failures = 0;
                    offline.set(false);
                    // A move or action answered while this poll was in flight: its room is newer.
                    let unchanged = session.generation.load(Ordering::Relaxed) == before;
                    if unchanged
                        && pending.try_with_untracked(Option::is_none).unwrap_or(false)
                        && session.sync(view.as_ref())
                    {
                        etag.set_value(tag);
                    }
                }
                Err(ApiError::Network(_)) => {
                    failures += 1;
                    offline.set(true);
                }
                Err(_) => failures += 1,
            }
        }
    });
}
