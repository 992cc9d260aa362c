//! Time controls, kept by the server: a room's clock setting (chosen when the room is created, the
//! same for every rematch) and the current game's clocks. Free of I/O: every function takes `now`.
//!
//! Time used is what the server counts between the change that gave a side the move and the move
//! it sends. The clocks start once both colours have made a move; before that, a side that does not
//! make its first move within its whole time has the game aborted. A side whose time runs out
//! loses. A takeback gives no time back.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tabula_core::Seat;

use crate::error::ApiError;

const MS_PER_DAY: i64 = 86_400_000;
/// The days a correspondence move may take.
pub const CORRESPONDENCE_DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum ClockSetting {
    /// A clock per side with a Fischer increment added after each of its moves.
    Live { initial_seconds: u32, increment_seconds: u32 },
    /// Each move within `days_per_move`, the time reset after every move.
    Correspondence { days_per_move: u32 },
}

impl ClockSetting {
    /// A request's `clock`: absent, `null` or `{"kind": "none"}` for none.
    pub fn parse(value: Option<&Value>) -> Result<Option<ClockSetting>, ApiError> {
        let value = match value {
            None | Some(Value::Null) => return Ok(None),
            Some(value) if value.get("kind").and_then(Value::as_str) == Some("none") => return Ok(None),
            Some(value) => value,
        };
        let bad = |why: &str| ApiError::BadRequest(format!("clock: {why}"));
        let setting = ClockSetting::deserialize(value).map_err(|e| bad(&e.to_string()))?;
        match setting {
            ClockSetting::Live { initial_seconds, increment_seconds } => {
                if !(1..=10_800).contains(&initial_seconds) {
                    return Err(bad("initialSeconds must be a whole number from 1 to 10800"));
                }
                if increment_seconds > 180 {
                    return Err(bad("incrementSeconds must be a whole number from 0 to 180"));
                }
            }
            ClockSetting::Correspondence { days_per_move } => {
                if !CORRESPONDENCE_DAYS.contains(&days_per_move) {
                    return Err(bad("daysPerMove must be 1, 2, 3, 5, 7 or 14"));
                }
            }
        }
        Ok(Some(setting))
    }

    /// A side's whole time: the initial time, or a correspondence move's.
    pub fn full_ms(self) -> i64 {
        match self {
            ClockSetting::Live { initial_seconds, .. } => i64::from(initial_seconds) * 1000,
            ClockSetting::Correspondence { days_per_move } => i64::from(days_per_move) * MS_PER_DAY,
        }
    }
}

/// How a game ended on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ClockEnd {
    /// The colour (1 or 2) whose time ran out.
    Timeout { loser: u8 },
    /// The colour whose time ran out against one that could no longer win (a lone king): a draw.
    TimeoutDraw { loser: u8 },
    /// A side did not make its first move in time: no one loses.
    Aborted,
}

/// A room's clock: its setting and the current game's clocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Clock {
    pub setting: ClockSetting,
    /// Each colour's time left (first, second) when it last got the move.
    pub remaining_ms: [i64; 2],
    /// Which colours have moved in this game: the clocks run once both have.
    pub moved: [bool; 2],
    /// When the side to move got the move: the last move, takeback, new game or seat taken.
    pub since: DateTime<Utc>,
    pub ended: Option<ClockEnd>,
}

impl Clock {
    pub fn new(setting: ClockSetting, now: DateTime<Utc>) -> Clock {
        let full = setting.full_ms();
        Clock { setting, remaining_ms: [full, full], moved: [false; 2], since: now, ended: None }
    }

    /// Both colours have moved and the game has not ended on the clock.
    pub fn running(&self) -> bool {
        self.moved == [true, true] && self.ended.is_none()
    }

    fn elapsed_ms(&self, now: DateTime<Utc>) -> i64 {
        (now - self.since).num_milliseconds().max(0)
    }

    /// How the game ends on the clock at `now`, if it does: `to_move` is the side on move, and
    /// nobody's time runs while a seat is empty.
    pub fn flag(&self, to_move: Option<Seat>, seats_full: bool, now: DateTime<Utc>) -> Option<ClockEnd> {
        let side = to_move.filter(|_| seats_full && self.ended.is_none())?;
        let elapsed = self.elapsed_ms(now);
        if self.running() {
            (elapsed > self.remaining_ms[side.index()]).then_some(ClockEnd::Timeout { loser: side.number() })
        } else {
            (!self.moved[side.index()] && elapsed > self.setting.full_ms()).then_some(ClockEnd::Aborted)
        }
    }

