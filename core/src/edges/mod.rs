//! Edges & Blocks: edges placed and moved on a torus of cells; cells are captured, destroyed and
//! eaten in chains. Rules (taken from the original's rule code): `shared/rules/edges.md`.
//!
//! Players are seat one (the original's player 0, black, moves first) and seat two (player 1, red).
//! The state keeps a change record per action, so every action back to the start can be undone.

// The computer player's side of this game (`crate::ai`): only in builds with every game.
#[cfg(feature = "all-games")]
mod ai;
mod geometry;
mod json;
mod resolve;

use serde::{Deserialize, Serialize};

pub use geometry::Torus;
pub use json::{EdgesView, Player};

use crate::game::{BySeat, ConfigError, Game, Outcome, Rejection, Seat, Status};
use crate::GameKind;

/// Side length, cells to win and the initial supplies. The defaults are the original README's; the
/// ranges are wider than its later GUI's (win 2..=10, supplies 4..=99), which were limits of the form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EdgesConfig {
    /// The board is `size` x `size` cells (3..=12).
    pub size: usize,
    /// A player wins with at least this many cells and strictly more than the opponent.
    pub cells_to_win: usize,
    /// Edges each player can place directly at the start (1..=99).
    pub supply: [u32; 2],
}

impl Default for EdgesConfig {
    fn default() -> Self {
        EdgesConfig { size: 8, cells_to_win: 5, supply: [6, 6] }
    }
}

impl EdgesConfig {
    pub const SIZES: std::ops::RangeInclusive<usize> = 3..=12;
    pub const SUPPLIES: std::ops::RangeInclusive<u32> = 1..=99;

    fn validate(&self) -> Result<(), ConfigError> {
        if !Self::SIZES.contains(&self.size) {
            return Err(ConfigError(format!("size must be 3 to 12, not {}", self.size)));
        }
        let cells = self.size * self.size;
        if !(1..=cells).contains(&self.cells_to_win) {
            return Err(ConfigError(format!("cells_to_win must be 1 to {cells}, not {}", self.cells_to_win)));
        }
        if !self.supply.iter().all(|s| Self::SUPPLIES.contains(s)) {
            return Err(ConfigError(format!("supply must be 1 to 99 each, not {:?}", self.supply)));
        }
        Ok(())
    }
}

/// An action. `player` (0 or 1, as in the original) is optional: when given it must be the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgesMove {
    /// Put an edge from the supply on any empty edge.
    Place {
        edge: usize,
        player: Option<Player>,
    },
    /// Move an own edge to an empty edge next to it (no supply needed or used).
    Move {
        from: usize,
        to: usize,
        player: Option<Player>,
    },
    Pass {
        player: Option<Player>,
    },
}

impl EdgesMove {
    pub fn place(edge: usize) -> Self {
        EdgesMove::Place { edge, player: None }
    }

    pub fn shift(from: usize, to: usize) -> Self {
        EdgesMove::Move { from, to, player: None }
    }

    pub const PASS: EdgesMove = EdgesMove::Pass { player: None };

    fn player(&self) -> Option<Player> {
        match *self {
            EdgesMove::Place { player, .. } | EdgesMove::Move { player, .. } | EdgesMove::Pass { player } => player,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EdgesError {
    #[error("the game is over")]
    GameOver,
    #[error("edge {0} is not on the board")]
    OffBoard(usize),
    #[error("it is not player {0}'s turn")]
    NotYourTurn(u8),
    #[error("no edges left to place")]
    NoSupply,
    #[error("edge {0} is already occupied")]
    Occupied(usize),
    #[error("edge {0} is not yours to move")]
    NotOwnEdge(usize),
    #[error("edge {to} is not next to edge {from}")]
    NotAdjacent { from: usize, to: usize },
    #[error("there is nothing to undo")]
    NothingToUndo,
}

impl Rejection for EdgesError {
    fn code(&self) -> &'static str {
        match self {
            EdgesError::GameOver => "game_over",
            EdgesError::OffBoard(_) => "off_board",
            EdgesError::NotYourTurn(_) => "not_your_turn",
            EdgesError::NoSupply => "no_supply",
            EdgesError::Occupied(_) => "occupied",
            EdgesError::NotOwnEdge(_) => "not_own_edge",
            EdgesError::NotAdjacent { .. } => "not_adjacent",
            EdgesError::NothingToUndo => "nothing_to_undo",
        }
    }
}

/// What the last action did (the reference vectors' `ev`), for animation and for checking.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Events {
    /// Cells that went unowned → owned, and owned → unowned (gross).
    pub captured: u32,
    pub destroyed: u32,
    /// Edges that changed to the mover's colour, and to the opponent's.
    pub eaten_by_mover: u32,
    pub eaten_by_opponent: u32,
    /// Eats after the first iteration of their chain, and the longest run of eats in one chain.
    pub chained_eats: u32,
    pub longest_chain: u32,
    /// Both sides could eat at the destination, so the mover-first rule decided.
    pub priority: bool,
    /// Supply given back to each seat for its net loss.
    pub refill: BySeat<u32>,
}

/// One change of an action, with the value before it (enough to undo it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Change {
    Edge { edge: usize, before: Option<Seat> },
    Cell { cell: usize, before: Option<Seat> },
}

