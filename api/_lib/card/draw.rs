//! A room's board as a 1200x630 PNG, the size link previews show, drawn with tiny-skia: no
//! browser, no fonts (the words are in the page's `og:title` and `og:description`). It reads the
//! room's view, the same JSON the pages draw from, in the site's colours. Anything it cannot read
//! gives the generic card: a preview never fails.

use serde_json::Value;
use tabula_core::edges::Torus;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

/// The square the board is fitted in: left, top, side.
const BOARD_LEFT: f32 = 70.0;
const BOARD_TOP: f32 = 35.0;
const BOARD_SIDE: f32 = 560.0;

/// An opaque colour, `0xRRGGBB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u32);

impl Rgb {
    pub fn channels(self) -> [u8; 3] {
        [(self.0 >> 16) as u8, (self.0 >> 8) as u8, self.0 as u8]
    }

    fn paint(self) -> Paint<'static> {
        let [r, g, b] = self.channels();
        let mut paint = Paint::default();
        paint.set_color_rgba8(r, g, b, 255);
        paint.anti_alias = true;
        paint
    }
}

/// The site's colours (`site/static/style.css` and each game's `board.css`).
pub mod palette {
    use super::Rgb;
    pub const BACKGROUND: Rgb = Rgb(0x141826);
    pub const PANEL: Rgb = Rgb(0x1d2236);
    pub const ACCENT: Rgb = Rgb(0xffd166);
    pub const POPUCOM_CELL: Rgb = Rgb(0x232a40);
    pub const POPUCOM_RED: Rgb = Rgb(0xff5470);
    pub const POPUCOM_BLUE: Rgb = Rgb(0x3da9fc);
    pub const POPUCOM_RED_LAND: Rgb = Rgb(0x5c2533);
    pub const POPUCOM_BLUE_LAND: Rgb = Rgb(0x1d3f5e);
    pub const GO_WOOD: Rgb = Rgb(0xdcb35c);
    pub const GO_LINE: Rgb = Rgb(0x3b2f1e);
    pub const GO_BLACK: Rgb = Rgb(0x111111);
    pub const GO_WHITE: Rgb = Rgb(0xf4f4f4);
    pub const EDGES_EMPTY_EDGE: Rgb = Rgb(0xcbbd9c);
    pub const EDGES_BLACK: Rgb = Rgb(0x16161d);
    pub const EDGES_RED: Rgb = Rgb(0xc8102e);
    pub const EDGES_FREE_CELL: Rgb = Rgb(0xe9dfc8);
    pub const EDGES_BLACK_CELL: Rgb = Rgb(0x8f8f9c);
    pub const EDGES_RED_CELL: Rgb = Rgb(0xf3b8c0);
    pub const CHESS_LIGHT: Rgb = Rgb(0xf0d9b5);
    pub const CHESS_DARK: Rgb = Rgb(0xb58863);
    pub const CHESS_WHITE: Rgb = Rgb(0xfafafa);
    pub const CHESS_BLACK: Rgb = Rgb(0x1c1c1c);
}

use palette::*;

/// Where a board of `columns` x `rows` squares (or points) sits on the card: squares of one size,
/// centred in the board's square.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    left: f32,
    top: f32,
    pub cell: f32,
    columns: usize,
    rows: usize,
}

impl Grid {
    pub fn fit(columns: usize, rows: usize) -> Grid {
        let cell = BOARD_SIDE / columns.max(rows).max(1) as f32;
        let left = BOARD_LEFT + (BOARD_SIDE - cell * columns as f32) / 2.0;
        let top = BOARD_TOP + (BOARD_SIDE - cell * rows as f32) / 2.0;
        Grid { left, top, cell, columns, rows }
    }

    /// The centre of the square (or point) in `column`, `row`, counted from the top left.
    pub fn centre(&self, column: usize, row: usize) -> (f32, f32) {
        (self.left + (column as f32 + 0.5) * self.cell, self.top + (row as f32 + 0.5) * self.cell)
    }

    fn square(&self, column: usize, row: usize, inset: f32) -> Option<Rect> {
        Rect::from_xywh(
            self.left + column as f32 * self.cell + inset,
            self.top + row as f32 * self.cell + inset,
            self.cell - 2.0 * inset,
            self.cell - 2.0 * inset,
        )
    }

    fn area(&self, margin: f32) -> Option<Rect> {
        Rect::from_xywh(
            self.left - margin,
            self.top - margin,
            self.cell * self.columns as f32 + 2.0 * margin,
            self.cell * self.rows as f32 + 2.0 * margin,
        )
    }
}

/// The two sides as the panel right of the board shows them: their colours, their scores if the
/// game counts any, and whose turn it is (or who won).
struct Sides {
    colours: [Rgb; 2],
    scores: Option<[f64; 2]>,
    /// 1 or 2: to move, or the winner of a finished game.
    marked: Option<usize>,
}

