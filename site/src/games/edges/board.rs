//! The Edges & Blocks board: the n x n cells of the torus and its 2n² edges as bars. Each edge is
//! a button whose hit area is the diamond between the two cells it separates (the diamonds tile
//! the board, so every point of it is some edge's target); the edges on the far borders are drawn
//! a second time as half-edges, because on a torus they are the same edges as on the near ones.
//! A tap places, or selects one of your edges and then moves it; what the engine did is animated
//! step by step. The decisions are plain functions, unit-tested natively.

use leptos::prelude::*;
use tabula_core::edges::{Edges, EdgesMove, Player, Target, Torus};
use tabula_core::{Game, Seat};

use super::{edge_name, EdgesUi};
use crate::browser;
use crate::i18n::{use_i18n, I18n};
use crate::play::{BoardProps, GameUi};

/// (is vertical, x, y) of an edge id, as `shared/rules/edges.md` numbers them.
pub fn coords(torus: Torus, edge: usize) -> (bool, usize, usize) {
    let n = torus.side();
    let local = edge % (n * n);
    (edge >= n * n, local % n, local / n)
}

fn edge_id(torus: Torus, vertical: bool, x: usize, y: usize) -> usize {
    let n = torus.side();
    (if vertical { n * n } else { 0 }) + n * (y % n) + x % n
}

/// What a tap on an edge means here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tap {
    /// One of your edges, to move: its destinations light up.
    Select(usize),
    /// The selected edge again: nothing selected any more.
    Cancel,
    /// An action for the screen to judge (which refuses it, with the engine's reason, if illegal).
    Offer(EdgesMove),
}

/// The one decision of the board: what tapping `edge` means for a screen acting as `acting`, with
/// `selected` picked for a move and `ghost` waiting for its confirmation. It never judges legality:
/// a tap that cannot be an action is offered as the action it looks like, and the engine says why not.
pub fn tap(game: &Edges, acting: Option<Seat>, selected: Option<usize>, ghost: Option<EdgesMove>, edge: usize) -> Tap {
    // A second tap on a move waiting for confirmation confirms it.
    if let Some(ghost) = ghost {
        let target = match ghost {
            EdgesMove::Place { edge, .. } => Some(edge),
            EdgesMove::Move { to, .. } => Some(to),
            EdgesMove::Pass { .. } => None,
        };
        if target == Some(edge) {
            return Tap::Offer(ghost);
        }
    }
    let colour = game.edge(edge);
    let to_move = game.status().to_move();
    // "Moving" an edge that is not yours to move: the engine's refusal says which reason applies.
    let not_mine =
        |player: Option<Seat>| Tap::Offer(EdgesMove::Move { from: edge, to: edge, player: player.map(Player::of) });
    match (selected, colour) {
        (Some(from), _) if from == edge => Tap::Cancel,
        (Some(from), None) => Tap::Offer(EdgesMove::shift(from, edge)),
        (Some(_), Some(c)) if Some(c) == acting => Tap::Select(edge),
        (Some(_), Some(_)) => not_mine(None),
        (None, None) => Tap::Offer(EdgesMove::place(edge)),
        (None, Some(c)) if Some(c) == acting && to_move == Some(c) => Tap::Select(edge),
        // Your own edge while the other side is to move: "not your turn".
        (None, Some(c)) if Some(c) == acting => not_mine(Some(c)),
        (None, Some(_)) => not_mine(None),
    }
}

/// The empty edges `from` may move to.
pub fn destinations(game: &Edges, from: usize) -> Vec<usize> {
    game.torus().adjacent(from).into_iter().filter(|&e| game.edge(e).is_none()).collect()
}

