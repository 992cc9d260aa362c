//! Edges & Blocks on the shared game screen: the torus board (edges as bars, owned cells, the
//! far borders' half-edges), place, select-and-move and pass, what each action did (animated and
//! said in one line), the notation `H3,5`, `V2,1→V2,2`, `pass`, and the picture.

mod board;

use leptos::prelude::*;
use tabula_core::edges::{Edges, EdgesMove, Torus};
use tabula_core::{Game, Seat};

use crate::browser;
use crate::i18n::{tr, Arg, I18n};
use crate::play::{BoardProps, Diagram, GameUi, Pen};

#[derive(Clone, Copy)]
pub struct EdgesUi;

const EDGE_COLOURS: [&str; 2] = ["#16161d", "#c8102e"];
const CELL_COLOURS: [&str; 2] = ["#8f8f9c", "#f3b8c0"];
const PAPER: &str = "#e9dfc8";

/// An edge as players write it: `H3,5` is the top edge of the cell in column 3, row 5 (from 1, rows
/// from the top); `V3,5` its left edge.
pub fn edge_name(torus: Torus, edge: usize) -> String {
    let (vertical, x, y) = board::coords(torus, edge);
    format!("{}{},{}", if vertical { 'V' } else { 'H' }, x + 1, y + 1)
}

/// `H3,5` (any case, spaces allowed) on a board of `torus`, if it names an edge.
pub fn parse_edge(torus: Torus, text: &str) -> Option<usize> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let vertical = match text.chars().next()?.to_ascii_uppercase() {
        'H' => false,
        'V' => true,
        _ => return None,
    };
    let (x, y) = text[1..].split_once(',')?;
    let (x, y): (usize, usize) = (x.parse().ok()?, y.parse().ok()?);
    let n = torus.side();
    if !(1..=n).contains(&x) || !(1..=n).contains(&y) {
        return None;
    }
    Some(if vertical { n * n } else { 0 } + n * (y - 1) + (x - 1))
}

/// "2 edges" or "1 edge": the site's messages carry no plural rules, so each count has two ids.
fn counted(i18n: I18n, id: &str, count: u32, args: &[(&str, Arg)]) -> String {
    let id = if count == 1 { format!("{id}-one") } else { id.to_owned() };
    let mut all = args.to_vec();
    all.push(("count", count.into()));
    i18n.t_with(&id, &all)
}

impl GameUi for EdgesUi {
    type G = Edges;
    const CSS: &'static str = include_str!(concat!(env!("OUT_DIR"), "/edges.css"));

