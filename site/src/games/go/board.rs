//! The Go board: one button per point in a labelled group, drawn with CSS (lines, star points,
//! stones), with coordinates as GTP writes them (A..T without I, 1 at the bottom). What each point
//! shows is a plain function, unit-tested natively.

use leptos::prelude::*;
use tabula_core::go::{Go, GoError, GoMove, Vertex, BLACK, EMPTY, WHITE};
use tabula_core::{Game, Seat};

use super::{phase, Phase};
use crate::browser;
use crate::i18n::{use_i18n, I18n};
use crate::play::BoardProps;

/// The star points (row from the top, column) of a board side, as go boards mark them.
pub fn star_points(size: usize) -> Vec<(usize, usize)> {
    if size < 7 {
        return if size % 2 == 1 { vec![(size / 2, size / 2)] } else { Vec::new() };
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let mut lines = vec![edge, size - 1 - edge];
    if size % 2 == 1 {
        lines.insert(1, size / 2);
    }
    let mut points = Vec::new();
    for &row in &lines {
        for &col in &lines {
            // Side stars only on the big boards; small odd boards get the centre.
            let side = (row == size / 2) != (col == size / 2);
            if !(side && size < 13) {
                points.push((row, col));
            }
        }
    }
    points
}

/// What one point shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointView {
    pub vertex: Vertex,
    /// 0 empty, 1 black, 2 white.
    pub stone: u8,
    pub star: bool,
    pub last: bool,
    pub dead: bool,
    /// The colour whose area this empty or dead point is, while scoring or after a scored end.
    pub area: u8,
    /// The point the side to move may not take now (ko).
    pub ko: bool,
}

/// Every point, rows from the top.
pub fn point_views(game: &Go, last: Option<&GoMove>) -> Vec<PointView> {
    let size = game.config().size;
    let board = game.board();
    let stars = star_points(size);
    let phase = phase(game);
    let owners = matches!(phase, Phase::Scoring | Phase::Scored).then(|| game.area_owners());
    let last = match last {
        Some(GoMove::Play { at, .. }) => Some(*at),
        _ => None,
    };
    let ko = board.ko().filter(|&p| phase == Phase::Play && game.check_point(p, game.to_move()) == Err(GoError::Ko));
    let mut views = Vec::with_capacity(size * size);
    for row in 0..size {
        for col in 0..size {
            let point = board.point(row, col);
            let vertex = game.vertex_of(point);
            let stone = board.colour(point);
            let dead = stone != EMPTY && game.is_dead(point);
            let area = match &owners {
                Some(owners) if stone == EMPTY || dead => owners[point],
                _ => EMPTY,
            };
            views.push(PointView {
                vertex,
                stone,
                star: stars.contains(&(row, col)),
                last: last == Some(vertex),
                dead,
                area,
                ko: ko == Some(point),
            });
        }
    }
    views
}

/// The point the keyboard focus moves to from `index` on an arrow key (no wrapping).
pub fn move_focus(index: usize, size: usize, key: &str) -> usize {
    let (row, col) = (index / size, index % size);
    let (row, col) = match key {
        "ArrowUp" => (row.saturating_sub(1), col),
        "ArrowDown" => ((row + 1).min(size - 1), col),
        "ArrowLeft" => (row, col.saturating_sub(1)),
        "ArrowRight" => (row, (col + 1).min(size - 1)),
        _ => (row, col),
    };
    row * size + col
}

fn colour_name(i18n: I18n, colour: u8) -> String {
    i18n.t(if colour == BLACK { "go-black" } else { "go-white" })
}

fn point_label(i18n: I18n, view: &PointView) -> String {
    let mut parts = vec![view.vertex.to_string()];
    parts.push(match view.stone {
        EMPTY => i18n.t("go-empty"),
        colour => i18n.t_with("go-stone", &[("colour", colour_name(i18n, colour).into())]),
    });
    if view.dead {
        parts.push(i18n.t("go-dead"));
    }
    if view.area != EMPTY {
        parts.push(i18n.t_with("go-area-of", &[("colour", colour_name(i18n, view.area).into())]));
    }
    if view.ko {
        parts.push(i18n.t("go-ko-point"));
    }
    if view.last {
        parts.push(i18n.t("last-move"));
    }
    parts.join(", ")
}

/// The move a tap on `view` means: a stone in play, marking a group while scoring.
fn tap_move(game: &Go, view: &PointView, acting: Option<Seat>) -> GoMove {
    match phase(game) {
        Phase::Scoring if view.stone != EMPTY => GoMove::Toggle { at: view.vertex, colour: acting },
        _ => GoMove::Play { at: view.vertex, colour: None },
    }
}

const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

