//! "Save picture": the board with scores and names drawn on a canvas by the app itself, saved as PNG.

use leptos::prelude::*;
use tabula_core::popucom::Popucom;
use tabula_core::Seat;
use wasm_bindgen::JsCast;

use crate::i18n::use_i18n;
use crate::logic::{cell_views, colour_id};

const CELL: f64 = 48.0;
const MARGIN: f64 = 24.0;
const HEADER: f64 = 64.0;
const COLOURS: [&str; 2] = ["#ff5470", "#3da9fc"];
const LANDS: [&str; 2] = ["#5c2533", "#1d3f5e"];

fn draw(game: &Popucom, names: &[Option<String>; 2], labels: [String; 2]) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    let size = MARGIN * 2.0 + CELL * 9.0;
    canvas.set_width(size as u32);
    canvas.set_height((size + HEADER) as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    context.set_fill_style_str("#141826");
    context.fill_rect(0.0, 0.0, size, size + HEADER);
    context.set_font("bold 22px sans-serif");
    for seat in Seat::ALL {
        let name = names[seat.index()].as_ref().map(|n| format!(" ({n})")).unwrap_or_default();
        let text = format!("{}{name} {}", labels[seat.index()], game.score(seat));
        context.set_fill_style_str(COLOURS[seat.index()]);
        let x = if seat == Seat::One { MARGIN } else { size / 2.0 + MARGIN / 2.0 };
        context.fill_text(&text, x, 40.0).ok()?;
    }
    for view in cell_views(game, None) {
        let x = MARGIN + view.cell.col as f64 * CELL;
        let y = HEADER + MARGIN + view.cell.row as f64 * CELL;
        context.set_fill_style_str(view.territory.map_or("#232a40", |s| LANDS[s.index()]));
        context.fill_rect(x + 1.0, y + 1.0, CELL - 2.0, CELL - 2.0);
        if let Some(stone) = view.stone {
            context.set_fill_style_str(COLOURS[stone.index()]);
            context.begin_path();
            context.arc(x + CELL / 2.0, y + CELL / 2.0, CELL * 0.36, 0.0, std::f64::consts::TAU).ok()?;
            context.fill();
        }
    }
    canvas.to_data_url_with_type("image/png").ok()
}

fn download(url: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let anchor: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    anchor.set_href(url);
    anchor.set_download("tabula-popucom.png");
    anchor.click();
    Some(())
}

#[component]
pub fn SaveButton(
    #[prop(into)] game: Signal<Popucom>,
    #[prop(into)] names: Signal<[Option<String>; 2]>,
) -> impl IntoView {
    let i18n = use_i18n();
    let save = move |_| {
        let labels = [i18n.t(colour_id(Seat::One)), i18n.t(colour_id(Seat::Two))];
        if let Some(url) = draw(&game.get_untracked(), &names.get_untracked(), labels) {
            download(&url);
        }
    };
    view! { <button class="button" id="save-picture" on:click=save>{move || i18n.t("save-picture")}</button> }
}