/// An edge id or a cell id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Edge(usize),
    Cell(usize),
}

/// One step of what an action did: an edge's colour or a cell's owner, before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Changed {
    pub target: Target,
    pub before: Option<Seat>,
    pub after: Option<Seat>,
}

/// Everything needed to take one action back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Record {
    changes: Vec<Change>,
    supply: [u32; 2],
    to_move: Seat,
    events: Events,
}

/// One item passed from `old` to `new` (either may be nobody) in per-seat counts.
fn shift_count(counts: &mut [u32; 2], old: Option<Seat>, new: Option<Seat>) {
    if let Some(old) = old {
        counts[old.index()] -= 1;
    }
    if let Some(new) = new {
        counts[new.index()] += 1;
    }
}

/// An Edges & Blocks position with its undo history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edges {
    config: EdgesConfig,
    torus: Torus,
    /// The colour of each edge (`None` = empty).
    edges: Vec<Option<Seat>>,
    /// The owner of each cell.
    owners: Vec<Option<Seat>>,
    supply: [u32; 2],
    /// Kept after the game ends too: the original's GUI switches turns after every action.
    to_move: Seat,
    result: Option<Outcome>,
    events: Events,
    history: Vec<Record>,
    /// Edges of each colour and cells of each owner, kept as they change: the resolution and the
    /// end check ask after every action.
    edge_counts: [u32; 2],
    cell_counts: [u32; 2],
    /// Whether actions are recorded for undo (a search's copy only plays forward).
    recording: bool,
    /// The change log's buffer, reused by actions that are not recorded.
    spare_log: Vec<Change>,
}

impl Edges {
    pub fn torus(&self) -> Torus {
        self.torus
    }

    pub fn edge(&self, edge: usize) -> Option<Seat> {
        self.edges[edge]
    }

    pub fn owner(&self, cell: usize) -> Option<Seat> {
        self.owners[cell]
    }

    pub fn supply(&self, seat: Seat) -> u32 {
        self.supply[seat.index()]
    }

    /// What the last action did (all zero at the start, after a pass, and after loading a state).
    pub fn events(&self) -> Events {
        self.events
    }

    pub fn cells_of(&self, seat: Seat) -> u32 {
        self.cell_counts[seat.index()]
    }

    pub fn edges_of(&self, seat: Seat) -> u32 {
        self.edge_counts[seat.index()]
    }

    pub fn empty_edges(&self) -> u32 {
        self.torus.edge_count() as u32 - self.edge_counts[0] - self.edge_counts[1]
    }

    /// The same position, playing forward only: its actions are not recorded, so it cannot undo
    /// and shows no [`Edges::last_changes`], and a copy of it costs no history (a search makes
    /// one per playout).
    pub fn forward_only(&self) -> Edges {
        Edges {
            config: self.config.clone(),
            torus: self.torus,
            edges: self.edges.clone(),
            owners: self.owners.clone(),
            supply: self.supply,
            to_move: self.to_move,
            result: self.result.clone(),
            events: self.events,
            history: Vec::new(),
            edge_counts: self.edge_counts,
            cell_counts: self.cell_counts,
            recording: false,
            spare_log: Vec::new(),
        }
    }

