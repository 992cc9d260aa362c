//! JSON shapes. Moves and the state are the reference vectors' (`shared/rules/edges.md` §11):
//! players 0 and 1, `edges`/`cells` as strings of `.`, `0`, `1`, `result` -1/0/1/2. The view is
//! what clients get, in the conventions all games share: colours 1 and 2, `to_move` 1|2|null and
//! `result` `{"winner", "reason"}`.
//!
//! Reading a state back validates it: sizes, characters, the result the cells imply, and that no
//! owned cell touches an enemy edge. The undo history is not part of the state.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Edges, EdgesConfig, EdgesMove, Events};
use crate::game::{BySeat, Game, Outcome, Seat};

/// A player as the original numbers them: 0 (seat one, black) or 1 (seat two, red).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Player(Seat);

impl Player {
    pub fn seat(self) -> Seat {
        self.0
    }

    pub fn number(self) -> u8 {
        self.0.index() as u8
    }

    pub fn of(seat: Seat) -> Player {
        Player(seat)
    }

    fn from_number(n: u8) -> Option<Player> {
        match n {
            0 => Some(Player(Seat::One)),
            1 => Some(Player(Seat::Two)),
            _ => None,
        }
    }
}

impl Serialize for Player {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        Player::from_number(n).ok_or_else(|| D::Error::custom(format!("player must be 0 or 1, not {n}")))
    }
}

/// `{"type": "place", "edge": e}`, `{"type": "move", "from": e1, "to": e2}`, `{"type": "pass"}`, each
/// with an optional `player`. The canonical form (what rooms store) leaves `player` out.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum MoveOut {
    Place { edge: usize },
    Move { from: usize, to: usize },
    Pass {},
}

/// The same shapes read as one flat record whose fields are checked against its `type`: serde's
/// internally tagged enums buffer the input, and that reader weighed 18 KB of every Edges bundle.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveIn {
    #[serde(rename = "type")]
    kind: MoveKind,
    edge: Option<usize>,
    from: Option<usize>,
    to: Option<usize>,
    #[serde(default)]
    player: Option<Player>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum MoveKind {
    Place,
    Move,
    Pass,
}

impl Serialize for EdgesMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            EdgesMove::Place { edge, .. } => MoveOut::Place { edge },
            EdgesMove::Move { from, to, .. } => MoveOut::Move { from, to },
            EdgesMove::Pass { .. } => MoveOut::Pass {},
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for EdgesMove {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let MoveIn { kind, edge, from, to, player } = MoveIn::deserialize(d)?;
        match (kind, edge, from, to) {
            (MoveKind::Place, Some(edge), None, None) => Ok(EdgesMove::Place { edge, player }),
            (MoveKind::Move, None, Some(from), Some(to)) => Ok(EdgesMove::Move { from, to, player }),
            (MoveKind::Pass, None, None, None) => Ok(EdgesMove::Pass { player }),
            (MoveKind::Place, ..) => Err(D::Error::custom("a place move has exactly the field `edge`")),
            (MoveKind::Move, ..) => Err(D::Error::custom("a move has exactly the fields `from` and `to`")),
            (MoveKind::Pass, ..) => Err(D::Error::custom("a pass has no edge")),
        }
    }
}

impl Events {
    /// The vectors' `ev`: captured, destroyed, eaten by mover, by opponent, chained eats, longest
    /// chain, priority, refill to player 0, to player 1.
    pub fn to_array(self) -> [u32; 9] {
        [
            self.captured,
            self.destroyed,
            self.eaten_by_mover,
            self.eaten_by_opponent,
            self.chained_eats,
            self.longest_chain,
            self.priority as u32,
            self.refill.0[0],
            self.refill.0[1],
        ]
    }

    fn from_array(ev: [u32; 9]) -> Result<Events, String> {
        let priority = match ev[6] {
            0 => false,
            1 => true,
            other => return Err(format!("ev[6] (priority) must be 0 or 1, not {other}")),
        };
        Ok(Events {
            captured: ev[0],
            destroyed: ev[1],
            eaten_by_mover: ev[2],
            eaten_by_opponent: ev[3],
            chained_eats: ev[4],
            longest_chain: ev[5],
            priority,
            refill: BySeat([ev[7], ev[8]]),
        })
    }
}

fn marks(values: &[Option<Seat>]) -> String {
    values.iter().map(|v| v.map_or('.', |seat| char::from(b'0' + seat.index() as u8))).collect()
}

