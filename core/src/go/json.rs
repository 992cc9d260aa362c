//! JSON shapes. Vertices are GTP's (`"C3"`: columns A..T without I, rows from 1 at the bottom).
//! Moves: `{"type": "play", "at": "C3"}`, `{"type": "pass"}`, `{"type": "resign"}`, and in the
//! scoring phase `{"type": "toggle", "at": "C3"}`, `{"type": "accept"}`, `{"type": "resume"}`; each
//! may carry `"colour": 1|2` (black 1), which scoring moves must.
//!
//! The state (also the view) uses the shared conventions: `board` rows top first with 0/1/2,
//! `to_move` 1|2|null, `result`. Reading a state back rebuilds the board stone by stone and checks
//! that every group has a liberty; the superko history before it is not part of the state.

use std::fmt;
use std::str::FromStr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::board::{Board, EMPTY};
use super::score::AreaScore;
use super::{Go, GoConfig, GoMove, Scoring};
use crate::game::{BySeat, Game, Outcome, OutcomeRecord, Seat};

const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A GTP vertex: column (0 = A) and row (1 = the bottom row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    pub col: u8,
    pub row: u8,
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", LETTERS[self.col as usize] as char, self.row)
    }
}

impl FromStr for Vertex {
    type Err = String;

    fn from_str(text: &str) -> Result<Vertex, String> {
        let bad = || format!("{text:?} is not a vertex like C3");
        let mut chars = text.trim().chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let col = LETTERS.iter().position(|&l| l as char == letter).ok_or_else(bad)?;
        let row: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if row == 0 || row > 25 {
            return Err(bad());
        }
        Ok(Vertex { col: col as u8, row })
    }
}

impl Serialize for Vertex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Vertex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// A move's JSON: `{"type", "at"?, "colour"?}`. A plain struct rather than serde's internally
/// tagged enum, which buffers every field first (its code weighs on the site's page budget); the
/// same shapes are accepted and refused.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRepr {
    #[serde(rename = "type")]
    kind: MoveKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<Vertex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    colour: Option<Seat>,
}

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum MoveKind {
    Play,
    Pass,
    Resign,
    Toggle,
    Accept,
    Resume,
}

impl Serialize for GoMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (kind, at) = match *self {
            GoMove::Play { at, .. } => (MoveKind::Play, Some(at)),
            GoMove::Pass { .. } => (MoveKind::Pass, None),
            GoMove::Resign { .. } => (MoveKind::Resign, None),
            GoMove::Toggle { at, .. } => (MoveKind::Toggle, Some(at)),
            GoMove::Accept { .. } => (MoveKind::Accept, None),
            GoMove::Resume { .. } => (MoveKind::Resume, None),
        };
        MoveRepr { kind, at, colour: self.colour() }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for GoMove {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let MoveRepr { kind, at, colour } = MoveRepr::deserialize(d)?;
        let point = || at.ok_or_else(|| D::Error::missing_field("at"));
        if at.is_some() && !matches!(kind, MoveKind::Play | MoveKind::Toggle) {
            return Err(D::Error::custom("this move type takes no `at`"));
        }
        Ok(match kind {
            MoveKind::Play => GoMove::Play { at: point()?, colour },
            MoveKind::Toggle => GoMove::Toggle { at: point()?, colour },
            MoveKind::Pass => GoMove::Pass { colour },
            MoveKind::Resign => GoMove::Resign { colour },
            MoveKind::Accept => GoMove::Accept { colour },
            MoveKind::Resume => GoMove::Resume { colour },
        })
    }
}

#[derive(Serialize, Deserialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Phase {
    Play,
    Scoring,
    Over,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateRepr {
    config: GoConfig,
    /// Rows top first: 0 empty, 1 black, 2 white.
    board: Vec<Vec<u8>>,
    to_move: Option<Seat>,
    /// The side whose turn it is by alternation (also in the scoring phase and after the end).
    turn: Seat,
    captures: BySeat<u32>,
    ko: Option<Vertex>,
    passes: u8,
    moves_played: u32,
    phase: Phase,
    dead: Vec<Vertex>,
    accepted: BySeat<bool>,
    score: Option<AreaScore>,
    result: Option<OutcomeRecord>,
}