    /// What the last action changed, in the order it happened: the edge placed (or the edge moved
    /// away and where it landed), then every eat, capture and destruction as the resolution made
    /// them. Screens animate them in this order. Empty after a pass or at the start.
    pub fn last_changes(&self) -> Vec<Changed> {
        let Some(record) = self.history.last() else { return Vec::new() };
        let mut changed: Vec<Changed> = record
            .changes
            .iter()
            .map(|change| match *change {
                Change::Edge { edge, before } => Changed { target: Target::Edge(edge), before, after: None },
                Change::Cell { cell, before } => Changed { target: Target::Cell(cell), before, after: None },
            })
            .collect();
        // Each change's value after it is the next change's "before" of the same target, or today's.
        for i in 0..changed.len() {
            let target = changed[i].target;
            changed[i].after = match changed[i + 1..].iter().find(|c| c.target == target) {
                Some(next) => next.before,
                None => match target {
                    Target::Edge(edge) => self.edges[edge],
                    Target::Cell(cell) => self.owners[cell],
                },
            };
        }
        changed
    }

    /// How many actions can be undone (all since the start, or since the state was loaded).
    pub fn undoable(&self) -> usize {
        self.history.len()
    }

    /// Takes back the last action (including a pass, and after the game ended), restoring the
    /// position, supplies, side to move and result exactly.
    pub fn undo(&mut self) -> Result<(), EdgesError> {
        let record = self.history.pop().ok_or(EdgesError::NothingToUndo)?;
        for change in record.changes.into_iter().rev() {
            match change {
                Change::Edge { edge, before } => self.put_edge(edge, before),
                Change::Cell { cell, before } => self.put_owner(cell, before),
            }
        }
        self.supply = record.supply;
        self.to_move = record.to_move;
        // Only an ongoing game takes actions, so the game was ongoing before any action.
        self.result = None;
        self.events = record.events;
        Ok(())
    }

    /// The original's `judge_over`: a win needs `cells_to_win` cells and more than the opponent.
    fn judge(&self) -> Option<Outcome> {
        let (one, two) = (self.cells_of(Seat::One), self.cells_of(Seat::Two));
        let goal = self.config.cells_to_win as u32;
        if one >= goal && one > two {
            Some(Outcome { winner: Some(Seat::One), reason: "cells" })
        } else if two >= goal && two > one {
            Some(Outcome { winner: Some(Seat::Two), reason: "cells" })
        } else if self.empty_edges() == 0 {
            Some(Outcome { winner: None, reason: "board_full" })
        } else {
            None
        }
    }

    /// Sets an edge's colour, keeping the counts.
    fn put_edge(&mut self, edge: usize, colour: Option<Seat>) {
        shift_count(&mut self.edge_counts, std::mem::replace(&mut self.edges[edge], colour), colour);
    }

    /// Sets a cell's owner, keeping the counts.
    fn put_owner(&mut self, cell: usize, owner: Option<Seat>) {
        shift_count(&mut self.cell_counts, std::mem::replace(&mut self.owners[cell], owner), owner);
    }

    /// Counts edges and cells afresh (after a state is loaded).
    fn recount(&mut self) {
        for seat in Seat::ALL {
            self.edge_counts[seat.index()] = self.edges.iter().filter(|&&c| c == Some(seat)).count() as u32;
            self.cell_counts[seat.index()] = self.owners.iter().filter(|&&o| o == Some(seat)).count() as u32;
        }
    }

    fn check_edge(&self, edge: usize) -> Result<(), EdgesError> {
        if edge < self.torus.edge_count() {
            Ok(())
        } else {
            Err(EdgesError::OffBoard(edge))
        }
    }
}

impl Game for Edges {
    const KIND: GameKind = GameKind::Edges;

    type Config = EdgesConfig;
    type Move = EdgesMove;
    type Illegal = EdgesError;
    type View = EdgesView;

    /// More cells leads.
    fn leader_by_count(&self) -> Option<Option<Seat>> {
        Some(match self.cells_of(Seat::One).cmp(&self.cells_of(Seat::Two)) {
            std::cmp::Ordering::Greater => Some(Seat::One),
            std::cmp::Ordering::Less => Some(Seat::Two),
            std::cmp::Ordering::Equal => None,
        })
    }