    fn colour_id(seat: Seat) -> &'static str {
        match seat {
            Seat::One => "edges-black",
            Seat::Two => "edges-red",
        }
    }

    fn board(props: BoardProps<Edges>) -> AnyView {
        view! { <board::EdgesBoard props=props /> }.into_any()
    }

    fn move_buttons(props: BoardProps<Edges>) -> AnyView {
        let mine = move || props.acting.get().is_some();
        view! {
            <Show when=mine>
                <button class="button" id="pass" on:click=move |_| props.act.run(EdgesMove::PASS)>{tr("edges-pass")}</button>
            </Show>
        }
        .into_any()
    }

    fn score(i18n: I18n, game: &Edges, seat: Seat) -> String {
        counted(i18n, "edges-cells", game.cells_of(seat), &[])
    }

    fn detail(i18n: I18n, game: &Edges) -> Option<String> {
        Some(i18n.t_with("edges-to-win", &[("count", game.config().cells_to_win.into())]))
    }

    /// Its own words for its own endings (most cells, a full board), else the shared ones.
    fn reason(i18n: I18n, _game: &Edges, reason: &str) -> String {
        let own = format!("edges-reason-{reason}");
        let id = if crate::i18n::has(&own) { own } else { format!("reason-{reason}") };
        i18n.t(&id)
    }

    fn notation(before: &Edges, mv: &EdgesMove) -> String {
        let torus = before.torus();
        match *mv {
            EdgesMove::Place { edge, .. } => edge_name(torus, edge),
            EdgesMove::Move { from, to, .. } => format!("{}→{}", edge_name(torus, from), edge_name(torus, to)),
            EdgesMove::Pass { .. } => "pass".to_owned(),
        }
    }

    /// The action and everything it did, in one line: "Black places H3,5; Black eats 2 edges;
    /// 1 cell captured; Red's supply +1".
    fn describe(i18n: I18n, before: &Edges, mv: &EdgesMove, after: &Edges) -> String {
        let Some(mover) = before.status().to_move() else { return String::new() };
        let name = |seat: Seat| Arg::from(i18n.t(Self::colour_id(seat)));
        let torus = before.torus();
        let mut parts = vec![match *mv {
            EdgesMove::Place { edge, .. } => {
                i18n.t_with("edges-said-place", &[("player", name(mover)), ("edge", edge_name(torus, edge).into())])
            }
            EdgesMove::Move { from, to, .. } => i18n.t_with(
                "edges-said-move",
                &[
                    ("player", name(mover)),
                    ("from", edge_name(torus, from).into()),
                    ("to", edge_name(torus, to).into()),
                ],
            ),
            EdgesMove::Pass { .. } => return i18n.t_with("edges-said-pass", &[("player", name(mover))]),
        }];
        let events = after.events();
        if events.priority {
            parts.push(i18n.t_with("edges-said-priority", &[("player", name(mover))]));
        }
        for (seat, eaten) in [(mover, events.eaten_by_mover), (mover.other(), events.eaten_by_opponent)] {
            if eaten > 0 {
                parts.push(counted(i18n, "edges-said-eats", eaten, &[("player", name(seat))]));
            }
        }
        if events.longest_chain > 1 {
            parts.push(i18n.t_with("edges-said-chain", &[("count", events.longest_chain.into())]));
        }
        if events.captured > 0 {
            parts.push(counted(i18n, "edges-said-captured", events.captured, &[]));
        }
        if events.destroyed > 0 {
            parts.push(counted(i18n, "edges-said-destroyed", events.destroyed, &[]));
        }
        for seat in Seat::ALL {
            let refill = events.refill.0[seat.index()];
            if refill > 0 {
                parts.push(i18n.t_with("edges-said-refill", &[("player", name(seat)), ("count", refill.into())]));
            }
        }
        parts.join("; ")
    }

    /// `H3,5`, `V2,1→V2,2` (or `-`, `>`, a space between the two), `pass`.
    fn parse(game: &Edges, text: &str, _acting: Option<Seat>) -> Option<EdgesMove> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Some(EdgesMove::PASS);
        }
        let torus = game.torus();
        let parts: Vec<&str> = text.split(['→', '>', '-', ' ']).map(str::trim).filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            [edge] => Some(EdgesMove::place(parse_edge(torus, edge)?)),
            [from, to] => Some(EdgesMove::shift(parse_edge(torus, from)?, parse_edge(torus, to)?)),
            _ => None,
        }
    }

    /// A few boxes closed: most moves place one edge.
    fn picture_moves() -> usize {
        60
    }

    fn draw(pen: &impl Pen, game: &Edges) {
        let torus = game.torus();
        let n = torus.side();
        let margin = pen.size() * 0.04;
        let pitch = (pen.size() - 2.0 * margin) / n as f64;
        let at = |i: usize| margin + pitch * i as f64;
        pen.rect(0.0, 0.0, pen.size(), pen.size(), PAPER);
        for cell in 0..torus.cell_count() {
            if let Some(owner) = game.owner(cell) {
                pen.rect(at(cell % n), at(cell / n), pitch, pitch, CELL_COLOURS[owner.index()]);
            }
        }
        for edge in 0..torus.edge_count() {
            let (vertical, x, y) = board::coords(torus, edge);
            let (colour, width) = match game.edge(edge) {
                Some(seat) => (EDGE_COLOURS[seat.index()], pitch * 0.14),
                None => ("#cbbd9c", pitch * 0.04),
            };
            // The near border's edges are drawn on the far border too, as on the screen.
            let mut places = vec![(x, y)];
            if vertical && x == 0 {
                places.push((n, y));
            }
            if !vertical && y == 0 {
                places.push((x, n));
            }
            for (x, y) in places {
                let (from, to) = if vertical {
                    ((at(x), at(y) + pitch * 0.1), (at(x), at(y) + pitch * 0.9))
                } else {
                    ((at(x) + pitch * 0.1, at(y)), (at(x) + pitch * 0.9, at(y)))
                };
                pen.line(from, to, colour, width);
            }
        }
    }

    fn diagrams() -> Vec<Diagram<Edges>> {
        // On a 4x4 board: black closes a cell with three edges around red's one, and eats it.
        let torus = Torus::new(4);
        let h = |x: usize, y: usize| 4 * y + x;
        let v = |x: usize, y: usize| torus.cell_count() + 4 * y + x;
        let moves = vec![
            EdgesMove::place(h(1, 1)),
            EdgesMove::place(v(2, 1)),
            EdgesMove::place(h(1, 2)),
            EdgesMove::place(h(3, 3)),
            EdgesMove::place(v(1, 1)),
        ];
        vec![Diagram { caption: "edges-diagram-eat", moves, config: serde_json::json!({"size": 4}) }]
    }

    /// Edges under 28 px apart are easy to mis-tap: ask for a confirmation there.
    fn small_points(game: &Edges) -> bool {
        let width = browser::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).unwrap_or(1024.0);
        (width.min(620.0) - 36.0) / (game.torus().side() as f64) < 28.0
    }
}

