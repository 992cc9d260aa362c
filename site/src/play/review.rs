//! The review with the computer: a button under a game, and the panel it opens (its code loaded on
//! demand, as the computer player's channel is). The computer player's worker judges every position
//! (`tabula review`'s answer); the panel draws the first player's chance after every move as a
//! graph (a tap or the arrow keys go to that move), each side's accuracy and biggest mistakes, and
//! shows the move the computer preferred as a ghost on the board.

use std::rc::Rc;

use leptos::prelude::*;
use serde_json::Value;
use tabula_core::annotation::{Annotation, Mark};
use tabula_core::{Game, Seat};

use super::computer::{self, Reply};
use super::{GameUi, History};
use crate::i18n::{tr, use_i18n, I18n};

/// How hard the review searches each position: level 3's budget, a thirtieth of the top level's
/// second a move (docs/AI.md, the review).
const REVIEW_LEVEL: u8 = 3;

/// Each side's mistakes listed.
const SHOWN_MISTAKES: usize = 3;

/// Move `ply` (from 1) as the game writes it, or a move (JSON) in its place.
type Notation = dyn Fn(usize, Option<&Value>) -> String;

/// Shows the replay before move `ply` with a move (JSON) drawn as a ghost.
type ShowBetter = dyn Fn(usize, Option<&Value>);

/// Closes the open panel (unmounts it, stops the worker).
type Closer = Box<dyn FnOnce()>;