/// The edge the keyboard focus moves to on an arrow key. Left and right walk a row of cells
/// through each cell's left edge then its top edge; up and down keep the kind of edge. The board
/// wraps, as the game does.
pub fn move_focus(torus: Torus, edge: usize, key: &str) -> usize {
    let n = torus.side();
    let (vertical, x, y) = coords(torus, edge);
    match (key, vertical) {
        ("ArrowRight", true) => edge_id(torus, false, x, y),
        ("ArrowRight", false) => edge_id(torus, true, x + 1, y),
        ("ArrowLeft", false) => edge_id(torus, true, x, y),
        ("ArrowLeft", true) => edge_id(torus, false, x + n - 1, y),
        ("ArrowDown", _) => edge_id(torus, vertical, x, y + 1),
        ("ArrowUp", _) => edge_id(torus, vertical, x, y + n - 1),
        _ => edge,
    }
}

/// One step of the last action's animation: an edge or cell it changed, its step number (in the
/// order the engine made the changes) and the colour it had before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub target: Target,
    pub k: usize,
    pub before: Option<Seat>,
}

/// The animation of the last action: what each changed edge and cell was first, and how many steps
/// there were (the supply refill comes after them). The action's own edges (the one placed, or
/// moved away and landed) are not animated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Animation {
    pub steps: Vec<Step>,
    pub count: usize,
}

pub fn animation(game: &Edges, mv: Option<&EdgesMove>) -> Animation {
    let own = match mv {
        Some(EdgesMove::Place { .. }) => 1,
        Some(EdgesMove::Move { .. }) => 2,
        _ => return Animation::default(),
    };
    let mut animation = Animation::default();
    for change in game.last_changes().into_iter().skip(own) {
        animation.count += 1;
        // A cell destroyed and recaptured in one action animates from where it started.
        if !animation.steps.iter().any(|s| s.target == change.target) {
            animation.steps.push(Step { target: change.target, k: animation.count, before: change.before });
        }
    }
    animation
}

fn colour_class(prefix: &str, seat: Option<Seat>) -> String {
    match seat {
        Some(seat) => format!(" {prefix}-{}", seat.number()),
        None => format!(" {prefix}-0"),
    }
}

/// What one edge shows: computed for all edges at once, so each edge's element reads one value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct EdgeView {
    colour: Option<Seat>,
    selected: bool,
    target: bool,
    last: bool,
    /// A move waiting for confirmation lands here, in this seat's colour.
    ghost: Option<Seat>,
    /// A move waiting for confirmation leaves from here.
    leaving: bool,
}

fn edge_views(
    game: &Edges,
    selected: Option<usize>,
    last: Option<&EdgesMove>,
    ghost: Option<EdgesMove>,
) -> Vec<EdgeView> {
    let mut views: Vec<EdgeView> =
        (0..game.torus().edge_count()).map(|e| EdgeView { colour: game.edge(e), ..EdgeView::default() }).collect();
    if let Some(from) = selected {
        views[from].selected = true;
        for to in destinations(game, from) {
            views[to].target = true;
        }
    }
    if let Some(at) = landed(last) {
        views[at].last = true;
    }
    match ghost {
        Some(EdgesMove::Place { edge: at, .. }) => views[at].ghost = game.status().to_move(),
        Some(EdgesMove::Move { from, to, .. }) => {
            views[to].ghost = game.status().to_move();
            views[from].leaving = true;
        }
        _ => {}
    }
    views
}

fn edge_class(view: EdgeView, vertical: bool) -> String {
    let mut class = String::from(if vertical { "edge v" } else { "edge h" });
    class += &colour_class("colour", view.colour);
    for (on, name) in
        [(view.selected, " selected"), (view.target, " target"), (view.last, " last"), (view.leaving, " leaving")]
    {
        if on {
            class += name;
        }
    }
    if let Some(seat) = view.ghost {
        class += &format!(" ghost ghost-{}", seat.number());
    }
    class
}

fn edge_label(i18n: I18n, name: &str, view: EdgeView) -> String {
    let mut label = format!(
        "{name}, {}",
        match view.colour {
            Some(seat) => i18n.t(EdgesUi::colour_id(seat)),
            None => i18n.t("edges-empty"),
        }
    );
    for (on, id) in [(view.selected, "edges-selected"), (view.target, "edges-target"), (view.last, "last-move")] {
        if on {
            label += ", ";
            label += &i18n.t(id);
        }
    }
    label
}