struct Canvas(Pixmap);

impl Canvas {
    fn new() -> Canvas {
        let mut pixmap = Pixmap::new(WIDTH, HEIGHT).expect("the card's size is fixed and valid");
        let [r, g, b] = BACKGROUND.channels();
        pixmap.fill(Color::from_rgba8(r, g, b, 255));
        Canvas(pixmap)
    }

    fn rect(&mut self, rect: Option<Rect>, colour: Rgb) {
        if let Some(rect) = rect {
            self.0.fill_rect(rect, &colour.paint(), Transform::identity(), None);
        }
    }

    fn disc(&mut self, (x, y): (f32, f32), radius: f32, colour: Rgb) {
        if let Some(path) = PathBuilder::from_circle(x, y, radius) {
            self.0.fill_path(&path, &colour.paint(), FillRule::Winding, Transform::identity(), None);
        }
    }

    fn ring(&mut self, (x, y): (f32, f32), radius: f32, width: f32, colour: Rgb) {
        if let Some(path) = PathBuilder::from_circle(x, y, radius) {
            let stroke = Stroke { width, ..Stroke::default() };
            self.0.stroke_path(&path, &colour.paint(), &stroke, Transform::identity(), None);
        }
    }

    fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, colour: Rgb) {
        let mut path = PathBuilder::new();
        path.move_to(from.0, from.1);
        path.line_to(to.0, to.1);
        if let Some(path) = path.finish() {
            let stroke = Stroke { width, ..Stroke::default() };
            self.0.stroke_path(&path, &colour.paint(), &stroke, Transform::identity(), None);
        }
    }

    /// The panel right of the board: each side's disc, a bar for its score, a ring on the side
    /// marked.
    fn sides(&mut self, sides: &Sides) {
        self.rect(Rect::from_xywh(680.0, 35.0, 470.0, 560.0), PANEL);
        let top = sides.scores.map_or(0.0, |[a, b]| a.max(b)).max(1.0);
        for (index, y) in [(0, 215.0), (1, 415.0)] {
            let centre = (760.0, y);
            if sides.marked == Some(index + 1) {
                self.ring(centre, 62.0, 8.0, ACCENT);
            }
            self.disc(centre, 50.0, sides.colours[index]);
            if let Some(scores) = sides.scores {
                let length = (300.0 * scores[index] / top) as f32;
                self.rect(Rect::from_xywh(840.0, y - 14.0, 300.0, 28.0), BACKGROUND);
                self.rect(Rect::from_xywh(840.0, y - 14.0, length.max(1.0), 28.0), sides.colours[index]);
            }
        }
    }

    fn png(self) -> Vec<u8> {
        self.0.encode_png().expect("an in-memory PNG of a valid pixmap encodes")
    }
}

/// The PNG of a room, from its view (`LoadedRoom::view`); the generic card if the view is not
/// one this drawing knows.
pub fn room_card(view: &Value) -> Vec<u8> {
    let mut canvas = Canvas::new();
    let state = &view["state"];
    let sides = match view["game"].as_str() {
        Some("popucom") => popucom(&mut canvas, state),
        Some("go") => go(&mut canvas, state),
        Some("edges") => edges(&mut canvas, state),
        Some("chess") => chess(&mut canvas, state),
        _ => None,
    };
    match sides {
        Some(sides) => {
            canvas.sides(&sides);
            canvas.png()
        }
        None => generic_card(),
    }
}

/// The site's card, for anything that is not a room with a board: an empty POPUCOM board with a
/// popped row in each colour.
pub fn generic_card() -> Vec<u8> {
    let mut canvas = Canvas::new();
    let grid = Grid::fit(9, 9);
    for row in 0..9 {
        for column in 0..9 {
            canvas.rect(grid.square(column, row, 3.0), POPUCOM_CELL);
        }
    }
    for column in 3..6 {
        canvas.disc(grid.centre(column, 3), grid.cell * 0.36, POPUCOM_RED);
        canvas.disc(grid.centre(column, 5), grid.cell * 0.36, POPUCOM_BLUE);
    }
    canvas.sides(&Sides { colours: [POPUCOM_RED, POPUCOM_BLUE], scores: None, marked: None });
    canvas.png()
}

/// A grid of small numbers (`[[0, 1, 2], ...]`), rows of equal length.
fn rows_of(value: &Value) -> Option<Vec<Vec<u8>>> {
    let rows: Vec<Vec<u8>> = value
        .as_array()?
        .iter()
        .map(|row| row.as_array()?.iter().map(|v| v.as_u64().and_then(|n| u8::try_from(n).ok())).collect())
        .collect::<Option<_>>()?;
    let width = rows.first()?.len();
    (width > 0 && rows.iter().all(|row| row.len() == width)).then_some(rows)
}

