//! "Save picture": a PNG of the position with the players' names and figures. The screen draws the
//! frame; each game draws its board into the square below it through a [`Pen`], which the home's
//! pictures (`site/src/pictures.rs`, at build time) also draw with.

use leptos::prelude::*;
use tabula_core::Seat;
use wasm_bindgen::JsCast;

use super::{colour_name, GameUi};
use crate::browser;
use crate::i18n::{tr, use_i18n};

/// What a game draws its board with, in board coordinates: a square of side [`Pen::size`].
pub trait Pen {
    fn size(&self) -> f64;
    fn rect(&self, x: f64, y: f64, w: f64, h: f64, colour: &str);
    fn disc(&self, x: f64, y: f64, radius: f64, colour: &str);
    fn ring(&self, x: f64, y: f64, radius: f64, colour: &str, width: f64);
    fn line(&self, from: (f64, f64), to: (f64, f64), colour: &str, width: f64);

    /// A chess piece of `seat` filling the square of side `side` at `x`, `y`: its `figure` (an id
    /// of `site/static/pieces.svg`) where the pen can draw one, else a disc in its colours.
    fn piece(&self, x: f64, y: f64, side: f64, figure: Option<&str>, seat: Seat) {
        let _ = figure;
        piece_disc(self, x, y, side, seat);
    }
}

/// A chess piece as a disc in its side's colours.
pub fn piece_disc(pen: &(impl Pen + ?Sized), x: f64, y: f64, side: f64, seat: Seat) {
    let (fill, ring) = if seat == Seat::One { ("#fafafa", "#222") } else { ("#222", "#fafafa") };
    pen.disc(x + side / 2.0, y + side / 2.0, side * 0.38, fill);
    pen.ring(x + side / 2.0, y + side / 2.0, side * 0.38, ring, 1.5);
}

/// The PNG's canvas: the board's square below the header.
struct Canvas {
    context: web_sys::CanvasRenderingContext2d,
    size: f64,
    top: f64,
}

const SIZE: f64 = 480.0;
const HEADER: f64 = 64.0;
const BACKGROUND: &str = "#141826";

impl Pen for Canvas {
    fn size(&self) -> f64 {
        self.size
    }

    fn rect(&self, x: f64, y: f64, w: f64, h: f64, colour: &str) {
        self.context.set_fill_style_str(colour);
        self.context.fill_rect(x, self.top + y, w, h);
    }

    fn disc(&self, x: f64, y: f64, radius: f64, colour: &str) {
        self.context.set_fill_style_str(colour);
        self.context.begin_path();
        let _ = self.context.arc(x, self.top + y, radius, 0.0, std::f64::consts::TAU);
        self.context.fill();
    }

    fn ring(&self, x: f64, y: f64, radius: f64, colour: &str, width: f64) {
        self.context.set_stroke_style_str(colour);
        self.context.set_line_width(width);
        self.context.begin_path();
        let _ = self.context.arc(x, self.top + y, radius, 0.0, std::f64::consts::TAU);
        self.context.stroke();
    }

    fn line(&self, from: (f64, f64), to: (f64, f64), colour: &str, width: f64) {
        self.context.set_stroke_style_str(colour);
        self.context.set_line_width(width);
        self.context.begin_path();
        self.context.move_to(from.0, self.top + from.1);
        self.context.line_to(to.0, self.top + to.1);
        self.context.stroke();
    }
}

fn render<U: GameUi>(game: &U::G, header: [String; 2], colours: [&str; 2]) -> Option<String> {
    let document = browser::document()?;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    canvas.set_width(SIZE as u32);
    canvas.set_height((SIZE + HEADER) as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    context.set_fill_style_str(BACKGROUND);
    context.fill_rect(0.0, 0.0, SIZE, SIZE + HEADER);
    context.set_font("bold 20px sans-serif");
    for seat in Seat::ALL {
        context.set_fill_style_str(colours[seat.index()]);
        let x = if seat == Seat::One { 16.0 } else { SIZE / 2.0 + 8.0 };
        let _ = context.fill_text(&header[seat.index()], x, 40.0);
    }
    U::draw(&Canvas { context, size: SIZE, top: HEADER }, game);
    canvas.to_data_url_with_type("image/png").ok()
}

pub fn save_button<U: GameUi>(game: Signal<U::G>, names: Signal<[Option<String>; 2]>) -> impl IntoView {
    let i18n = use_i18n();
    let save = move |_| {
        let (game, names) = (game.get_untracked(), names.get_untracked());
        let header =
            Seat::ALL.map(|seat| format!("{} {}", colour_name::<U>(i18n, seat, &names), U::score(i18n, &game, seat)));
        // Light text on the dark frame for both colours, whatever the game's colours are.
        if let (Some(url), Some(document)) = (render::<U>(&game, header, ["#ff8fa3", "#8fd0ff"]), browser::document()) {
            browser::download_url(&document, &format!("tabula-{}.png", U::SLUG.name()), &url);
        }
    };
    view! { <button class="button" id="save-picture" on:click=save>{tr("save-picture")}</button> }
}