#[cfg(test)]
mod tests {
    use leptos::prelude::*;

    use super::*;
    use crate::i18n::Lang;
    use crate::play::History;

    #[test]
    fn edges_are_named_and_read_back_on_every_size() {
        for n in [3, 8, 12] {
            let torus = Torus::new(n);
            for edge in 0..torus.edge_count() {
                let name = edge_name(torus, edge);
                assert_eq!(parse_edge(torus, &name), Some(edge), "{name}");
                assert_eq!(parse_edge(torus, &name.to_lowercase()), Some(edge));
            }
        }
        let eight = Torus::new(8);
        assert_eq!(edge_name(eight, 0), "H1,1");
        assert_eq!(edge_name(eight, 64 + 8 + 2), "V3,2");
        for bad in ["", "H", "H0,1", "H9,1", "X1,1", "H1", "H1,1,1", "Ha,b"] {
            assert_eq!(parse_edge(eight, bad), None, "{bad}");
        }
    }

    #[test]
    fn typed_actions_and_the_line_that_says_what_happened() {
        let start = Edges::new(Default::default()).unwrap();
        assert_eq!(EdgesUi::parse(&start, "h3,5", None), Some(EdgesMove::place(8 * 4 + 2)));
        assert_eq!(EdgesUi::parse(&start, "V2,1→V2,2", None), Some(EdgesMove::shift(64 + 1, 64 + 9)));
        assert_eq!(EdgesUi::parse(&start, "V2,1 - V2,2", None), Some(EdgesMove::shift(64 + 1, 64 + 9)));
        assert_eq!(EdgesUi::parse(&start, " Pass ", None), Some(EdgesMove::PASS));
        assert_eq!(EdgesUi::parse(&start, "H3,5 H3,6 H3,7", None), None);
        let mv = EdgesMove::shift(64 + 1, 64 + 9);
        assert_eq!(EdgesUi::notation(&start, &mv), "V2,1→V2,2");
        assert_eq!(EdgesUi::parse(&start, &EdgesUi::notation(&start, &mv), None), Some(mv));

        // The rules diagram: black's fifth edge makes the cell 3 black + 1 red, and eats red's edge.
        let diagram = EdgesUi::diagrams().remove(0);
        let history = History::<Edges>::replay(diagram.config, &diagram.moves).unwrap();
        let count = history.len();
        let (before, after) = (history.position(count - 1), history.current());
        assert_eq!(after.owner(4 + 1), Some(Seat::One), "cell (1,1) is black's");
        let i18n = crate::i18n::I18n { lang: RwSignal::new(Lang::En) };
        let said = EdgesUi::describe(i18n, before, diagram.moves.last().unwrap(), after);
        assert_eq!(said, "Black places V2,2; Black eats 1 edge; 1 cell captured; Red's supply +1");
        assert_eq!(EdgesUi::describe(i18n, &start, &EdgesMove::PASS, &start), "Black passes");
        assert_eq!(EdgesUi::score(i18n, after, Seat::One), "1 cell");
    }
}
