//! POPUCOM on the shared game screen: the 9x9 board, what each cell shows and says, the
//! picture, and the rules diagram.

mod board;

use leptos::prelude::*;
use tabula_core::popucom::{Cell, Popucom, MOVE_LIMIT};
use tabula_core::{Game, Seat};

use crate::i18n::I18n;
use crate::play::{BoardProps, Diagram, GameUi, Pen};

#[derive(Clone, Copy)]
pub struct PopucomUi;

const COLOURS: [&str; 2] = ["#ff5470", "#3da9fc"];
const LANDS: [&str; 2] = ["#5c2533", "#1d3f5e"];

impl GameUi for PopucomUi {
    type G = Popucom;
    const CSS: &'static str = include_str!(concat!(env!("OUT_DIR"), "/popucom.css"));

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

    fn describe(i18n: I18n, before: &Popucom, cell: &Cell, after: &Popucom) -> String {
        let player = before.status().to_move().map(|seat| i18n.t(Self::colour_id(seat))).unwrap_or_default();
        let mut said =
            i18n.t_with("move-said", &[("player", player.into()), ("move", Self::notation(before, cell).into())]);
        let changed = board::changes(before, after);
        if !changed.popped.is_empty() {
            // The stone just played pops with the others.
            let popped = changed.popped.len() + 1;
            said += &format!(", {}", i18n.t_with("popucom-said-pop", &[("count", popped.into())]));
        }
        if !changed.painted.is_empty() {
            said += &format!(", {}", i18n.t_with("popucom-said-paint", &[("count", changed.painted.len().into())]));
        }
        said
    }

    /// "5-5", "5 5" or "5,5": row then column, from 1.
    fn parse(_game: &Popucom, text: &str, _acting: Option<Seat>) -> Option<Cell> {
        let digits: Vec<u8> = text
            .split(|c: char| c == '-' || c == ',' || c.is_whitespace())
            .filter(|part| !part.is_empty())
            .map(|part| part.parse().ok())
            .collect::<Option<_>>()?;
        match digits.as_slice() {
            [row @ 1..=9, col @ 1..=9] => Some(Cell::new(row - 1, col - 1)),
            _ => None,
        }
    }

    /// Far enough in for lines to have popped and territory to show.
    fn picture_moves() -> usize {
        40
    }

    fn draw(pen: &impl Pen, game: &Popucom) {
        let cell = pen.size() / 9.0;
        for view in board::cell_views(game, None) {
            let (x, y) = (view.cell.col as f64 * cell, view.cell.row as f64 * cell);
            pen.rect(x + 1.0, y + 1.0, cell - 2.0, cell - 2.0, view.territory.map_or("#232a40", |s| LANDS[s.index()]));
            if let Some(stone) = view.stone {
                pen.disc(x + cell / 2.0, y + cell / 2.0, cell * 0.36, COLOURS[stone.index()]);
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

#[cfg(test)]
mod tests {
    use leptos::prelude::*;

    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn typed_moves_and_spoken_moves() {
        let game = Popucom::default();
        assert_eq!(PopucomUi::parse(&game, "5-5", None), Some(Cell::new(4, 4)));
        assert_eq!(PopucomUi::parse(&game, " 1 9 ", None), Some(Cell::new(0, 8)));
        for bad in ["", "0-5", "10-1", "5", "a-b", "1-2-3"] {
            assert_eq!(PopucomUi::parse(&game, bad, None), None, "{bad}");
        }
        let i18n = I18n { lang: RwSignal::new(Lang::En) };
        let moves = [(0, 0), (8, 8), (0, 1), (6, 6)].map(|(r, c)| Cell::new(r, c));
        let before = Popucom::replay(Default::default(), &moves).unwrap();
        let mut after = before.clone();
        after.play(&Cell::new(0, 2)).unwrap();
        assert_eq!(
            PopucomUi::describe(i18n, &before, &Cell::new(0, 2), &after),
            "Red plays 1-3, 3 stones pop, 9 cells painted"
        );
    }
}