impl Serialize for Go {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let size = self.config.size;
        let board = (0..size).map(|r| (0..size).map(|c| self.board.colour(self.board.point(r, c))).collect()).collect();
        let phase = match (&self.result, &self.scoring) {
            (Some(_), _) => Phase::Over,
            (None, Some(_)) => Phase::Scoring,
            (None, None) => Phase::Play,
        };
        let dead = self.scoring.as_ref().map(|sc| sc.dead().iter().map(|&p| self.vertex_of(p)).collect());
        StateRepr {
            config: self.config.clone(),
            board,
            to_move: self.status().to_move().filter(|_| self.scoring.is_none()),
            turn: Seat::from_number(self.to_move).expect("colour"),
            captures: BySeat::from_fn(|seat| self.board.captures(seat.number())),
            ko: self.board.ko().map(|p| self.vertex_of(p)),
            passes: self.passes,
            moves_played: self.moves_played,
            phase,
            dead: dead.unwrap_or_default(),
            accepted: BySeat::from_fn(|seat| self.scoring.as_ref().is_some_and(|sc| sc.accepted(seat.number()))),
            score: self.score,
            result: self.result.as_ref().map(OutcomeRecord::from),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Go {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let state = StateRepr::deserialize(d)?;
        let mut game = Go::new(state.config).map_err(D::Error::custom)?;
        let size = game.config.size;
        if state.board.len() != size || state.board.iter().any(|row| row.len() != size) {
            return Err(D::Error::custom(format!("board must be {size} rows of {size}")));
        }
        let mut board = Board::new(size);
        for (r, row) in state.board.iter().enumerate() {
            for (c, &colour) in row.iter().enumerate() {
                match colour {
                    EMPTY => {}
                    1 | 2 => board.place(board.point(r, c), colour),
                    other => return Err(D::Error::custom(format!("board holds {other}; expected 0, 1 or 2"))),
                }
            }
        }
        // A legal position places without any capture, and every group keeps a liberty.
        let stones = state.board.iter().flatten().filter(|&&c| c != EMPTY).count();
        let placed: Vec<usize> = board.points().filter(|&p| board.colour(p) != EMPTY).collect();
        if placed.len() != stones || placed.iter().any(|&p| board.liberties(p).is_empty()) {
            return Err(D::Error::custom("a group on the board has no liberty"));
        }
        let ko = match state.ko {
            None => None,
            Some(vertex) => match game.point_of(vertex) {
                Some(point) if board.colour(point) == EMPTY => Some(point),
                _ => return Err(D::Error::custom(format!("ko point {vertex} is off the board or occupied"))),
            },
        };
        board.set_counters(state.captures.0, ko);
        game.seen.clear();
        game.seen.insert(board.hash());
        game.board = board;
        game.to_move = state.turn.number();
        if state.phase == Phase::Play && state.passes > 1 {
            return Err(D::Error::custom("two passes end play: passes above 1 need the scoring phase"));
        }
        game.passes = state.passes;
        game.moves_played = state.moves_played;
        if state.phase != Phase::Play {
            let mut dead = Vec::new();
            for vertex in &state.dead {
                let point = game.point_of(*vertex).ok_or_else(|| D::Error::custom("a dead stone off the board"))?;
                if game.board.colour(point) == EMPTY {
                    return Err(D::Error::custom(format!("{vertex} is marked dead but empty")));
                }
                dead.push(point);
            }
            super::board::sort_points(&mut dead);
            if dead.len() != state.dead.len() {
                return Err(D::Error::custom("a dead stone is listed twice"));
            }
            // Stones are marked by whole groups.
            if dead.iter().any(|&p| game.board.group_stones(p).iter().any(|s| !dead.contains(s))) {
                return Err(D::Error::custom("dead stones must be whole groups"));
            }
            if state.phase == Phase::Scoring && state.accepted.0 == [true, true] {
                return Err(D::Error::custom("both accepted: the game would be over"));
            }
            game.scoring = Some(Scoring::restore(dead, state.accepted.0));
        }
        if state.phase == Phase::Over {
            let result = state.result.ok_or_else(|| D::Error::custom("a finished game needs its result"))?;
            let winner = match result.winner {
                0 => None,
                n => Some(Seat::from_number(n).ok_or_else(|| D::Error::custom("winner must be 0, 1 or 2"))?),
            };
            let reason = match result.reason.as_str() {
                "score" => "score",
                "resign" => "resign",
                other => return Err(D::Error::custom(format!("unknown result reason {other:?}"))),
            };
            game.result = Some(Outcome { winner, reason });
            game.score = state.score;
            if reason == "score" {
                let dead = game.scoring.as_ref().map(|sc| sc.dead().to_vec()).unwrap_or_default();
                let score = super::score::area_score(&game.board, &dead, game.config.komi);
                if state.score != Some(score) {
                    return Err(D::Error::custom("score does not follow from the board and dead stones"));
                }
                let expected = match score.black.partial_cmp(&score.white) {
                    Some(std::cmp::Ordering::Greater) => Some(Seat::One),
                    Some(std::cmp::Ordering::Less) => Some(Seat::Two),
                    _ => None,
                };
                if winner != expected {
                    return Err(D::Error::custom("the winner does not follow from the score"));
                }
            }
        }
        Ok(game)
    }
}

/// What clients are shown: the state.
#[derive(Serialize)]
pub struct GoView {
    #[serde(flatten)]
    state: Go,
}

impl GoView {
    pub(super) fn of(game: &Go) -> GoView {
        GoView { state: game.clone() }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn moves_read_and_write_their_json_shapes() {
        let at: Vertex = "C3".parse().unwrap();
        let moves = [
            (GoMove::Play { at, colour: None }, json!({"type": "play", "at": "C3"})),
            (GoMove::Pass { colour: Some(Seat::Two) }, json!({"type": "pass", "colour": 2})),
            (GoMove::Resign { colour: None }, json!({"type": "resign"})),
            (GoMove::Toggle { at, colour: Some(Seat::One) }, json!({"type": "toggle", "at": "C3", "colour": 1})),
            (GoMove::Accept { colour: Some(Seat::One) }, json!({"type": "accept", "colour": 1})),
            (GoMove::Resume { colour: Some(Seat::Two) }, json!({"type": "resume", "colour": 2})),
        ];
        for (mv, json) in moves {
            assert_eq!(serde_json::to_value(mv).unwrap(), json);
            assert_eq!(serde_json::from_value::<GoMove>(json).unwrap(), mv);
        }
        for bad in [
            json!({"type": "play"}),
            json!({"type": "pass", "at": "C3"}),
            json!({"type": "jump", "at": "C3"}),
            json!({"type": "play", "at": "C3", "extra": 1}),
            json!({"type": "play", "at": "Z99"}),
            json!({"at": "C3"}),
            json!({"type": "play", "at": "C3", "colour": 3}),
        ] {
            assert!(serde_json::from_value::<GoMove>(bad.clone()).is_err(), "{bad}");
        }
    }
}