    /// How long `side` has left to move at `now`: its clock once the clocks run, before that the
    /// time to make its first move (negative once past).
    pub fn left_ms(&self, side: Seat, now: DateTime<Utc>) -> i64 {
        let budget = if self.running() { self.remaining_ms[side.index()] } else { self.setting.full_ms() };
        budget - self.elapsed_ms(now)
    }

    /// Records how the game ended on the clock: a side out of time has none left.
    pub fn end(&mut self, end: ClockEnd) {
        if let ClockEnd::Timeout { loser } | ClockEnd::TimeoutDraw { loser } = end {
            if let Some(side) = Seat::from_number(loser) {
                self.remaining_ms[side.index()] = 0;
            }
        }
        self.ended = Some(end);
    }

    /// `mover` moved at `now`, with `on_move` the side the game had on move: once the clocks run,
    /// that side pays the time since it got the move and the mover gets its increment; in
    /// correspondence every move gives back the whole time. The two sides differ only in Go's
    /// scoring phase, where either colour marks stones while one clock runs.
    pub fn moved(&mut self, mover: Seat, on_move: Option<Seat>, now: DateTime<Utc>) {
        if self.running() {
            match self.setting {
                ClockSetting::Live { increment_seconds, .. } => {
                    let paying = on_move.unwrap_or(mover).index();
                    self.remaining_ms[paying] -= self.elapsed_ms(now);
                    self.remaining_ms[mover.index()] += i64::from(increment_seconds) * 1000;
                }
                ClockSetting::Correspondence { .. } => self.remaining_ms = [self.setting.full_ms(); 2],
            }
        }
        self.moved[mover.index()] = true;
        self.since = now;
    }

    /// The side on move pays the time it has used so far, and the count starts again from `now`
    /// (a takeback: no time is given back; a seat taken before the first moves: the first move's
    /// time starts when both players are there).
    pub fn restart_turn(&mut self, to_move: Option<Seat>, now: DateTime<Utc>) {
        if let Some(side) = to_move.filter(|_| self.running()) {
            self.remaining_ms[side.index()] -= self.elapsed_ms(now);
        }
        self.since = now;
    }

    /// The clocks as pages see them at `now`: each colour's time left, the running one counted
    /// down to `now`, so a page can tick on its own and correct itself with every answer. (The
    /// room view adds `asOf`, `now` as it writes times.)
    pub fn view(&self, to_move: Option<Seat>, now: DateTime<Utc>) -> Value {
        let running = to_move.filter(|_| self.running());
        let mut remaining = self.remaining_ms;
        if let Some(side) = running {
            remaining[side.index()] = (remaining[side.index()] - self.elapsed_ms(now)).max(0);
        }
        json!({"remainingMs": remaining, "running": running.map(Seat::number)})
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    fn at(ms: i64) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(1_800_000_000_000 + ms).unwrap()
    }

    fn live(initial: u32, increment: u32) -> ClockSetting {
        ClockSetting::Live { initial_seconds: initial, increment_seconds: increment }
    }

    /// A clock of `setting` whose sides both made their first move at 0: running.
    fn running(setting: ClockSetting) -> Clock {
        let mut clock = Clock::new(setting, at(0));
        clock.moved(Seat::One, Some(Seat::One), at(0));
        clock.moved(Seat::Two, Some(Seat::Two), at(0));
        clock
    }

    #[test]
    fn settings_are_read_and_checked() {
        let read = |v: Value| ClockSetting::parse(Some(&v));
        assert_eq!(ClockSetting::parse(None).unwrap(), None);
        assert_eq!(read(json!(null)).unwrap(), None);
        assert_eq!(read(json!({"kind": "none"})).unwrap(), None);
        assert_eq!(
            read(json!({"kind": "live", "initialSeconds": 300, "incrementSeconds": 3})).unwrap(),
            Some(live(300, 3))
        );
        assert_eq!(
            read(json!({"kind": "correspondence", "daysPerMove": 3})).unwrap(),
            Some(ClockSetting::Correspondence { days_per_move: 3 })
        );
        for bad in [
            json!({"kind": "live", "initialSeconds": 0, "incrementSeconds": 0}),
            json!({"kind": "live", "initialSeconds": 10_801, "incrementSeconds": 0}),
            json!({"kind": "live", "initialSeconds": 60, "incrementSeconds": 181}),
            json!({"kind": "live", "initialSeconds": 60}),
            json!({"kind": "live", "initialSeconds": 60.5, "incrementSeconds": 0}),
            json!({"kind": "live", "initialSeconds": -1, "incrementSeconds": 0}),
            json!({"kind": "correspondence", "daysPerMove": 4}),
            json!({"kind": "correspondence", "daysPerMove": 3, "extra": 1}),
            json!({"kind": "blitz"}),
            json!("live"),
        ] {
            let error = read(bad.clone()).expect_err(&bad.to_string());
            assert_eq!(error.code(), "bad_request", "{bad}");
        }
        assert_eq!(
            serde_json::to_value(live(180, 2)).unwrap(),
            json!({"kind": "live", "initialSeconds": 180, "incrementSeconds": 2})
        );
    }

