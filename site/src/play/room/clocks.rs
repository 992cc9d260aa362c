//! The room's clocks beside the board: each colour's time left, ticking on the page between the
//! server's answers (each answer corrects it), the running one marked, low time shown by colour, a
//! mark and a screen-reader announcement (30 s and 10 s left in live games, 24 hours and 1 hour in
//! correspondence); a correspondence move's deadline as a date.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use leptos::prelude::*;
use tabula_core::Seat;

use super::session::RoomState;
use crate::i18n::I18n;
use crate::play::GameUi;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// `1:05`, `1:02:03`, or `2d 5h` from a day on; seconds rounded up, so `0:00` is out of time.
pub fn clock_text(ms: i64) -> String {
    if ms >= DAY_MS {
        return format!("{}d {}h", ms / DAY_MS, ms % DAY_MS / HOUR_MS);
    }
    let seconds = (ms.max(0) + 999) / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// How low a side's time is: 0 not low, 1 under the first mark, 2 under the second.
pub fn low_level(correspondence: bool, ms: i64) -> u8 {
    let (first, second) = if correspondence { (DAY_MS, HOUR_MS) } else { (30_000, 10_000) };
    u8::from(ms <= first) + u8::from(ms <= second)
}

/// The clocks of a room with a time control; nothing for one without.
pub fn clocks<U: GameUi>(i18n: I18n, state: RoomState<U>) -> impl IntoView {
    // The milliseconds since the page got the room: the running clock counts down on the page's
    // own time from there. When it got it is an `f64`'s bits outside the reactive system (a signal
    // of a type of its own costs the bundle 2 KB).
    let since_received = RwSignal::new(0u32);
    let received = Arc::new(AtomicU64::new(js_sys::Date::now().to_bits()));
    Effect::new({
        let received = received.clone();
        move |_| {
            state.room.track();
            received.store(js_sys::Date::now().to_bits(), Ordering::Relaxed);
            since_received.set(0);
        }
    });
    let interval = set_interval_with_handle(
        move || {
            let elapsed = js_sys::Date::now() - f64::from_bits(received.load(Ordering::Relaxed));
            since_received.set(elapsed.max(0.0) as u32);
        },
        std::time::Duration::from_millis(500),
    );
    on_cleanup(move || {
        if let Ok(handle) = interval {
            handle.clear();
        }
    });
    let correspondence = move || state.room.with(|r| r.as_ref().is_some_and(|r| r.clock["kind"] == "correspondence"));
    // Each colour's time left now, and whether its clock runs (`clocks` as the server sent it).
    let left = move |seat: Seat| {
        let elapsed = i64::from(since_received.get());
        state.room.with(|r| {
            let clocks = &r.as_ref()?.clocks;
            let running = clocks["running"].as_u64() == Some(u64::from(seat.number()));
            let ms = clocks["remainingMs"][seat.index()].as_i64()? - if running { elapsed } else { 0 };
            Some((ms.max(0), running))
        })
    };
    // The running side's low-time level, as its colour times 3 plus the level (0 for none): it
    // changes only at the marks, so each is announced once. (`usize`: a `Memo` of a type of its own
    // costs the bundle 2 KB.)
    let alert = Memo::new(move |_| {
        Seat::ALL
            .into_iter()
            .find_map(|seat| match left(seat) {
                Some((ms, true)) => Some(usize::from(seat.number()) * 3 + usize::from(low_level(correspondence(), ms))),
                _ => None,
            })
            .filter(|n| n % 3 > 0)
            .unwrap_or(0)
    });
    // A running clock at zero: ask the server now (it writes the timeout, and the push tells the
    // other pages) instead of at the next poll, which may be half a minute away with a push
    // channel; again every 2 s while the server still counts time left (the clocks may differ).
    let flag_fell = Memo::new(move |_| match Seat::ALL.into_iter().any(|seat| left(seat) == Some((0, true))) {
        true => 1 + since_received.get() as usize / 2000,
        false => 0,
    });
    Effect::new(move |_| {
        if flag_fell.get() > 0 {
            state.wake.update(|w| *w += 1);
        }
    });
    // Both clocks as one piece of HTML, redrawn at each tick: one reactive view instead of one per
    // part (each costs the bundle its own code). The words are the site's own, the date the browser's.
    let html = move || {
        let mut html = String::new();
        for seat in Seat::ALL {
            let Some((ms, running)) = left(seat) else { return String::new() };
            let low = if low_level(correspondence(), ms) > 0 { " low" } else { "" };
            let running_class = if running { " running" } else { "" };
            html += &format!(
                "<span class=\"clock seat-{n}{running_class}{low}\" id=\"clock-{n}\"><span class=\"clock-name\">{}</span> \
                 <span class=\"clock-time\">{}</span></span>",
                escape(&i18n.t(U::colour_id(seat))),
                clock_text(ms),
                n = seat.number(),
            );
            if running && correspondence() {
                let date = js_sys::Date::new(&(js_sys::Date::now() + ms as f64).into());
                let when: String = date.to_locale_string(i18n.lang.get().tag(), &js_sys::Object::new()).into();
                let player = i18n.t(U::colour_id(seat));
                let until = i18n.t_with("clock-until", &[("player", player.into()), ("date", when.into())]);
                html += &format!("<span class=\"clock-deadline\">{}</span>", escape(&until));
            }
        }
        html
    };
    view! {
        <div class="clocks" id="clocks" inner_html=html></div>
        <p class="visually-hidden" role="status" id="clock-alert">
            {move || Seat::from_number((alert.get() / 3) as u8).map(|seat| {
                let time = left(seat).map(|(ms, _)| clock_text(ms)).unwrap_or_default();
                i18n.t_with("clock-low", &[("player", i18n.t(U::colour_id(seat)).into()), ("time", time.into())])
            })}
        </p>
    }
}

/// Text made safe inside HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_players_read_them() {
        assert_eq!(clock_text(600_000), "10:00");
        assert_eq!(clock_text(59_001), "1:00", "seconds round up");
        assert_eq!(clock_text(1), "0:01");
        assert_eq!(clock_text(0), "0:00");
        assert_eq!(clock_text(-5), "0:00");
        assert_eq!(clock_text(3_723_000), "1:02:03");
        assert_eq!(clock_text(3 * DAY_MS), "3d 0h");
        assert_eq!(clock_text(2 * DAY_MS + 5 * HOUR_MS + 1), "2d 5h");
    }

    #[test]
    fn low_time_has_two_marks() {
        assert_eq!([31_000, 30_000, 10_001, 10_000, 0].map(|ms| low_level(false, ms)), [0, 1, 1, 2, 2]);
        assert_eq!([DAY_MS + 1, DAY_MS, HOUR_MS].map(|ms| low_level(true, ms)), [0, 1, 2]);
    }
}
