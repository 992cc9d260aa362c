//! Go on the shared game screen: the board (wood, star points, coordinates, last move, ko, dead
//! stones and area while scoring), pass and the scoring phase's buttons, GTP-style notation, the
//! picture, SGF, and the rules diagrams.

mod board;
pub mod sgf;

use leptos::prelude::*;
use tabula_core::go::{Go, GoMove, Vertex, BLACK, EMPTY};
use tabula_core::{Game, Seat};

use crate::browser;
use crate::i18n::{tr, Arg, I18n};
use crate::play::{BoardProps, Diagram, GameUi, Pen, Record};

#[derive(Clone, Copy)]
pub struct GoUi;

/// The phase of a position, as the screen tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Play,
    Scoring,
    /// Over by agreed score: the marking and the area stay on the board.
    Scored,
    /// Over by resignation.
    Resigned,
}

pub fn phase(game: &Go) -> Phase {
    match (game.status().outcome(), game.scoring()) {
        (Some(outcome), _) if outcome.reason == "score" => Phase::Scored,
        (Some(_), _) => Phase::Resigned,
        (None, Some(_)) => Phase::Scoring,
        (None, None) => Phase::Play,
    }
}

/// Black's letter or white's, as SGF and the move list write them.
fn letter(seat: Option<Seat>) -> &'static str {
    match seat {
        Some(Seat::Two) => "W",
        _ => "B",
    }
}

/// A score or komi (always a whole number of half-points) as players write it.
pub fn points(value: f64) -> String {
    crate::catalogue::half_text((value * 2.0).round() as i64)
}

impl GameUi for GoUi {
    type G = Go;
    const CSS: &'static str = include_str!(concat!(env!("OUT_DIR"), "/go.css"));

