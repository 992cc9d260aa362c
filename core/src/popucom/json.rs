//! The state's JSON shape: exactly a step of the reference vectors (`shared/vectors/README.md`):
//! `board`, `territory` (9x9 of 0|1|2), `to_move` (1|2|null), `moves_played`, `result`.
//!
//! Reading a state back validates it: `to_move` and `result` must be the ones the board implies.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::cells::AXES;
use super::{Cells, Popucom, PopucomConfig, MOVE_LIMIT, SIZE};
use crate::game::{Game, OutcomeRecord, Seat};

type Grid = [[u8; SIZE as usize]; SIZE as usize];

#[derive(Serialize)]
struct StepOut {
    board: Grid,
    territory: Grid,
    to_move: Option<Seat>,
    moves_played: u8,
    result: Option<crate::game::Outcome>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepIn {
    board: Grid,
    territory: Grid,
    to_move: Option<Seat>,
    moves_played: u8,
    result: Option<OutcomeRecord>,
    /// Views carry scores; they are derived, so accepted and checked like `to_move`.
    #[serde(default)]
    scores: Option<serde_json::Value>,
}

fn grid(one: Cells, two: Cells) -> Grid {
    let mut grid = Grid::default();
    for cell in one.iter() {
        grid[cell.row as usize][cell.col as usize] = 1;
    }
    for cell in two.iter() {
        grid[cell.row as usize][cell.col as usize] = 2;
    }
    grid
}

fn split(grid: &Grid, what: &str) -> Result<[Cells; 2], String> {
    let mut sets = [Cells::EMPTY; 2];
    for (row, values) in grid.iter().enumerate() {
        for (col, &value) in values.iter().enumerate() {
            let index = row * SIZE as usize + col;
            match value {
                0 => {}
                1 | 2 => sets[value as usize - 1] = sets[value as usize - 1].union(Cells::single(index)),
                _ => return Err(format!("{what}[{row}][{col}] is {value}, expected 0, 1 or 2")),
            }
        }
    }
    Ok(sets)
}

impl Serialize for Popucom {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let status = self.status();
        StepOut {
            board: grid(self.stones[0], self.stones[1]),
            territory: grid(self.territory[0], self.territory[1]),
            to_move: status.to_move(),
            moves_played: self.moves_played,
            result: status.outcome().cloned(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Popucom {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let step = StepIn::deserialize(d)?;
        if step.moves_played > MOVE_LIMIT {
            return Err(D::Error::custom(format!("moves_played {} exceeds {MOVE_LIMIT}", step.moves_played)));
        }
        let game = Popucom {
            stones: split(&step.board, "board").map_err(D::Error::custom)?,
            territory: split(&step.territory, "territory").map_err(D::Error::custom)?,
            moves_played: step.moves_played,
            config: PopucomConfig::default(),
        };
        // No run of three survives a move; the engine's line detection relies on it.
        for seat in Seat::ALL {
            if AXES.iter().any(|axis| axis.has_run_of_three(game.stones(seat))) {
                return Err(D::Error::custom(format!("board holds three seat-{} stones in a row", seat.number())));
            }
        }
        let status = game.status();
        if step.to_move != status.to_move() {
            return Err(D::Error::custom("to_move does not follow from the board and moves_played"));
        }
        let result = status.outcome().map(OutcomeRecord::from);
        if step.result != result {
            return Err(D::Error::custom("result does not follow from the board and moves_played"));
        }
        if let Some(scores) = step.scores {
            if scores != serde_json::to_value(game.view()).map_err(D::Error::custom)?["scores"] {
                return Err(D::Error::custom("scores do not match the territory"));
            }
        }
        Ok(game)
    }
}