fn parse_marks(text: &str, len: usize, what: &str) -> Result<Vec<Option<Seat>>, String> {
    if text.len() != len {
        return Err(format!("{what} has {} characters, expected {len}", text.len()));
    }
    text.chars()
        .map(|c| match c {
            '.' => Ok(None),
            '0' => Ok(Some(Seat::One)),
            '1' => Ok(Some(Seat::Two)),
            other => Err(format!("{what} holds {other:?}; expected '.', '0' or '1'")),
        })
        .collect()
}

/// -1 while the game goes on, the winning player 0 or 1, or 2 for a draw.
fn result_code(result: &Option<Outcome>) -> i8 {
    match result {
        None => -1,
        Some(Outcome { winner: Some(seat), .. }) => seat.index() as i8,
        Some(Outcome { winner: None, .. }) => 2,
    }
}

#[derive(Serialize)]
struct StateOut<'a> {
    edges: String,
    cells: String,
    supply: [u32; 2],
    to_move: Player,
    result: i8,
    ev: [u32; 9],
    /// Only when not the default: the vectors' steps (default options) have no such field, and
    /// every other state still reads back with its options.
    #[serde(skip_serializing_if = "is_default")]
    config: &'a EdgesConfig,
}

fn is_default(config: &&EdgesConfig) -> bool {
    **config == EdgesConfig::default()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateIn {
    edges: String,
    cells: String,
    supply: [u32; 2],
    to_move: Player,
    result: i8,
    #[serde(default)]
    ev: [u32; 9],
    /// Without it, the default options for the board size the `cells` string implies.
    #[serde(default)]
    config: Option<EdgesConfig>,
}

impl Serialize for Edges {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StateOut {
            edges: marks(&self.edges),
            cells: marks(&self.owners),
            supply: self.supply,
            to_move: Player(self.to_move),
            result: result_code(&self.result),
            ev: self.events.to_array(),
            config: &self.config,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Edges {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let state = StateIn::deserialize(d)?;
        let config = state.config.unwrap_or_else(|| {
            let size = (1..=12).find(|n| n * n >= state.cells.len()).unwrap_or(0);
            EdgesConfig { size, ..EdgesConfig::default() }
        });
        let mut game = Edges::new(config).map_err(D::Error::custom)?;
        let torus = game.torus;
        game.edges = parse_marks(&state.edges, torus.edge_count(), "edges").map_err(D::Error::custom)?;
        game.owners = parse_marks(&state.cells, torus.cell_count(), "cells").map_err(D::Error::custom)?;
        game.recount();
        game.supply = state.supply;
        game.to_move = state.to_move.seat();
        game.events = Events::from_array(state.ev).map_err(D::Error::custom)?;
        for cell in 0..torus.cell_count() {
            if let Some(owner) = game.owners[cell] {
                if torus.cell_edges(cell).iter().any(|&e| game.edges[e] == Some(owner.other())) {
                    return Err(D::Error::custom(format!("cell {cell} is owned but touches an enemy edge")));
                }
            }
        }
        game.result = game.judge();
        if result_code(&game.result) != state.result {
            return Err(D::Error::custom("result does not follow from the cells and edges"));
        }
        Ok(game)
    }
}

/// What clients are shown. Colours are 1 and 2 here, as in every game's view: `edges` and `cells`
/// hold 0 (empty), 1 or 2 per id.
#[derive(Serialize)]
pub struct EdgesView {
    size: usize,
    cells_to_win: usize,
    edges: Vec<u8>,
    cells: Vec<u8>,
    supply: BySeat<u32>,
    scores: BySeat<u32>,
    to_move: Option<Seat>,
    result: Option<Outcome>,
    /// What the last action did.
    events: Events,
}

fn colours(values: &[Option<Seat>]) -> Vec<u8> {
    values.iter().map(|v| v.map_or(0, Seat::number)).collect()
}

impl EdgesView {
    pub(super) fn of(game: &Edges) -> EdgesView {
        let status = game.status();
        EdgesView {
            size: game.config.size,
            cells_to_win: game.config.cells_to_win,
            edges: colours(&game.edges),
            cells: colours(&game.owners),
            supply: BySeat(game.supply),
            scores: BySeat::from_fn(|seat| game.cells_of(seat)),
            to_move: status.to_move(),
            result: status.outcome().cloned(),
            events: game.events,
        }
    }
}
