//! Go's share card: the board's lines and stones.

use serde_json::Value;

use super::draw::{marked, rows_of, Canvas, Grid, Rgb, Sides};
use super::GameCard;

const WOOD: Rgb = Rgb(0xdcb35c);
const LINE: Rgb = Rgb(0x3b2f1e);
const BLACK: Rgb = Rgb(0x111111);
const WHITE: Rgb = Rgb(0xf4f4f4);

pub const CARD: GameCard = GameCard { name: "go", title, colours: ["Black", "White"], draw };

fn title(view: &Value) -> String {
    let size = view["state"]["board"].as_array().map_or(0, Vec::len);
    format!("Go {size}x{size}")
}

fn draw(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
    let board = rows_of(&state["board"])?;
    let size = board.len();
    let grid = Grid::fit(size, size);
    canvas.rect(grid.area(grid.cell * 0.1), WOOD);
    let line = (grid.cell * 0.06).max(1.5);
    for i in 0..size {
        canvas.line(grid.centre(0, i), grid.centre(size - 1, i), line, LINE);
        canvas.line(grid.centre(i, 0), grid.centre(i, size - 1), line, LINE);
    }
    for (row, points) in board.iter().enumerate() {
        for (column, stone) in points.iter().enumerate() {
            match stone {
                1 => canvas.disc(grid.centre(column, row), grid.cell * 0.47, BLACK),
                2 => {
                    canvas.disc(grid.centre(column, row), grid.cell * 0.47, WHITE);
                    canvas.ring(grid.centre(column, row), grid.cell * 0.47, 1.5, LINE);
                }
                _ => {}
            }
        }
    }
    Some(Sides { colours: [BLACK, WHITE], scores: None, marked: marked(state) })
}
