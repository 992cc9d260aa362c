//! A game's picture as SVG, drawn at build time for the home (`site/src/pictures.rs`): a position the
//! computer reached playing both sides from a fixed seed, drawn by the game's own [`GameUi::draw`],
//! the drawing of "Save picture". Native only: no bundle carries an SVG writer.

use std::cell::{Cell, RefCell};
use std::fmt::Write;

use tabula_core::ai::AnyPlayer;
use tabula_core::{Game, Seat};

use super::{piece_disc, GameUi, History, Pen};

/// The pictures' side in SVG units (the home shows them at most this wide).
pub const SIDE: f64 = 240.0;

/// The computer's level and seed: a game that looks played, the same on every build.
const COMPUTER_LEVEL: u8 = 3;
const SEED: u64 = 2026;

/// An SVG document being written, as a [`Pen`].
pub struct Svg {
    side: f64,
    body: RefCell<String>,
    /// Whether a chess figure was drawn: the document then carries the figures' drawings.
    figures: Cell<bool>,
}

/// The chess figures (`site/static/pieces.svg`): its `<defs>` and `<symbol>`s, without its comment.
fn figure_drawings() -> String {
    let sprite = include_str!("../../static/pieces.svg");
    let start = sprite.find("<defs>").expect("pieces.svg has its drawings in <defs>");
    let end = sprite.rfind("</svg>").expect("pieces.svg ends its document");
    sprite[start..end].lines().map(str::trim).collect()
}

/// A coordinate with at most one decimal: the pictures are small, and so are their files.
fn number(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map(str::to_owned).unwrap_or(text)
}

impl Svg {
    pub fn new(side: f64) -> Svg {
        Svg { side, body: RefCell::new(String::new()), figures: Cell::new(false) }
    }

    fn push(&self, element: std::fmt::Arguments) {
        let _ = self.body.borrow_mut().write_fmt(element);
    }

    /// The document. Its words are the page's: the `<img>` showing it has the `alt` text.
    pub fn finish(self) -> String {
        let side = number(self.side);
        let figures = if self.figures.get() { figure_drawings() } else { String::new() };
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" width=\"{side}\" \
             height=\"{side}\">{figures}{}</svg>\n",
            self.body.into_inner()
        )
    }
}

impl Pen for Svg {
    fn size(&self) -> f64 {
        self.side
    }

    fn rect(&self, x: f64, y: f64, w: f64, h: f64, colour: &str) {
        self.push(format_args!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"/>",
            number(x),
            number(y),
            number(w),
            number(h)
        ));
    }

    fn disc(&self, x: f64, y: f64, radius: f64, colour: &str) {
        self.push(format_args!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\"/>",
            number(x),
            number(y),
            number(radius)
        ));
    }

    fn ring(&self, x: f64, y: f64, radius: f64, colour: &str, width: f64) {
        self.push(format_args!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
            number(x),
            number(y),
            number(radius),
            number(width)
        ));
    }

    fn line(&self, from: (f64, f64), to: (f64, f64), colour: &str, width: f64) {
        self.push(format_args!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
            number(from.0),
            number(from.1),
            number(to.0),
            number(to.1),
            number(width)
        ));
    }

    /// The figure in the board's colours (`games/chess/board.css`, `.figure.side-<n>`).
    fn piece(&self, x: f64, y: f64, side: f64, figure: Option<&str>, seat: Seat) {
        let Some(figure) = figure else { return piece_disc(self, x, y, side, seat) };
        self.figures.set(true);
        let (fill, line) = if seat == Seat::One { ("#fafafa", "#1c1c1c") } else { ("#1c1c1c", "#f2f2f2") };
        self.push(format_args!(
            "<use href=\"#{figure}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"{line}\" \
             stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" style=\"--line:{line}\"/>",
            number(x + side * 0.04),
            number(y + side * 0.04),
            number(side * 0.92),
            number(side * 0.92)
        ));
    }
}

/// The game of the picture: the computer plays both sides for the game's [`GameUi::picture_moves`]
/// from its [`GameUi::picture_config`] (fewer if the game ends first).
pub fn picture_game<U: GameUi>() -> History<U::G> {
    let config = U::complete_config(U::picture_config()).expect("a game's picture config is valid");
    let mut history = History::<U::G>::new(config).expect("a game's picture config is valid");
    let mut player =
        AnyPlayer::new(<U::G as Game>::KIND, COMPUTER_LEVEL, SEED).expect("every game has a computer player");
    for _ in 0..U::picture_moves() {
        let choice = player.choose(history.config(), &history.moves_json(), None).expect("the game replays");
        let Some(choice) = choice else { break };
        let mv = serde_json::from_value(choice.mv).expect("the computer's move reads as a move");
        history.push(mv).unwrap_or_else(|_| panic!("the computer played an illegal move"));
    }
    history
}

/// The SVG picture of [`picture_game`]'s last position.
pub fn picture<U: GameUi>() -> String {
    let svg = Svg::new(SIDE);
    U::draw(&svg, picture_game::<U>().current());
    svg.finish()
}
