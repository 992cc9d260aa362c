//! Chess variants' share card: the position of the room's FEN, pieces as discs (a ring for kings).

use serde_json::Value;

use super::draw::{marked, Canvas, Grid, Rgb, Sides};
use super::GameCard;

const LIGHT: Rgb = Rgb(0xf0d9b5);
const DARK: Rgb = Rgb(0xb58863);
const WHITE: Rgb = Rgb(0xfafafa);
const BLACK: Rgb = Rgb(0x1c1c1c);

pub const CARD: GameCard = GameCard { name: "chess", title, colours: ["White", "Black"], draw };

/// The variant's name, capitalised.
fn title(view: &Value) -> String {
    let variant = view["state"]["variant"].as_str().unwrap_or("chess");
    let mut letters = variant.chars();
    letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_default()
}

/// A square of a FEN board: empty, or a piece (its letter; upper case is white).
fn fen_rows(fen: &str) -> Option<Vec<Vec<Option<char>>>> {
    let board = fen.split([' ', '[']).next()?;
    let mut rows = Vec::new();
    for rank in board.split('/') {
        let mut row = Vec::new();
        let mut empty = 0usize;
        for c in rank.chars() {
            if let Some(digit) = c.to_digit(10) {
                empty = empty * 10 + digit as usize;
                continue;
            }
            row.extend(std::iter::repeat_n(None, std::mem::take(&mut empty)));
            if c.is_ascii_alphabetic() {
                row.push(Some(c));
            }
            // `+` (promoted) and `~` marks say nothing the card shows.
        }
        row.extend(std::iter::repeat_n(None, empty));
        rows.push(row);
    }
    let width = rows.first()?.len();
    (width > 0 && width <= 32 && rows.len() <= 32 && rows.iter().all(|row| row.len() == width)).then_some(rows)
}

fn draw(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
    let rows = fen_rows(state["fen"].as_str()?)?;
    let grid = Grid::fit(rows[0].len(), rows.len());
    for (row, squares) in rows.iter().enumerate() {
        for (column, square) in squares.iter().enumerate() {
            let light = (row + column) % 2 == 0;
            canvas.rect(grid.square(column, row, 0.0), if light { LIGHT } else { DARK });
            let Some(piece) = square else { continue };
            let (fill, edge) = if piece.is_ascii_uppercase() { (WHITE, BLACK) } else { (BLACK, WHITE) };
            let radius = grid.cell * if piece.eq_ignore_ascii_case(&'p') { 0.24 } else { 0.36 };
            let centre = grid.centre(column, row);
            canvas.disc(centre, radius, fill);
            canvas.ring(centre, radius, 2.0, edge);
            if piece.eq_ignore_ascii_case(&'k') {
                canvas.ring(centre, radius * 0.55, 3.0, edge);
            }
        }
    }
    Some(Sides { colours: [WHITE, BLACK], scores: None, marked: marked(state) })
}
