//! POPUCOM on the shared game screen: the 9x9 board, what each cell shows and says, the
//! picture, and the rules diagram.

mod board;

use leptos::prelude::*;
use tabula_core::popucom::{Cell, Popucom, MOVE_LIMIT};
use tabula_core::Seat;

use crate::games::Slug;
use crate::i18n::I18n;
use crate::play::{BoardProps, Canvas, Diagram, GameUi};

#[derive(Clone, Copy)]
pub struct PopucomUi;

const COLOURS: [&str; 2] = ["#ff5470", "#3da9fc"];
const LANDS: [&str; 2] = ["#5c2533", "#1d3f5e"];

impl GameUi for PopucomUi {
    type G = Popucom;
    const SLUG: Slug = Slug::Popucom;
    const CSS: &'static str = include_str!("board.css");

    fn colour_id(seat: Seat) -> &'static str {
        match seat {
            Seat::One => "player-1",
            Seat::Two => "player-2",
        }
    }

    fn board(props: BoardProps<Popucom>) -> AnyView {
        view! { <board::PopucomBoard props=props /> }.into_any()
    }

    fn score(_i18n: I18n, game: &Popucom, seat: Seat) -> String {
        game.score(seat).to_string()
    }

    fn detail(i18n: I18n, game: &Popucom) -> Option<String> {
        Some(i18n.t_with("moves-left", &[("count", (MOVE_LIMIT - game.moves_played()).into())]))
    }

    /// Row and column as players count them, from 1.
    fn notation(_before: &Popucom, cell: &Cell) -> String {
        format!("{}-{}", cell.row + 1, cell.col + 1)
    }

    fn draw(canvas: &Canvas, game: &Popucom) {
        let cell = canvas.size / 9.0;
        for view in board::cell_views(game, None) {
            let (x, y) = (view.cell.col as f64 * cell, view.cell.row as f64 * cell);
            canvas.rect(
                x + 1.0,
                y + 1.0,
                cell - 2.0,
                cell - 2.0,
                view.territory.map_or("#232a40", |s| LANDS[s.index()]),
            );
            if let Some(stone) = view.stone {
                canvas.disc(x + cell / 2.0, y + cell / 2.0, cell * 0.36, COLOURS[stone.index()]);
            }
        }
    }

    fn diagrams() -> Vec<Diagram<Popucom>> {
        let cells = |moves: &[(u8, u8)]| moves.iter().map(|&(r, c)| Cell::new(r, c)).collect::<Vec<_>>();
        vec![Diagram {
            caption: "popucom-diagram-pop",
            moves: cells(&[(4, 2), (8, 8), (4, 3), (0, 8), (4, 4)]),
            config: serde_json::json!({}),
        }]
    }
}