/// What the panel needs from its screen, none of it generic over the game: the game as it was
/// when the button was pressed (a move or a takeback since closes the panel, [`close`]).
pub struct ReviewFrame {
    i18n: I18n,
    /// The worker's request about the game ([`computer::request`]).
    request: Value,
    /// Positions to judge: the moves and the start.
    positions: usize,
    /// Move `ply` (from 1) as the game writes it, or, given a move (JSON), that move in its place.
    notation: Rc<Notation>,
    colours: [&'static str; 2],
    step: RwSignal<Option<usize>>,
    /// Shows the replay before move `ply` with the move (JSON) the computer preferred as a ghost.
    show_better: Rc<ShowBetter>,
}

/// The "Review" button and the place of the panel it opens (pressed again, closed); opened at once
/// when `open_now` (a room's game handed over for its review). `better` is the ghost the board
/// shows while the replay stands at `better_at`. All but the button loads with the panel's code: a
/// page's first load carries the button alone.
pub fn review_button<U: GameUi>(
    history: Signal<History<U::G>>,
    step: RwSignal<Option<usize>>,
    better: RwSignal<Option<<U::G as Game>::Move>>,
    better_at: RwSignal<Option<usize>>,
    open_now: bool,
) -> impl IntoView {
    let i18n = use_i18n();
    let toggle = move || {
        let game = history.get_untracked();
        let frame = ReviewFrame {
            i18n,
            request: computer::request(U::SLUG.name(), &game, REVIEW_LEVEL, crate::browser::random_u64(), None),
            positions: game.len() + 1,
            notation: Rc::new(move |ply, instead| {
                let Some(before) = ply.checked_sub(1).filter(|&before| before < game.len()) else {
                    return String::new();
                };
                let mv = match instead {
                    Some(json) => serde_json::from_value(json.clone()).ok(),
                    None => game.moves().get(before).cloned(),
                };
                mv.map(|mv| U::notation(game.position(before), &mv)).unwrap_or_default()
            }),
            colours: [U::colour_id(Seat::One), U::colour_id(Seat::Two)],
            step,
            show_better: Rc::new(move |ply, best| {
                step.set(Some(ply - 1));
                better_at.set(Some(ply - 1));
                better.set(best.and_then(|best| serde_json::from_value(best.clone()).ok()));
            }),
        };
        leptos::task::spawn_local(async move {
            if let Ok(toggle) = panel_code().await {
                toggle(frame);
            }
        });
    };
    // A room's game handed over (none if it did not replay: a fresh game, nothing to review). The
    // panel mounts once its code has loaded: after this screen is in the page.
    if open_now && history.with_untracked(|h| h.len() > 0) {
        toggle();
    }
    view! {
        <button class="button" id="review" disabled=move || history.with(|h| h.len() == 0) on:click=move |_| toggle()>
            {tr("review")}
        </button>
        <div id="review-host"></div>
    }
}

thread_local! {
    /// How to close the open panel (its code's: unmount it, stop the worker), and the number of
    /// positions it reviews.
    static OPEN: std::cell::RefCell<Option<(Closer, usize)>> = const { std::cell::RefCell::new(None) };
    /// The notes of the last review finished, written into the game's records until the game
    /// changes ([`close`]).
    static NOTES: std::cell::RefCell<Vec<Annotation>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Closes the panel, if one is open, and stops its review: the game it reviews has changed.
pub fn close() {
    NOTES.with_borrow_mut(Vec::clear);
    if let Some((close, _)) = OPEN.with_borrow_mut(Option::take) {
        close();
    }
}

/// The review's notes on a game of `moves` moves, one a move; none if it has not been reviewed.
pub fn notes(moves: usize) -> Vec<Annotation> {
    NOTES.with_borrow(|notes| if notes.len() == moves { notes.clone() } else { Vec::new() })
}

#[leptos::wasm_split::wasm_split(review_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
fn panel_code() -> Result<fn(ReviewFrame), leptos::wasm_split::SplitLoaderError> {
    Ok(toggle)
}

/// Opens the panel for `frame`'s game under the button, or closes it if it shows that game.
fn toggle(frame: ReviewFrame) {
    let was_open = OPEN.with_borrow_mut(Option::take);
    let same = was_open.as_ref().is_some_and(|(_, positions)| *positions == frame.positions);
    if let Some((close, _)) = was_open {
        close();
    }
    if same {
        return;
    }
    use wasm_bindgen::JsCast;
    let host = crate::browser::document().and_then(|d| d.get_element_by_id("review-host"));
    let Some(host) = host.and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
    let positions = frame.positions;
    let i18n = frame.i18n;
    let handle = leptos::mount::mount_to(host, move || {
        provide_context(i18n);
        panel(frame)
    });
    let close = Box::new(move || {
        drop(handle);
        computer::stop();
    });
    OPEN.with_borrow_mut(|open| *open = Some((close, positions)));
}

/// A review as the worker answers it.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
struct Reviewed {
    values: Vec<f64>,
    marks: Vec<Option<Mark>>,
    mistakes: Vec<Mistake>,
    accuracy: [f64; 2],
}

#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
struct Mistake {
    ply: usize,
    colour: u8,
    mark: Mark,
    best: Option<Value>,
}

impl Reviewed {
    /// What the game's records write of each move: the chance after it, its mark and, for a
    /// listed mistake, the better move.
    fn notes(&self, notation: &Notation) -> Vec<Annotation> {
        (1..self.values.len())
            .map(|ply| Annotation {
                first_chance: self.values[ply] as f32,
                mark: self.marks.get(ply - 1).copied().flatten(),
                better: self
                    .mistakes
                    .iter()
                    .find(|mistake| mistake.ply == ply)
                    .and_then(|mistake| mistake.best.as_ref())
                    .map(|best| notation(ply, Some(best))),
            })
            .collect()
    }
}

fn panel(frame: ReviewFrame) -> impl IntoView {
    let i18n = use_i18n();
    let judged = RwSignal::new(0usize);
    let reviewed = RwSignal::new(None::<Reviewed>);
    let problem = RwSignal::new(None::<String>);
    let running = RwSignal::new(true);
    let notation = frame.notation.clone();
    computer::review(
        frame.request.clone(),
        move |n| judged.set(n),
        move |reply| {
            running.set(false);
            match reply {
                Reply::Review(value) => match serde_json::from_value::<Reviewed>(value) {
                    Ok(review) => {
                        let notes = review.notes(&*notation);
                        NOTES.with_borrow_mut(|kept| *kept = notes);
                        reviewed.set(Some(review));
                    }
                    Err(error) => problem.set(Some(error.to_string())),
                },
                Reply::Failed(reason) => problem.set(Some(reason)),
                Reply::Move(_) | Reply::Nothing => problem.set(Some("no review".into())),
            }
        },
    );
    let positions = frame.positions;
    let stop = move |_| {
        computer::stop();
        running.set(false);
    };
    let progress = move || {
        running.get().then(|| {
            view! {
                <p class="review-progress" role="status">
                    <progress max=positions value=move || judged.get()></progress>
                    " "
                    {move || i18n.t_with("review-progress", &[("done", judged.get().into()), ("total", positions.into())])}
                    " "
                    <button class="button" id="review-stop" on:click=stop>{tr("review-stop")}</button>
                </p>
            }
        })
    };
    let failed = move || {
        problem.get().map(
            |reason| view! { <p class="message">{i18n.t_with("computer-failed", &[("reason", reason.into())])}</p> },
        )
    };
    let frame = StoredValue::new_local(frame);
    let result = move || reviewed.get().map(|review| frame.with_value(|frame| summary(frame, review)));
    view! {
        <section class="review" id="review-panel" aria-label=tr("review")>
            {progress}
            {failed}
            {result}
        </section>
    }
}

/// The graph, the accuracies and the mistakes of a finished review.
fn summary(frame: &ReviewFrame, review: Reviewed) -> impl IntoView {
    let i18n = use_i18n();
    let step = frame.step;
    let moves = review.values.len().saturating_sub(1);
    let colour = |number: u8| i18n.t(frame.colours[usize::from(number.clamp(1, 2)) - 1]);
    let percent = |chance: f64| (chance * 100.0).round() as i64;
    let chance_of = |colour: u8, value: f64| if colour == 1 { value } else { 1.0 - value };
    let accuracy: Vec<_> = (1..=2u8)
        .map(|number| {
            let text = i18n.t_with(
                "review-accuracy",
                &[
                    ("player", colour(number).into()),
                    ("accuracy", (review.accuracy[usize::from(number) - 1].round() as i64).into()),
                ],
            );
            view! { <li class=format!("score-{number}")>{text}</li> }
        })
        .collect();
    let mistakes: Vec<_> = (1..=2u8)
        .flat_map(|number| review.mistakes.iter().filter(move |m| m.colour == number).take(SHOWN_MISTAKES))
        .map(|mistake| {
            let (ply, number) = (mistake.ply, mistake.colour);
            let before = review.values.get(ply - 1).copied().unwrap_or(0.5);
            let after = review.values.get(ply).copied().unwrap_or(0.5);
            let best = mistake.best.clone();
            let better_text = best.as_ref().map(|best| (frame.notation)(ply, Some(best))).unwrap_or_default();
            let text = i18n.t_with(
                "review-mistake",
                &[
                    ("ply", ply.into()),
                    ("player", colour(number).into()),
                    ("move", (frame.notation)(ply, None).into()),
                    ("mark", i18n.t(&format!("review-mark-{}", mistake.mark.word())).into()),
                    ("before", percent(chance_of(number, before)).into()),
                    ("after", percent(chance_of(number, after)).into()),
                    ("better", better_text.into()),
                ],
            );
            let show_better = frame.show_better.clone();
            let show = move |_| show_better(ply, best.as_ref());
            view! {
                <li><button class=format!("review-mistake mark-{} score-{number}", mistake.mark.word()) on:click=show>{text}</button></li>
            }
        })
        .collect();
    let none = review.mistakes.is_empty().then(|| view! { <li>{tr("review-no-mistakes")}</li> });
    view! {
        {graph(frame, &review)}
        <ul class="review-accuracy">{accuracy}</ul>
        <ol class="review-mistakes">{mistakes}{none}</ol>
        <p class="visually-hidden">{move || i18n.t_with("replay-step", &[("step", step.get().unwrap_or(moves).into()), ("total", moves.into())])}</p>
    }
}

/// The first player's chance after every move, as a line over the game: a tap, or the arrow keys
/// once it has focus, goes to that move; the marked moves stand out as ticks.
fn graph(frame: &ReviewFrame, review: &Reviewed) -> impl IntoView {
    let i18n = use_i18n();
    let step = frame.step;
    let moves = review.values.len().saturating_sub(1);
    // Four units a move across, the chance 0 to 1,000 upwards (whole numbers: the bundles carry no
    // float formatting, `xtask/src/float_formatting.rs`); stretched to the panel's width.
    let x = |index: usize| index * 4;
    let width = x(moves.max(1));
    let points: Vec<String> = review
        .values
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{},{}", x(i), 1000 - (v.clamp(0.0, 1.0) * 1000.0).round() as i64))
        .collect();
    let ticks: Vec<_> = review
        .marks
        .iter()
        .enumerate()
        .filter_map(|(i, mark)| mark.map(|mark| (i + 1, mark.word())))
        .map(|(ply, mark)| {
            let at = x(ply);
            view! { <line class=format!("tick mark-{mark}") x1=at x2=at y1="0" y2="1000" vector-effect="non-scaling-stroke" /> }
        })
        .collect();
    let go_to = move |index: usize| step.set((index < moves).then_some(index));
    let shown = move || step.get().unwrap_or(moves).min(moves);
    let key = move |event: leptos::ev::KeyboardEvent| {
        let now = shown();
        let next = match event.key().as_str() {
            "ArrowLeft" => now.saturating_sub(1),
            "ArrowRight" => (now + 1).min(moves),
            "Home" => 0,
            "End" => moves,
            _ => return,
        };
        event.prevent_default();
        go_to(next);
    };
    let click = move |event: leptos::ev::MouseEvent| {
        let Some(area) = crate::browser::handler_element(&event) else { return };
        let across = f64::from(event.offset_x()) / f64::from(area.client_width().max(1));
        go_to((across * moves as f64).round().clamp(0.0, moves as f64) as usize);
    };
    let colour = i18n.t(frame.colours[0]);
    view! {
        <svg class="review-graph" id="review-graph" viewBox=format!("0 0 {width} 1000") preserveAspectRatio="none"
            role="slider" tabindex="0" aria-valuemin="0" aria-valuemax=moves aria-valuenow=shown
            aria-label=i18n.t_with("review-graph", &[("player", colour.into())])
            on:keydown=key on:click=click>
            <line class="even" x1="0" x2=width y1="500" y2="500" vector-effect="non-scaling-stroke" />
            {ticks}
            <polyline class="chance" points=points.join(" ") vector-effect="non-scaling-stroke" />
            <line class="now" x1=move || x(shown()) x2=move || x(shown()) y1="0" y2="1000" vector-effect="non-scaling-stroke" />
        </svg>
    }
}
