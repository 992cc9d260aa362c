//! The POPUCOM board: 81 cell buttons in a labelled group (each says what it holds; arrow keys
//! move the focus, Enter plays), what each cell shows, and what the last move changed (for the pop
//! and paint animations). The decisions are plain functions, unit-tested natively.

use leptos::prelude::*;
use tabula_core::popucom::{Cell, Cells, Popucom};
use tabula_core::{Game, Seat};

use crate::browser;
use crate::i18n::{tr, use_i18n, I18n};
use crate::play::BoardProps;

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    pub cell: Cell,
    pub stone: Option<Seat>,
    pub territory: Option<Seat>,
    pub playable: bool,
    pub last: bool,
}

fn owner(cells: [Cells; 2], cell: Cell) -> Option<Seat> {
    Seat::ALL.into_iter().find(|seat| cells[seat.index()].contains(cell))
}

/// Every cell, row by row. `playable` marks the legal cells of the side to move.
pub fn cell_views(game: &Popucom, last_move: Option<Cell>) -> Vec<CellView> {
    let legal = game.legal_cells();
    let stones = [game.stones(Seat::One), game.stones(Seat::Two)];
    let territory = [game.territory(Seat::One), game.territory(Seat::Two)];
    (0..81u8)
        .map(|index| {
            let cell = Cell::new(index / 9, index % 9);
            CellView {
                cell,
                stone: owner(stones, cell),
                territory: owner(territory, cell),
                playable: legal.contains(cell),
                last: last_move == Some(cell),
            }
        })
        .collect()
}

/// What a move changed: stones that vanished (popped lines) and cells newly painted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub popped: Cells,
    pub painted: Cells,
}

pub fn changes(before: &Popucom, after: &Popucom) -> Changes {
    let stones = |g: &Popucom| g.stones(Seat::One).union(g.stones(Seat::Two));
    let painted = Seat::ALL
        .into_iter()
        .fold(Cells::EMPTY, |acc, seat| acc.union(after.territory(seat).minus(before.territory(seat))));
    Changes { popped: stones(before).minus(stones(after)), painted }
}

/// The cell the keyboard focus moves to from `index` (0..81) on an arrow key.
pub fn move_focus(index: usize, key: &str) -> usize {
    let (row, col) = (index / 9, index % 9);
    let (row, col) = match key {
        "ArrowUp" => (row.saturating_sub(1), col),
        "ArrowDown" => ((row + 1).min(8), col),
        "ArrowLeft" => (row, col.saturating_sub(1)),
        "ArrowRight" => (row, (col + 1).min(8)),
        _ => (row, col),
    };
    row * 9 + col
}

fn colour_name(i18n: I18n, seat: Seat) -> String {
    i18n.t(if seat == Seat::One { "player-1" } else { "player-2" })
}

fn cell_label(i18n: I18n, view: &CellView, show_legal: bool) -> String {
    let name = |seat: Seat| colour_name(i18n, seat);
    let mut content = match (view.stone, view.territory) {
        (None, None) => i18n.t("cell-empty"),
        (Some(stone), None) => i18n.t_with("cell-stone", &[("player", name(stone).into())]),
        (None, Some(owner)) => i18n.t_with("cell-territory", &[("player", name(owner).into())]),
        (Some(stone), Some(owner)) => {
            i18n.t_with("cell-stone-on-territory", &[("player", name(stone).into()), ("owner", name(owner).into())])
        }
    };
    if view.playable && show_legal {
        content = format!("{content}, {}", i18n.t("cell-playable"));
    }
    if view.last {
        content = format!("{content}, {}", i18n.t("last-move"));
    }
    let (row, col) = (view.cell.row + 1, view.cell.col + 1);
    i18n.t_with("cell-label", &[("row", row.into()), ("col", col.into()), ("content", content.into())])
}