    #[test]
    fn live_clocks_start_after_both_first_moves_and_add_the_increment() {
        let mut clock = Clock::new(live(60, 2), at(0));
        // The first moves cost nothing, however long they take within the minute.
        clock.moved(Seat::One, Some(Seat::One), at(50_000));
        clock.moved(Seat::Two, Some(Seat::Two), at(100_000));
        assert!(clock.running());
        assert_eq!(clock.remaining_ms, [60_000, 60_000]);
        clock.moved(Seat::One, Some(Seat::One), at(110_000));
        assert_eq!(clock.remaining_ms, [52_000, 60_000], "10 s used, 2 s added");
        let view = clock.view(Some(Seat::Two), at(115_500));
        assert_eq!(view["remainingMs"], json!([52_000, 54_500]));
        assert_eq!(view["running"], json!(2));
        assert_eq!(clock.flag(Some(Seat::Two), true, at(170_000)), None, "exactly the time left: not yet out");
        assert_eq!(clock.flag(Some(Seat::Two), true, at(170_001)), Some(ClockEnd::Timeout { loser: 2 }));
    }

    #[test]
    fn a_first_move_not_made_in_time_aborts_and_empty_seats_stop_nothing_from_waiting() {
        let clock = Clock::new(live(30, 0), at(0));
        assert_eq!(clock.flag(Some(Seat::One), false, at(10_000_000)), None, "waiting for an opponent");
        assert_eq!(clock.flag(Some(Seat::One), true, at(30_000)), None);
        assert_eq!(clock.flag(Some(Seat::One), true, at(30_001)), Some(ClockEnd::Aborted));
        let mut clock = clock;
        clock.moved(Seat::One, Some(Seat::One), at(1_000));
        assert_eq!(
            clock.flag(Some(Seat::Two), true, at(31_001)),
            Some(ClockEnd::Aborted),
            "the reply's first move too"
        );
        assert_eq!(clock.view(Some(Seat::Two), at(20_000))["running"], Value::Null, "not running before both moved");
        assert_eq!(clock.flag(None, true, at(99_000)), None, "a finished game");
    }

    #[test]
    fn correspondence_resets_the_time_after_every_move() {
        let days = |n: i64| Duration::days(n).num_milliseconds();
        let mut clock = Clock::new(ClockSetting::Correspondence { days_per_move: 2 }, at(0));
        clock.moved(Seat::One, Some(Seat::One), at(days(1)));
        clock.moved(Seat::Two, Some(Seat::Two), at(days(2)));
        clock.moved(Seat::One, Some(Seat::One), at(days(3)));
        assert_eq!(clock.remaining_ms, [days(2), days(2)]);
        assert_eq!(clock.flag(Some(Seat::Two), true, at(days(5))), None);
        assert_eq!(clock.flag(Some(Seat::Two), true, at(days(5) + 1)), Some(ClockEnd::Timeout { loser: 2 }));
    }

    #[test]
    fn the_side_on_move_pays_even_when_the_other_side_moves() {
        // Go's scoring phase: either colour marks stones; the clock that runs is the one that pays.
        let mut clock = running(live(60, 1));
        clock.moved(Seat::Two, Some(Seat::One), at(7_000));
        assert_eq!(clock.remaining_ms, [53_000, 61_000]);
    }

    #[test]
    fn a_takeback_gives_no_time_back() {
        let mut clock = running(live(60, 0));
        clock.moved(Seat::One, Some(Seat::One), at(10_000));
        // Two thinks 20 s, then One's move is taken back: Two keeps its 20 s spent.
        clock.restart_turn(Some(Seat::Two), at(30_000));
        assert_eq!(clock.remaining_ms, [50_000, 40_000]);
        assert_eq!(clock.since, at(30_000));
    }
}
