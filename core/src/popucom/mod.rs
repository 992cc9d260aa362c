//! POPUCOM three-match chess (泡姆三消棋, "Match-n-POP"): placing, three-in-a-row elimination,
//! territory painting, 50 moves. Rules: `shared/rules/popucom.md`.
//!
//! The state is four 81-bit boards (stones and territory per seat) and a move counter; everything
//! else (side to move, result, legal cells, scores) is derived from them.

// The computer player's side of this game (`crate::ai`): only in builds with every game.
#[cfg(feature = "all-games")]
mod ai;
mod cells;
mod json;

use rand::RngCore;
use serde::{Deserialize, Serialize};

use cells::AXES;
pub use cells::{Cell, Cells, CELL_COUNT, SIZE};

use crate::game::{BySeat, ConfigError, Game, Outcome, Rejection, Seat, Status};
use crate::GameKind;

/// The game ends after this many moves (25 per player).
pub const MOVE_LIMIT: u8 = 50;

/// POPUCOM has no options; the config exists so that clients send `{}` and future options fit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PopucomConfig {}

/// A POPUCOM position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Popucom {
    stones: [Cells; 2],
    territory: [Cells; 2],
    moves_played: u8,
    config: PopucomConfig,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PopucomError {
    #[error("the game is over")]
    GameOver,
    #[error("({}, {}) is off the 9x9 board", .0.row, .0.col)]
    OffBoard(Cell),
    #[error("({}, {}) already holds a stone", .0.row, .0.col)]
    Occupied(Cell),
    #[error("({}, {}) is the opponent's territory", .0.row, .0.col)]
    OpponentTerritory(Cell),
}

impl Rejection for PopucomError {
    fn code(&self) -> &'static str {
        match self {
            PopucomError::GameOver => "game_over",
            PopucomError::OffBoard(_) => "off_board",
            PopucomError::Occupied(_) => "occupied",
            PopucomError::OpponentTerritory(_) => "opponent_territory",
        }
    }
}

impl Popucom {
    /// Stones of `seat`.
    pub fn stones(&self, seat: Seat) -> Cells {
        self.stones[seat.index()]
    }

    /// Cells painted in `seat`'s colour.
    pub fn territory(&self, seat: Seat) -> Cells {
        self.territory[seat.index()]
    }

    pub fn moves_played(&self) -> u8 {
        self.moves_played
    }

    /// A seat's score: the number of cells painted in its colour.
    pub fn score(&self, seat: Seat) -> u32 {
        self.territory(seat).len()
    }

    /// The seat whose turn it is by the move count (even if that seat has no legal cell).
    pub(crate) fn turn(&self) -> Seat {
        if self.moves_played % 2 == 0 {
            Seat::One
        } else {
            Seat::Two
        }
    }

    /// The cells the side to move may play: empty and not the opponent's territory.
    /// Empty once the game is over.
    #[inline]
    pub fn legal_cells(&self) -> Cells {
        if self.moves_played >= MOVE_LIMIT {
            return Cells::EMPTY;
        }
        let opponent = self.turn().other();
        self.stones[0].union(self.stones[1]).union(self.territory(opponent)).complement()
    }

    /// A uniformly random legal move, or `None` when the game is over.
    #[inline]
    pub fn random_move(&self, rng: &mut impl RngCore) -> Option<Cell> {
        self.legal_cells().random(rng)
    }

    /// The legal cells where the side to move would make a line (three or more in a row).
    pub fn line_making_cells(&self) -> Cells {
        self.legal_cells_completing(self.turn())
    }

    /// The legal cells of the side to move where the opponent would make a line: taking one
    /// blocks it.
    pub fn opponent_line_cells(&self) -> Cells {
        self.legal_cells_completing(self.turn().other())
    }

    fn legal_cells_completing(&self, seat: Seat) -> Cells {
        let stones = self.stones[seat.index()];
        let completing = AXES.iter().fold(Cells::EMPTY, |cells, axis| cells.union(axis.completing(stones)));
        Cells(completing.0 & self.legal_cells().0)
    }

    /// Places a stone for the side to move, removes every line of three or more it makes and paints
    /// each line's direction outward until an opponent stone or the edge.
    #[inline]
    fn place(&mut self, cell: Cell) {
        let mover = self.turn();
        let (me, them) = (mover.index(), mover.other().index());
        let index = cell.index();
        let placed = Cells::single(index);
        let own = self.stones[me].union(placed);

        let mut removed = Cells::EMPTY;
        let mut painted = Cells::EMPTY;
        // Paint runs through empty cells, the mover's stones and any territory; only an opponent
        // stone or the edge stops it.
        let open = self.stones[them].complement();
        for axis in AXES {
            let run = axis.run_through(placed, own);
            if run.has_three_or_more() {
                removed = removed.union(run);
                painted = painted.union(axis.grow(run, open));
            }
        }
        self.stones[me] = own.minus(removed);
        self.territory[me] = self.territory[me].union(painted);
        self.territory[them] = self.territory[them].minus(painted);
        self.moves_played += 1;
    }
}

/// What clients are shown: the state (a vector step) plus the scores by seat number.
#[derive(Serialize)]
pub struct PopucomView {
    #[serde(flatten)]
    state: Popucom,
    scores: BySeat<u32>,
}

impl Game for Popucom {
    const KIND: GameKind = GameKind::Popucom;

    type Config = PopucomConfig;
    type Move = Cell;
    type Illegal = PopucomError;
    type View = PopucomView;

    fn new(config: PopucomConfig) -> Result<Self, ConfigError> {
        Ok(Popucom { config, ..Popucom::default() })
    }

    fn config(&self) -> &PopucomConfig {
        &self.config
    }

    fn status(&self) -> Status {
        if self.moves_played >= MOVE_LIMIT {
            let (one, two) = (self.score(Seat::One), self.score(Seat::Two));
            let winner = match one.cmp(&two) {
                std::cmp::Ordering::Greater => Some(Seat::One),
                std::cmp::Ordering::Less => Some(Seat::Two),
                std::cmp::Ordering::Equal => None,
            };
            return Status::Over(Outcome { winner, reason: "moves_exhausted" });
        }
        let turn = self.turn();
        if self.legal_cells().is_empty() {
            return Status::Over(Outcome { winner: Some(turn.other()), reason: "no_legal_move" });
        }
        Status::ToMove(turn)
    }

    fn legal_moves(&self) -> Vec<Cell> {
        self.legal_cells().iter().collect()
    }

    fn check(&self, cell: &Cell) -> Result<(), PopucomError> {
        let legal = self.legal_cells();
        if legal.is_empty() {
            return Err(PopucomError::GameOver);
        }
        if !cell.is_on_board() {
            return Err(PopucomError::OffBoard(*cell));
        }
        if legal.contains(*cell) {
            Ok(())
        } else if self.stones[0].union(self.stones[1]).contains(*cell) {
            Err(PopucomError::Occupied(*cell))
        } else {
            Err(PopucomError::OpponentTerritory(*cell))
        }
    }

    #[inline]
    fn play_unchecked(&mut self, cell: &Cell) {
        self.place(*cell);
    }

    fn view(&self) -> PopucomView {
        PopucomView { state: self.clone(), scores: BySeat::from_fn(|seat| self.score(seat)) }
    }
}
