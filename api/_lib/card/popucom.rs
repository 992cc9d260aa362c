//! POPUCOM's share card: its board with each side's stones and land, and the scores.

use serde_json::Value;

use super::draw::{marked, rows_of, scores, Canvas, Grid, Rgb, Sides};
use super::GameCard;

pub const CELL: Rgb = Rgb(0x232a40);
pub const RED: Rgb = Rgb(0xff5470);
pub const BLUE: Rgb = Rgb(0x3da9fc);
const RED_LAND: Rgb = Rgb(0x5c2533);
const BLUE_LAND: Rgb = Rgb(0x1d3f5e);

pub const CARD: GameCard =
    GameCard { name: "popucom", title: |_| "POPUCOM three-match chess".into(), colours: ["Red", "Blue"], draw };

fn draw(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
    let board = rows_of(&state["board"])?;
    let land = rows_of(&state["territory"])?;
    let grid = Grid::fit(board[0].len(), board.len());
    for (row, cells) in board.iter().enumerate() {
        for (column, stone) in cells.iter().enumerate() {
            let ground = match land.get(row).and_then(|r| r.get(column)) {
                Some(1) => RED_LAND,
                Some(2) => BLUE_LAND,
                _ => CELL,
            };
            canvas.rect(grid.square(column, row, grid.cell * 0.05), ground);
            match stone {
                1 => canvas.disc(grid.centre(column, row), grid.cell * 0.36, RED),
                2 => canvas.disc(grid.centre(column, row), grid.cell * 0.36, BLUE),
                _ => {}
            }
        }
    }
    Some(Sides { colours: [RED, BLUE], scores: scores(state), marked: marked(state) })
}