fn seat_number(value: &Value) -> Option<usize> {
    value.as_u64().filter(|n| (1..=2).contains(n)).map(|n| n as usize)
}

/// Who is to move, or else who won (a winner of 0 is a draw).
fn marked(state: &Value) -> Option<usize> {
    seat_number(&state["to_move"]).or_else(|| seat_number(&state["result"]["winner"]))
}

fn scores(state: &Value) -> Option<[f64; 2]> {
    Some([state["scores"]["1"].as_f64()?, state["scores"]["2"].as_f64()?])
}

fn popucom(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
    let board = rows_of(&state["board"])?;
    let land = rows_of(&state["territory"])?;
    let grid = Grid::fit(board[0].len(), board.len());
    for (row, cells) in board.iter().enumerate() {
        for (column, stone) in cells.iter().enumerate() {
            let ground = match land.get(row).and_then(|r| r.get(column)) {
                Some(1) => POPUCOM_RED_LAND,
                Some(2) => POPUCOM_BLUE_LAND,
                _ => POPUCOM_CELL,
            };
            canvas.rect(grid.square(column, row, grid.cell * 0.05), ground);
            match stone {
                1 => canvas.disc(grid.centre(column, row), grid.cell * 0.36, POPUCOM_RED),
                2 => canvas.disc(grid.centre(column, row), grid.cell * 0.36, POPUCOM_BLUE),
                _ => {}
            }
        }
    }
    Some(Sides { colours: [POPUCOM_RED, POPUCOM_BLUE], scores: scores(state), marked: marked(state) })
}

fn go(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
    let board = rows_of(&state["board"])?;
    let size = board.len();
    let grid = Grid::fit(size, size);
    canvas.rect(grid.area(grid.cell * 0.1), GO_WOOD);
    let line = (grid.cell * 0.06).max(1.5);
    for i in 0..size {
        canvas.line(grid.centre(0, i), grid.centre(size - 1, i), line, GO_LINE);
        canvas.line(grid.centre(i, 0), grid.centre(i, size - 1), line, GO_LINE);
    }
    for (row, points) in board.iter().enumerate() {
        for (column, stone) in points.iter().enumerate() {
            match stone {
                1 => canvas.disc(grid.centre(column, row), grid.cell * 0.47, GO_BLACK),
                2 => {
                    canvas.disc(grid.centre(column, row), grid.cell * 0.47, GO_WHITE);
                    canvas.ring(grid.centre(column, row), grid.cell * 0.47, 1.5, GO_LINE);
                }
                _ => {}
            }
        }
    }
    Some(Sides { colours: [GO_BLACK, GO_WHITE], scores: None, marked: marked(state) })
}

/// Edges & Blocks on its torus of side `n` (the engine's geometry, `Torus`): each cell's top and
/// left edges, and the wrapped bottom and right sides drawn again, so the board looks closed.
fn edges(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
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
            1 => EDGES_BLACK_CELL,
            2 => EDGES_RED_CELL,
            _ => EDGES_FREE_CELL,
        };
        canvas.rect(grid.square(cell % n, cell / n, 0.0), colour);
    }
    let colour = |edge: usize| match edges[edge] {
        1 => EDGES_BLACK,
        2 => EDGES_RED,
        _ => EDGES_EMPTY_EDGE,
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
    Some(Sides { colours: [EDGES_BLACK, EDGES_RED], scores: scores(state), marked: marked(state) })
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

fn chess(canvas: &mut Canvas, state: &Value) -> Option<Sides> {
    let rows = fen_rows(state["fen"].as_str()?)?;
    let grid = Grid::fit(rows[0].len(), rows.len());
    for (row, squares) in rows.iter().enumerate() {
        for (column, square) in squares.iter().enumerate() {
            let light = (row + column) % 2 == 0;
            canvas.rect(grid.square(column, row, 0.0), if light { CHESS_LIGHT } else { CHESS_DARK });
            let Some(piece) = square else { continue };
            let (fill, edge) =
                if piece.is_ascii_uppercase() { (CHESS_WHITE, CHESS_BLACK) } else { (CHESS_BLACK, CHESS_WHITE) };
            let radius = grid.cell * if piece.eq_ignore_ascii_case(&'p') { 0.24 } else { 0.36 };
            let centre = grid.centre(column, row);
            canvas.disc(centre, radius, fill);
            canvas.ring(centre, radius, 2.0, edge);
            if piece.eq_ignore_ascii_case(&'k') {
                canvas.ring(centre, radius * 0.55, 3.0, edge);
            }
        }
    }
    Some(Sides { colours: [CHESS_WHITE, CHESS_BLACK], scores: None, marked: marked(state) })
}
