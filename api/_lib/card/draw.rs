//! A room's board as a 1200x630 PNG, the size link previews show, drawn with tiny-skia: no
//! browser, no fonts (the words are in the page's `og:title` and `og:description`). It reads the
//! room's view, the same JSON the pages draw from, in the site's colours. Anything it cannot read
//! gives the generic card: a preview never fails.

use serde_json::Value;
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

/// The site's colours (`site/static/style.css`); each game's are in its file (its `board.css`).
pub mod palette {
    use super::Rgb;
    pub const BACKGROUND: Rgb = Rgb(0x141826);
    pub const PANEL: Rgb = Rgb(0x1d2236);
    pub const ACCENT: Rgb = Rgb(0xffd166);
}

use super::popucom::{BLUE as POPUCOM_BLUE, CELL as POPUCOM_CELL, RED as POPUCOM_RED};
use palette::*;

/// Where a board of `columns` x `rows` squares (or points) sits on the card: squares of one size,
/// centred in the board's square.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub left: f32,
    pub top: f32,
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

    pub fn square(&self, column: usize, row: usize, inset: f32) -> Option<Rect> {
        Rect::from_xywh(
            self.left + column as f32 * self.cell + inset,
            self.top + row as f32 * self.cell + inset,
            self.cell - 2.0 * inset,
            self.cell - 2.0 * inset,
        )
    }

    pub fn area(&self, margin: f32) -> Option<Rect> {
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
pub struct Sides {
    pub colours: [Rgb; 2],
    pub scores: Option<[f64; 2]>,
    /// 1 or 2: to move, or the winner of a finished game.
    pub marked: Option<usize>,
}

pub struct Canvas(Pixmap);

impl Canvas {
    fn new() -> Canvas {
        let mut pixmap = Pixmap::new(WIDTH, HEIGHT).expect("the card's size is fixed and valid");
        let [r, g, b] = BACKGROUND.channels();
        pixmap.fill(Color::from_rgba8(r, g, b, 255));
        Canvas(pixmap)
    }

    pub fn rect(&mut self, rect: Option<Rect>, colour: Rgb) {
        if let Some(rect) = rect {
            self.0.fill_rect(rect, &colour.paint(), Transform::identity(), None);
        }
    }

    pub fn disc(&mut self, (x, y): (f32, f32), radius: f32, colour: Rgb) {
        if let Some(path) = PathBuilder::from_circle(x, y, radius) {
            self.0.fill_path(&path, &colour.paint(), FillRule::Winding, Transform::identity(), None);
        }
    }

    pub fn ring(&mut self, (x, y): (f32, f32), radius: f32, width: f32, colour: Rgb) {
        if let Some(path) = PathBuilder::from_circle(x, y, radius) {
            let stroke = Stroke { width, ..Stroke::default() };
            self.0.stroke_path(&path, &colour.paint(), &stroke, Transform::identity(), None);
        }
    }

    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, colour: Rgb) {
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
    let sides = super::game_of(view).and_then(|game| (game.draw)(&mut canvas, state));
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
pub fn rows_of(value: &Value) -> Option<Vec<Vec<u8>>> {
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
pub fn marked(state: &Value) -> Option<usize> {
    seat_number(&state["to_move"]).or_else(|| seat_number(&state["result"]["winner"]))
}

pub fn scores(state: &Value) -> Option<[f64; 2]> {
    Some([state["scores"]["1"].as_f64()?, state["scores"]["2"].as_f64()?])
}