/// The board. Taps go to `props.play`, which decides (and explains) whether they are moves.
#[component]
pub fn PopucomBoard(props: BoardProps<Popucom>) -> impl IntoView {
    let i18n = use_i18n();
    let focus = RwSignal::new(40usize);
    let BoardProps { game, before, last, acting, ghost, play, diagram, .. } = props;
    let views = Memo::new(move |_| cell_views(&game.get(), last.get()));
    let changed = Memo::new(move |_| before.get().map(|b| changes(&b, &game.get())).unwrap_or_default());
    let show_legal = move || acting.get().is_some() && acting.get() == game.with(|g| g.status().to_move());
    let prefix = if diagram { "diagram-cell" } else { "cell" };
    // The 81 buttons are made once and only their attributes follow the game, so keyboard focus
    // stays on its cell while moves arrive.
    let cells = (0..81usize)
        .map(|index| {
            let view_at = move || views.with(|views| views[index]);
            let cell = Cell::new((index / 9) as u8, (index % 9) as u8);
            let class = move || {
                let view = view_at();
                let changed = changed.get();
                let mut class = String::from("cell");
                if let Some(stone) = view.stone {
                    class += if stone == Seat::One { " stone-1" } else { " stone-2" };
                }
                if let Some(land) = view.territory {
                    class += if land == Seat::One { " land-1" } else { " land-2" };
                }
                if view.playable && show_legal() {
                    class += " playable";
                }
                if view.last {
                    class += " last";
                }
                if changed.popped.contains(cell) {
                    class += " popped";
                } else if changed.painted.contains(cell) {
                    class += " painted";
                }
                if ghost.get() == Some(cell) {
                    class += game.with(|g| {
                        if g.status().to_move() == Some(Seat::One) {
                            " ghost ghost-1"
                        } else {
                            " ghost ghost-2"
                        }
                    });
                }
                class
            };
            view! {
                <button
                    id=format!("{prefix}-{index}")
                    class=class
                    aria-label=move || cell_label(i18n, &view_at(), show_legal())
                    tabindex=move || if !diagram && focus.get() == index { "0" } else { "-1" }
                    disabled=diagram
                    on:click=move |_| {
                        focus.set(index);
                        play.run(cell);
                    }
                    on:keydown=move |event: web_sys::KeyboardEvent| {
                        let next = move_focus(index, &event.key());
                        if next != index {
                            event.prevent_default();
                            focus.set(next);
                            browser::focus(&format!("cell-{next}"));
                        }
                    }
                ></button>
            }
        })
        .collect_view();
    let class = if diagram { "board popucom-board diagram-board" } else { "board popucom-board" };
    view! { <div class=class role="group" aria-label=tr("board-label")>{cells}</div> }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[(u8, u8)]) -> Popucom {
        let cells: Vec<Cell> = moves.iter().map(|&(r, c)| Cell::new(r, c)).collect();
        Popucom::replay(Default::default(), &cells).unwrap()
    }

    #[test]
    fn cells_show_stones_territory_legality_and_the_last_move() {
        let game = play(&[(0, 0), (8, 8), (0, 1), (6, 6), (0, 2), (4, 4)]);
        let views = cell_views(&game, Some(Cell::new(4, 4)));
        assert_eq!(views.len(), 81);
        let at = |r: u8, c: u8| views[(r * 9 + c) as usize];
        assert_eq!(at(0, 5).territory, Some(Seat::One), "the popped row is red");
        assert_eq!(at(4, 4).stone, Some(Seat::Two));
        assert!(at(4, 4).last && !at(8, 8).last);
        assert!(at(0, 5).playable, "red to move may play red territory");
        assert!(!at(4, 4).playable, "occupied");
        assert_eq!(views.iter().filter(|v| v.playable).count(), game.legal_moves().len());
    }

    #[test]
    fn changes_show_popped_stones_and_new_paint() {
        let before = play(&[(0, 0), (8, 8), (0, 1), (6, 6)]);
        let after = play(&[(0, 0), (8, 8), (0, 1), (6, 6), (0, 2)]);
        let changed = changes(&before, &after);
        assert_eq!(changed.popped.len(), 2, "the two stones that were on the board before");
        assert_eq!(changed.painted.len(), 9);
        assert_eq!(changes(&after, &after), Changes::default());
    }

    #[test]
    fn arrow_keys_move_focus_within_the_board() {
        assert_eq!(move_focus(0, "ArrowUp"), 0);
        assert_eq!(move_focus(0, "ArrowRight"), 1);
        assert_eq!(move_focus(8, "ArrowRight"), 8, "no wrap into the next row");
        assert_eq!(move_focus(40, "ArrowDown"), 49);
        assert_eq!(move_focus(80, "ArrowDown"), 80);
    }
}
