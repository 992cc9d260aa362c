//! Edges & Blocks' share card: the torus's cells and edges, and the scores.

use serde_json::Value;
use tabula_core::edges::Torus;

use super::draw::{marked, scores, Canvas, Grid, Rgb, Sides};
use super::GameCard;

pub const EMPTY_EDGE: Rgb = Rgb(0xcbbd9c);
pub const BLACK: Rgb = Rgb(0x16161d);
pub const RED: Rgb = Rgb(0xc8102e);
pub const FREE_CELL: Rgb = Rgb(0xe9dfc8);
const BLACK_CELL: Rgb = Rgb(0x8f8f9c);
const RED_CELL: Rgb = Rgb(0xf3b8c0);

pub const CARD: GameCard =
    GameCard { name: "edges", title: |_| "Edges & Blocks".into(), colours: ["Black", "Red"], draw };

/// Edges & Blocks on its torus of side `n` (the engine's geometry, `Torus`): each cell's top and
/// left edges, and the wrapped bottom and right sides drawn again, so the board looks closed.
fn draw(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
    let n = usize::try_from(state["size"].as_u64()?).ok().filter(|n| (1..=32).contains(n))?;
    let number = |v: &Value| v.as_u64().and_then(|n| u8::try_from(n).ok());
    let cells: Vec<u8> = state["cells"].as_array()?.iter().map(number).collect::<Option<_>>()?;
    let edges: Vec<u8> = state["edges"].as_array()?.iter().map(number).collect::<Option<_>>()?;
    if cells.len() != n * n || edges.len() != 2 * n * n {
        return None;
    }
    let grid = Grid::fit(n, n);
    for (cell, owner) in cells.iter().enumerate() {
        let colour = match owner {
            1 => BLACK_CELL,
            2 => RED_CELL,
            _ => FREE_CELL,
        };
        canvas.rect(grid.square(cell % n, cell / n, 0.0), colour);
    }
    let colour = |edge: usize| match edges[edge] {
        1 => BLACK,
        2 => RED,
        _ => EMPTY_EDGE,
    };
    let width = grid.cell * 0.13;
    let corner = |x: usize, y: usize| (grid.left + x as f32 * grid.cell, grid.top + y as f32 * grid.cell);
    let torus = Torus::new(n);
    for cell in 0..n * n {
        let (x, y) = (cell % n, cell / n);
        let [top, bottom, left, right] = torus.cell_edges(cell);
        canvas.line(corner(x, y), corner(x + 1, y), width, colour(top));
        canvas.line(corner(x, y), corner(x, y + 1), width, colour(left));
        if y == n - 1 {
            canvas.line(corner(x, n), corner(x + 1, n), width, colour(bottom));
        }
        if x == n - 1 {
            canvas.line(corner(n, y), corner(n, y + 1), width, colour(right));
        }
    }
    Some(Sides { colours: [BLACK, RED], scores: scores(state), marked: marked(state) })
}