/// The edges the last action landed on (the placed edge, or where a moved edge went).
fn landed(mv: Option<&EdgesMove>) -> Option<usize> {
    match mv {
        Some(EdgesMove::Place { edge, .. }) => Some(*edge),
        Some(EdgesMove::Move { to, .. }) => Some(*to),
        _ => None,
    }
}

#[component]
pub fn EdgesBoard(props: BoardProps<Edges>) -> impl IntoView {
    let i18n = use_i18n();
    let BoardProps { game, last, acting, ghost, play, diagram, .. } = props;
    let torus = game.with_untracked(|g| g.torus());
    let n = torus.side();
    let selected = RwSignal::new(None::<usize>);
    // A new position (a move here or from the other side, a takeback, a replay step) drops a selection.
    Effect::new(move |_| {
        game.track();
        selected.set(None);
    });
    let focus = RwSignal::new(edge_id(torus, false, n / 2, n / 2));
    let prefix = if diagram { "diagram-edge" } else { "edge" };
    let animation = Memo::new(move |_| game.with(|g| animation(g, last.get().as_ref())));
    let views = Memo::new(move |_| game.with(|g| edge_views(g, selected.get(), last.get().as_ref(), ghost.get())));
    let on_tap = move |edge: usize| {
        focus.set(edge);
        let intent = game
            .with_untracked(|g| tap(g, acting.get_untracked(), selected.get_untracked(), ghost.get_untracked(), edge));
        match intent {
            Tap::Select(edge) => selected.set(Some(edge)),
            Tap::Cancel => selected.set(None),
            Tap::Offer(mv) => {
                selected.set(None);
                play.run(mv);
            }
        }
    };
    // The steps of the last action are drawn over the board, each in the colour it had before and
    // fading at its turn (`--k`), so the board's own elements carry no animation state.
    // `--from` is that colour: `--e1` an edge of seat one, `--o2` a cell of seat two.
    let overlay = move |cells: bool| {
        animation.with(|a| {
            a.steps
                .iter()
                .filter_map(|step| {
                    let (class, x, y, kind) = match step.target {
                        Target::Cell(cell) if cells => ("step block", cell % n, cell / n, 'o'),
                        Target::Edge(edge) if !cells => {
                            let (vertical, x, y) = coords(torus, edge);
                            (if vertical { "step edge v" } else { "step edge h" }, x, y, 'e')
                        }
                        _ => return None,
                    };
                    let (k, colour) = (step.k, step.before.map_or(0, Seat::number));
                    let style = format!("--x:{x};--y:{y};--k:{k};--from:var(--{kind}{colour})");
                    Some(view! { <span class=class style=style aria-hidden="true"></span> })
                })
                .collect_view()
        })
    };

    let cells = (0..torus.cell_count())
        .map(|cell| {
            let (x, y) = (cell % n, cell / n);
            let class = move || format!("block{}", colour_class("owner", game.with(|g| g.owner(cell))));
            view! { <span class=class style=format!("--x:{x};--y:{y}") aria-hidden="true"></span> }
        })
        .collect_view();

    let edges = (0..torus.edge_count())
        .map(|edge| {
            let (vertical, x, y) = coords(torus, edge);
            let name = edge_name(torus, edge);
            let view_of = move || views.with(|v| v[edge]);
            let label = move || edge_label(i18n, &name, view_of());
            let button = view! {
                <button
                    id=format!("{prefix}-{edge}")
                    class=move || edge_class(view_of(), vertical)
                    style=format!("--x:{x};--y:{y}")
                    aria-label=label
                    tabindex=move || if !diagram && focus.get() == edge { "0" } else { "-1" }
                    disabled=diagram
                    on:click=move |_| on_tap(edge)
                    on:keydown=move |event: web_sys::KeyboardEvent| {
                        let next = move_focus(torus, edge, &event.key());
                        if next != edge {
                            event.prevent_default();
                            focus.set(next);
                            browser::focus(&format!("edge-{next}"));
                        }
                    }
                ></button>
            };
            // The far border's copy of a near-border edge: the same edge, for pointers only.
            let wrap = (!diagram && (x == 0 && vertical || y == 0 && !vertical)).then(|| {
                let (wx, wy) = if vertical { (n, y) } else { (x, n) };
                view! {
                    <span
                        class=move || format!("{} wrap", edge_class(view_of(), vertical))
                        id=format!("{prefix}-{edge}-wrap")
                        style=format!("--x:{wx};--y:{wy}")
                        aria-hidden="true"
                        on:click=move |_| on_tap(edge)
                    ></span>
                }
            });
            view! { {button}{wrap} }
        })
        .collect_view();

    let supplies = move || {
        let refill_at = animation.with(|a| a.count + 1);
        let refill = game.with(|g| g.events().refill);
        let fresh = last.with(|l| matches!(l, Some(EdgesMove::Place { .. } | EdgesMove::Move { .. })));
        Seat::ALL
            .into_iter()
            .map(|seat| {
                let count = game.with(|g| g.supply(seat));
                let bump = fresh && refill.0[seat.index()] > 0;
                let class = format!("supply supply-{}{}", seat.number(), if bump { " bump" } else { "" });
                let text = i18n.t_with(
                    "edges-supply",
                    &[("player", i18n.t(EdgesUi::colour_id(seat)).into()), ("count", count.into())],
                );
                view! {
                    <span class=class id=format!("supply-{}", seat.number()) data-supply=count.to_string()
                        style=format!("--k:{refill_at}")>{text}</span>
                }
            })
            .collect_view()
    };
    let happened = move || {
        let before = props.before.get();
        let mv = last.get();
        match (before, mv) {
            (Some(before), Some(mv)) => game.with(|g| EdgesUi::describe(i18n, &before, &mv, g)),
            _ => String::new(),
        }
    };
    let base = if diagram { "board edges-board diagram-board" } else { "board edges-board" };
    view! {
        <div
            class=base
            style=format!("--n: {n}")
            role="group"
            aria-label=move || i18n.t_with("edges-board-label", &[("size", n.into())])
            on:keydown=move |event: web_sys::KeyboardEvent| {
                if event.key() == "Escape" {
                    selected.set(None);
                }
            }
        >
            <div class="field">{cells}{move || overlay(true)}{edges}{move || overlay(false)}</div>
        </div>
        {(!diagram).then(|| view! {
            <div class="supplies">{supplies}</div>
            <p class="happened" id="happened">{happened}</p>
        })}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::play::History;

    fn game(moves: &[EdgesMove]) -> Edges {
        History::<Edges>::replay(json!({}), moves).unwrap().current().clone()
    }

    #[test]
    fn taps_place_select_move_or_are_offered_for_the_engine_to_refuse() {
        let torus = Torus::new(8);
        let h = |x, y| edge_id(torus, false, x, y);
        // Black placed H(3,3), red placed H(5,5): black to move.
        let start = game(&[EdgesMove::place(h(3, 3)), EdgesMove::place(h(5, 5))]);
        let black = Some(Seat::One);
        assert_eq!(tap(&start, black, None, None, h(0, 0)), Tap::Offer(EdgesMove::place(h(0, 0))));
        assert_eq!(tap(&start, black, None, None, h(3, 3)), Tap::Select(h(3, 3)));
        assert_eq!(tap(&start, black, Some(h(3, 3)), None, h(3, 3)), Tap::Cancel);
        assert_eq!(tap(&start, black, Some(h(3, 3)), None, h(4, 3)), Tap::Offer(EdgesMove::shift(h(3, 3), h(4, 3))));
        // A far edge while one is selected is still offered as a move: the engine says "not next to it".
        let far = tap(&start, black, Some(h(3, 3)), None, h(0, 7));
        assert_eq!(far, Tap::Offer(EdgesMove::shift(h(3, 3), h(0, 7))));
        let Tap::Offer(mv) = far else { unreachable!() };
        assert_eq!(tabula_core::Rejection::code(&start.check(&mv).unwrap_err()), "not_adjacent");
        // Red's edge: the engine says it is not black's to move.
        let Tap::Offer(theirs) = tap(&start, black, None, None, h(5, 5)) else { panic!("offered") };
        assert_eq!(tabula_core::Rejection::code(&start.check(&theirs).unwrap_err()), "not_own_edge");
        // Red taps its own edge on black's turn: not red's turn.
        let Tap::Offer(early) = tap(&start, Some(Seat::Two), None, None, h(5, 5)) else { panic!("offered") };
        assert_eq!(tabula_core::Rejection::code(&start.check(&early).unwrap_err()), "not_your_turn");
        // A waiting move is confirmed by a tap on where it lands.
        let ghost = EdgesMove::shift(h(3, 3), h(4, 3));
        assert_eq!(tap(&start, black, None, Some(ghost), h(4, 3)), Tap::Offer(ghost));
    }

    #[test]
    fn destinations_are_the_empty_neighbours_and_focus_walks_the_torus() {
        let torus = Torus::new(8);
        let h = |x, y| edge_id(torus, false, x, y);
        let v = |x, y| edge_id(torus, true, x, y);
        let g = game(&[EdgesMove::place(h(3, 3)), EdgesMove::place(h(4, 3))]);
        let near = destinations(&g, h(3, 3));
        assert_eq!(near.len(), 5, "six neighbours, one taken: {near:?}");
        assert!(!near.contains(&h(4, 3)) && near.contains(&h(2, 3)) && near.contains(&v(3, 2)));
        assert_eq!(move_focus(torus, v(0, 0), "ArrowRight"), h(0, 0));
        assert_eq!(move_focus(torus, h(7, 0), "ArrowRight"), v(0, 0), "wraps to the row's start");
        assert_eq!(move_focus(torus, v(0, 0), "ArrowLeft"), h(7, 0));
        assert_eq!(move_focus(torus, h(2, 0), "ArrowUp"), h(2, 7));
        assert_eq!(move_focus(torus, v(2, 7), "ArrowDown"), v(2, 0));
        // Every edge is reachable with the arrows.
        let mut seen = vec![false; torus.edge_count()];
        let mut at = v(0, 0);
        for _ in 0..8 {
            for _ in 0..16 {
                seen[at] = true;
                at = move_focus(torus, at, "ArrowRight");
            }
            at = move_focus(torus, at, "ArrowDown");
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn the_animation_orders_the_engines_changes_after_the_action_itself() {
        let torus = Torus::new(8);
        let h = |x, y| edge_id(torus, false, x, y);
        let v = |x, y| edge_id(torus, true, x, y);
        // Black closes cell (0,0) with four edges (red plays far away): a capture.
        let moves = [
            EdgesMove::place(h(0, 0)),
            EdgesMove::place(h(5, 5)),
            EdgesMove::place(h(0, 1)),
            EdgesMove::place(h(6, 6)),
            EdgesMove::place(v(0, 0)),
            EdgesMove::place(h(7, 7)),
            EdgesMove::place(v(1, 0)),
        ];
        let g = game(&moves);
        assert_eq!(g.owner(0), Some(Seat::One));
        let a = animation(&g, moves.last());
        // The capture is the only step, from empty; the placed edge itself is not animated.
        assert_eq!(a.steps, [Step { target: Target::Cell(0), k: 1, before: None }]);
        assert_eq!(a.count, 1);
        assert_eq!(animation(&g, Some(&EdgesMove::PASS)), Animation::default());
    }
}