    fn new(config: EdgesConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let torus = Torus::new(config.size);
        Ok(Edges {
            torus,
            edges: vec![None; torus.edge_count()],
            owners: vec![None; torus.cell_count()],
            supply: config.supply,
            to_move: Seat::One,
            result: None,
            events: Events::default(),
            history: Vec::new(),
            edge_counts: [0; 2],
            cell_counts: [0; 2],
            recording: true,
            spare_log: Vec::new(),
            config,
        })
    }

    fn config(&self) -> &EdgesConfig {
        &self.config
    }

    fn status(&self) -> Status {
        match &self.result {
            Some(outcome) => Status::Over(outcome.clone()),
            None => Status::ToMove(self.to_move),
        }
    }

    fn legal_moves(&self) -> Vec<EdgesMove> {
        if self.result.is_some() {
            return Vec::new();
        }
        let me = Some(self.to_move);
        let empty: Vec<usize> = (0..self.edges.len()).filter(|&e| self.edges[e].is_none()).collect();
        let mut moves = Vec::new();
        if self.supply(self.to_move) > 0 {
            moves.extend(empty.iter().map(|&e| EdgesMove::place(e)));
        }
        for from in (0..self.edges.len()).filter(|&e| self.edges[e] == me) {
            let mut targets: Vec<usize> =
                self.torus.adjacent(from).into_iter().filter(|&e| self.edges[e].is_none()).collect();
            targets.sort_unstable();
            moves.extend(targets.into_iter().map(|to| EdgesMove::shift(from, to)));
        }
        moves.push(EdgesMove::PASS);
        moves
    }

    /// The original's checks, in its order: game over, positions, player, then the action's own.
    /// One deviation: a pass after the game ended is refused too (the original's core accepts it,
    /// its GUI disables the button), so a finished game takes no actions at all.
    fn check(&self, mv: &EdgesMove) -> Result<(), EdgesError> {
        if self.result.is_some() {
            return Err(EdgesError::GameOver);
        }
        match *mv {
            EdgesMove::Place { edge, .. } => self.check_edge(edge)?,
            EdgesMove::Move { from, to, .. } => {
                self.check_edge(from)?;
                self.check_edge(to)?;
            }
            EdgesMove::Pass { .. } => {}
        }
        if let Some(player) = mv.player() {
            if player.seat() != self.to_move {
                return Err(EdgesError::NotYourTurn(player.number()));
            }
        }
        let me = self.to_move;
        match *mv {
            EdgesMove::Place { edge, .. } => {
                if self.supply(me) == 0 {
                    return Err(EdgesError::NoSupply);
                }
                if self.edges[edge].is_some() {
                    return Err(EdgesError::Occupied(edge));
                }
            }
            EdgesMove::Move { from, to, .. } => {
                if self.edges[from] != Some(me) {
                    return Err(EdgesError::NotOwnEdge(from));
                }
                if self.edges[to].is_some() {
                    return Err(EdgesError::Occupied(to));
                }
                if !self.torus.adjacent(from).contains(&to) {
                    return Err(EdgesError::NotAdjacent { from, to });
                }
            }
            EdgesMove::Pass { .. } => {}
        }
        Ok(())
    }

    fn play_unchecked(&mut self, mv: &EdgesMove) {
        let me = self.to_move;
        let (supply, events) = (self.supply, self.events);
        let mut log = std::mem::take(&mut self.spare_log);
        self.events = match *mv {
            EdgesMove::Pass { .. } => Events::default(),
            EdgesMove::Place { edge, .. } => {
                self.supply[me.index()] -= 1;
                self.set_edge(edge, Some(me), &mut log);
                self.resolve(edge, me, &mut log)
            }
            EdgesMove::Move { from, to, .. } => {
                self.set_edge(from, None, &mut log);
                self.set_edge(to, Some(me), &mut log);
                self.resolve(to, me, &mut log)
            }
        };
        // Only a place or a move is judged; a pass changes nothing (the original skips the check).
        if !matches!(mv, EdgesMove::Pass { .. }) {
            self.result = self.judge();
        }
        if self.recording {
            self.history.push(Record { changes: log, supply, to_move: me, events });
        } else {
            log.clear();
            self.spare_log = log;
        }
        self.to_move = me.other();
    }

    fn view(&self) -> EdgesView {
        EdgesView::of(self)
    }
}