    fn colour_id(seat: Seat) -> &'static str {
        match seat {
            Seat::One => "go-black",
            Seat::Two => "go-white",
        }
    }

    fn board(props: BoardProps<Go>) -> AnyView {
        view! { <board::GoBoard props=props /> }.into_any()
    }

    fn move_buttons(props: BoardProps<Go>) -> AnyView {
        let phase = Memo::new(move |_| props.game.with(phase));
        let mine = move || props.acting.get();
        // One device accepts or resumes for both colours.
        let colours = move || if props.local { vec![Seat::One, Seat::Two] } else { mine().into_iter().collect() };
        let accepted = move || {
            props.game.with(|g| colours().iter().all(|s| g.scoring().is_some_and(|sc| sc.accepted(s.number()))))
        };
        view! {
            <Show when=move || phase.get() == Phase::Play && mine().is_some()>
                <button class="button" id="pass" on:click=move |_| props.act.run(GoMove::Pass { colour: None })>
                    {tr("go-pass")}
                </button>
            </Show>
            <Show when=move || phase.get() == Phase::Scoring && mine().is_some()>
                <button class="button primary" id="accept-score" disabled=accepted on:click=move |_| {
                    for seat in colours() {
                        props.act.run(GoMove::Accept { colour: Some(seat) });
                    }
                }>{tr("go-accept")}</button>
                <button class="button" id="resume" on:click=move |_| {
                    if let Some(seat) = mine() {
                        props.act.run(GoMove::Resume { colour: Some(seat) });
                    }
                }>{tr("go-resume")}</button>
            </Show>
        }
        .into_any()
    }

    fn score(i18n: I18n, game: &Go, seat: Seat) -> String {
        match phase(game) {
            Phase::Scoring | Phase::Scored => {
                let score = game.final_score().unwrap_or_else(|| game.marked_score());
                let value = if seat == Seat::One { score.black } else { score.white };
                i18n.t_with("go-area", &[("points", points(value).into())])
            }
            Phase::Play | Phase::Resigned => {
                i18n.t_with("go-captures", &[("count", game.board().captures(seat.number()).into())])
            }
        }
    }

    fn detail(i18n: I18n, game: &Go) -> Option<String> {
        let komi = i18n.t_with("go-komi", &[("komi", points(game.config().komi).into())]);
        match phase(game) {
            Phase::Scoring => {
                let accepted: Vec<String> = Seat::ALL
                    .into_iter()
                    .filter(|s| game.scoring().is_some_and(|sc| sc.accepted(s.number())))
                    .map(|s| i18n.t_with("go-has-accepted", &[("player", i18n.t(Self::colour_id(s)).into())]))
                    .collect();
                Some([vec![i18n.t("go-scoring")], accepted].concat().join(" · "))
            }
            _ => Some(komi),
        }
    }

    fn reason(i18n: I18n, game: &Go, reason: &str) -> String {
        match (reason, game.final_score()) {
            ("score", Some(score)) => {
                i18n.t_with("go-by-points", &[("points", points((score.black - score.white).abs()).into())])
            }
            ("resign", _) => i18n.t("reason-resigned"),
            _ => i18n.t(&format!("reason-{reason}")),
        }
    }

    fn notation(before: &Go, mv: &GoMove) -> String {
        let who = letter(before.mover(mv));
        match mv {
            GoMove::Play { at, .. } => format!("{who} {at}"),
            GoMove::Pass { .. } => format!("{who} pass"),
            GoMove::Resign { .. } => format!("{who} resigns"),
            GoMove::Toggle { at, .. } => format!("{who} ✕{at}"),
            GoMove::Accept { .. } => format!("{who} ✓"),
            GoMove::Resume { .. } => format!("{who} ↺"),
        }
    }

    fn describe(i18n: I18n, before: &Go, mv: &GoMove, after: &Go) -> String {
        let player = i18n.t(Self::colour_id(before.mover(mv).unwrap_or(Seat::One)));
        let player = || Arg::from(player.clone());
        match mv {
            GoMove::Play { at, .. } => {
                let mut said = i18n.t_with("move-said", &[("player", player()), ("move", at.to_string().into())]);
                let colour = before.mover(mv).unwrap_or(Seat::One).number();
                let taken = after.board().captures(colour) - before.board().captures(colour);
                if taken > 0 {
                    said += &format!(", {}", i18n.t_with("go-said-captures", &[("count", taken.into())]));
                }
                said
            }
            GoMove::Pass { .. } => i18n.t_with("go-said-pass", &[("player", player())]),
            GoMove::Resign { .. } => i18n.t_with("go-said-resign", &[("player", player())]),
            GoMove::Toggle { at, .. } => {
                i18n.t_with("go-said-mark", &[("player", player()), ("at", at.to_string().into())])
            }
            GoMove::Accept { .. } => i18n.t_with("go-said-accept", &[("player", player())]),
            GoMove::Resume { .. } => i18n.t_with("go-said-resume", &[("player", player())]),
        }
    }

    /// A point ("D4", any case), or "pass"; while scoring, a point marks its group.
    fn parse(game: &Go, text: &str, acting: Option<Seat>) -> Option<GoMove> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Some(GoMove::Pass { colour: None });
        }
        let at: Vertex = text.parse().ok()?;
        let point = game.point_of(at)?;
        Some(match phase(game) {
            Phase::Scoring if game.board().colour(point) != EMPTY => GoMove::Toggle { at, colour: acting },
            _ => GoMove::Play { at, colour: None },
        })
    }

    fn draw(pen: &impl Pen, game: &Go) {
        let size = game.config().size;
        let step = pen.size() / (size as f64 + 1.0);
        let at = |i: usize| step * (i as f64 + 1.0);
        pen.rect(0.0, 0.0, pen.size(), pen.size(), "#dcb35c");
        for i in 0..size {
            pen.line((at(0), at(i)), (at(size - 1), at(i)), "#3b2a14", 1.5);
            pen.line((at(i), at(0)), (at(i), at(size - 1)), "#3b2a14", 1.5);
        }
        for (row, col) in board::star_points(size) {
            pen.disc(at(col), at(row), step * 0.1, "#3b2a14");
        }
        let board = game.board();
        for point in board.points() {
            let (row, col) = board.coords(point);
            let colour = board.colour(point);
            if colour != EMPTY {
                let fill = if colour == BLACK { "#111" } else { "#f4f4f4" };
                pen.disc(at(col), at(row), step * 0.47, fill);
                pen.ring(at(col), at(row), step * 0.47, "#111", 1.0);
                if game.is_dead(point) {
                    pen.line(
                        (at(col) - step / 4.0, at(row) - step / 4.0),
                        (at(col) + step / 4.0, at(row) + step / 4.0),
                        "#d33",
                        2.0,
                    );
                }
            }
        }
    }

    fn records(record: Record<Go>) -> AnyView {
        view! { <sgf::SgfButtons record=record /> }.into_any()
    }

    fn diagrams() -> Vec<Diagram<Go>> {
        let play = |at: &str| GoMove::Play { at: at.parse::<Vertex>().expect("a vertex"), colour: None };
        let config = serde_json::json!({"size": 7});
        vec![
            Diagram {
                caption: "go-diagram-capture",
                moves: ["D4", "D5", "C5", "E4", "E5", "D3", "D6"].map(play).to_vec(),
                config: config.clone(),
            },
            Diagram {
                caption: "go-diagram-ko",
                moves: ["C4", "D4", "D5", "E5", "D3", "E3", "G7", "F4", "E4"].map(play).to_vec(),
                config,
            },
        ]
    }

    /// Points under 28 px are easy to mis-tap: ask for a confirmation there.
    fn small_points(game: &Go) -> bool {
        let width = browser::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).unwrap_or(1024.0);
        let board = width.min(600.0) - 48.0;
        board / (game.config().size as f64 + 1.0) < 28.0
    }

    /// A 9x9 board: its stones are big enough to read at the home's size.
    fn picture_config() -> serde_json::Value {
        serde_json::json!({ "size": 9 })
    }

    fn picture_moves() -> usize {
        40
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::play::History;

    fn game(moves: &[GoMove]) -> Go {
        History::<Go>::replay(json!({"size": 5, "komi": 0.5}), moves).unwrap().current().clone()
    }

    #[test]
    fn the_phase_follows_passes_and_acceptances() {
        let pass = GoMove::Pass { colour: None };
        let accept = |seat| GoMove::Accept { colour: Some(seat) };
        let black = GoMove::Play { at: "C3".parse().unwrap(), colour: None };
        assert_eq!(phase(&game(&[black])), Phase::Play);
        assert_eq!(phase(&game(&[black, pass, pass])), Phase::Scoring);
        assert_eq!(phase(&game(&[black, pass, pass, accept(Seat::One), accept(Seat::Two)])), Phase::Scored);
        assert_eq!(phase(&game(&[black, GoMove::Resign { colour: Some(Seat::Two) }])), Phase::Resigned);
    }

    #[test]
    fn typed_moves_and_spoken_moves() {
        let start = game(&[]);
        assert_eq!(GoUi::parse(&start, "c3", None), Some(GoMove::Play { at: "C3".parse().unwrap(), colour: None }));
        assert_eq!(GoUi::parse(&start, " PASS ", None), Some(GoMove::Pass { colour: None }));
        for bad in ["", "I3", "F1", "A6", "C", "play"] {
            assert_eq!(GoUi::parse(&start, bad, None), None, "{bad} on a 5x5 board");
        }
        let i18n = crate::i18n::I18n { lang: leptos::prelude::RwSignal::new(crate::i18n::Lang::En) };
        let play = |at: &str| GoMove::Play { at: at.parse().unwrap(), colour: None };
        // White's C3 is surrounded: black's C4 takes it.
        let moves = ["B3", "C3", "D3", "A1", "C2", "A2", "C4"].map(play);
        let before = game(&moves[..6]);
        let mut after = before.clone();
        after.play(&moves[6]).unwrap();
        assert_eq!(GoUi::describe(i18n, &before, &moves[6], &after), "Black plays C4, captures 1");
        assert_eq!(GoUi::describe(i18n, &after, &GoMove::Pass { colour: None }, &after), "White passes");
    }

    #[test]
    fn the_rules_diagrams_show_what_they_say() {
        for diagram in GoUi::diagrams() {
            let history = History::<Go>::replay(diagram.config, &diagram.moves).unwrap();
            let end = history.current();
            match diagram.caption {
                // White's D5 stone is taken by the last move.
                "go-diagram-capture" => assert_eq!(end.board().captures(1), 1),
                // Black just took a single stone: White may not retake at once.
                "go-diagram-ko" => {
                    let retake = GoMove::Play { at: "D4".parse().unwrap(), colour: None };
                    assert_eq!(end.check(&retake).map_err(|e| tabula_core::Rejection::code(&e)), Err("ko"));
                }
                other => panic!("unexpected diagram {other}"),
            }
        }
    }
}