#[component]
pub fn GoBoard(props: BoardProps<Go>) -> impl IntoView {
    let i18n = use_i18n();
    let BoardProps { game, last, acting, ghost, play, diagram, .. } = props;
    let size = game.with_untracked(|g| g.config().size);
    let views = Memo::new(move |_| game.with(|g| point_views(g, last.get().as_ref())));
    let focus = RwSignal::new((size / 2) * size + size / 2);
    let prefix = if diagram { "diagram-point" } else { "point" };
    // Whose ghost stone a hover or a pending confirmation shows.
    let turn_class = move || {
        let g = game.get();
        match (acting.get(), phase(&g), g.status().to_move()) {
            (Some(me), Phase::Play, Some(turn)) if me == turn => format!(" turn-{}", turn.number()),
            _ => String::new(),
        }
    };
    let ghost_at = move || match ghost.get() {
        Some(GoMove::Play { at, .. }) => Some(at),
        _ => None,
    };
    let mut cells = Vec::with_capacity((size + 1) * (size + 1));
    for row in 0..size {
        cells.push(view! { <span class="coord" aria-hidden="true">{size - row}</span> }.into_any());
        for col in 0..size {
            let index = row * size + col;
            let view_at = move || views.with(|v| v[index]);
            let mut edges = String::from("pt");
            if row == 0 {
                edges += " top";
            }
            if row + 1 == size {
                edges += " bottom";
            }
            if col == 0 {
                edges += " left";
            }
            if col + 1 == size {
                edges += " right";
            }
            let class = move || {
                let view = view_at();
                let mut class = edges.clone();
                match view.stone {
                    BLACK => class += " stone-1",
                    WHITE => class += " stone-2",
                    _ => class += " empty",
                }
                for (on, name) in [(view.star, " star"), (view.last, " last"), (view.dead, " dead"), (view.ko, " ko")] {
                    if on {
                        class += name;
                    }
                }
                match view.area {
                    BLACK => class += " area-1",
                    WHITE => class += " area-2",
                    _ => {}
                }
                if ghost_at() == Some(view.vertex) {
                    class += &format!(" ghost ghost-{}", game.with(|g| g.to_move()));
                }
                class
            };
            cells.push(
                view! {
                    <button
                        id=format!("{prefix}-{index}")
                        class=class
                        aria-label=move || point_label(i18n, &view_at())
                        tabindex=move || if !diagram && focus.get() == index { "0" } else { "-1" }
                        disabled=diagram
                        on:click=move |_| {
                            focus.set(index);
                            let mv = game.with_untracked(|g| tap_move(g, &view_at(), acting.get_untracked()));
                            play.run(mv);
                        }
                        on:keydown=move |event: web_sys::KeyboardEvent| {
                            let next = move_focus(index, size, &event.key());
                            if next != index {
                                event.prevent_default();
                                focus.set(next);
                                browser::focus(&format!("point-{next}"));
                            }
                        }
                    ></button>
                }
                .into_any(),
            );
        }
    }
    cells.push(view! { <span class="coord" aria-hidden="true"></span> }.into_any());
    for letter in &LETTERS[..size] {
        cells.push(view! { <span class="coord" aria-hidden="true">{(*letter as char).to_string()}</span> }.into_any());
    }
    let base = if diagram { "board go-board diagram-board" } else { "board go-board" };
    view! {
        <div
            class=move || format!("{base}{}", turn_class())
            style=format!("--n: {size}")
            role="group"
            aria-label=move || i18n.t_with("go-board-label", &[("size", size.into())])
        >
            {cells}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::play::History;

    fn play(at: &str) -> GoMove {
        GoMove::Play { at: at.parse().unwrap(), colour: None }
    }

    #[test]
    fn star_points_are_where_boards_have_them() {
        assert_eq!(star_points(19).len(), 9);
        assert!(star_points(19).contains(&(3, 15)) && star_points(19).contains(&(9, 9)));
        assert_eq!(star_points(13).len(), 9);
        let nine = star_points(9);
        assert_eq!(nine.len(), 5, "{nine:?}");
        assert!(nine.contains(&(2, 6)) && nine.contains(&(4, 4)));
        assert_eq!(star_points(5), vec![(2, 2)]);
        assert!(star_points(6).is_empty());
    }

    #[test]
    fn points_show_stones_last_move_ko_and_area() {
        // Black takes a single stone in a ko shape (as the rules diagram does).
        let moves = ["C4", "D4", "D5", "E5", "D3", "E3", "G7", "F4", "E4"].map(play);
        let history = History::<Go>::replay(json!({"size": 7}), &moves).unwrap();
        let views = point_views(history.current(), moves.last());
        let at = |v: &str| *views.iter().find(|p| p.vertex.to_string() == v).unwrap();
        assert_eq!(at("E4").stone, BLACK);
        assert!(at("E4").last && !at("C4").last);
        assert!(at("D4").ko && at("D4").stone == EMPTY, "white may not retake at once");
        assert_eq!(views.iter().filter(|p| p.ko).count(), 1);
        assert_eq!(views.len(), 49);
        assert!(views.iter().all(|p| p.area == EMPTY), "no area shown while playing");

        let pass = GoMove::Pass { colour: None };
        let scoring = History::<Go>::replay(json!({"size": 5}), &[play("C3"), pass, pass]).unwrap();
        let views = point_views(scoring.current(), None);
        assert_eq!(views.iter().filter(|p| p.area == BLACK).count(), 24, "every empty point is black's area");
    }

    #[test]
    fn taps_become_plays_or_marks() {
        let pass = GoMove::Pass { colour: None };
        let scoring = History::<Go>::replay(json!({"size": 5}), &[play("C3"), pass, pass]).unwrap();
        let views = point_views(scoring.current(), None);
        let stone = views.iter().find(|p| p.stone == BLACK).unwrap();
        assert_eq!(
            tap_move(scoring.current(), stone, Some(Seat::Two)),
            GoMove::Toggle { at: stone.vertex, colour: Some(Seat::Two) }
        );
        let empty = views.iter().find(|p| p.stone == EMPTY).unwrap();
        assert_eq!(
            tap_move(scoring.current(), empty, Some(Seat::Two)),
            GoMove::Play { at: empty.vertex, colour: None }
        );
        assert_eq!(move_focus(0, 19, "ArrowLeft"), 0);
        assert_eq!(move_focus(18, 19, "ArrowRight"), 18);
        assert_eq!(move_focus(18, 19, "ArrowDown"), 37);
    }
}
