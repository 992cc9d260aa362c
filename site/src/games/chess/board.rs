//! The fairy chess board: up to 12 x 12 square buttons in a labelled group, coordinates, the last
//! move, the king in check, and click-click input: tap one of your pieces, its legal destinations
//! light up, tap one (a promotion asks which piece); or drag the piece there (mouse or touch). Pieces are drawn (`site/static/pieces.svg`),
//! or, a piece without a drawing, a disc with its FEN letter: every piece of every variant shows. The decisions are plain functions, unit-tested natively.

use leptos::prelude::*;
use tabula_core::fairy::{Chess, UciMove};
use tabula_core::{Game, Seat};
use wasm_bindgen::JsCast;

use crate::browser;
use crate::i18n::{tr, use_i18n, I18n};
use crate::play::BoardProps;

/// A piece on the board: its FEN letter (upper case) and colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub letter: char,
    pub seat: Seat,
}

/// The pieces of a FEN's placement, by square (file + rank * files, rank 0 at White's side).
pub fn placement(fen: &str, files: usize, ranks: usize) -> Vec<Option<Piece>> {
    let mut squares = vec![None; files * ranks];
    let rows = fen.split(' ').next().unwrap_or_default().split('/');
    for (row, text) in rows.enumerate().take(ranks) {
        let rank = ranks - 1 - row;
        let (mut file, mut digits) = (0usize, 0usize);
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                digits = digits * 10 + d as usize;
                continue;
            }
            file += std::mem::take(&mut digits);
            if file < files && c.is_ascii_alphabetic() {
                let seat = if c.is_ascii_uppercase() { Seat::One } else { Seat::Two };
                squares[rank * files + file] = Some(Piece { letter: c.to_ascii_uppercase(), seat });
            }
            file += 1;
        }
    }
    squares
}

/// A square's name: `e4`, `j10`.
pub fn square_name(files: usize, square: usize) -> String {
    format!("{}{}", (b'a' + (square % files) as u8) as char, square / files + 1)
}

/// The square at the start of `text` (`e4` of `e4e5`), and how many characters it took.
fn read_square(files: usize, text: &str) -> Option<(usize, usize)> {
    let letter = text.chars().next().filter(char::is_ascii_lowercase)?;
    let file = (letter as u8 - b'a') as usize;
    let digits: String = text[1..].chars().take_while(char::is_ascii_digit).collect();
    let rank: usize = digits.parse().ok()?;
    (file < files && rank >= 1).then(|| (file + (rank - 1) * files, 1 + digits.len()))
}

/// From and to squares of a UCI move, and its promotion letter.
pub fn parse_uci(files: usize, uci: &str) -> Option<(usize, usize, Option<char>)> {
    let (from, used) = read_square(files, uci)?;
    let (to, more) = read_square(files, &uci[used..])?;
    let rest = &uci[used + more..];
    let promotion = rest.chars().next().map(|c| c.to_ascii_uppercase());
    Some((from, to, promotion))
}

/// The legal moves from `from`, by destination: each destination with its moves (several when
/// they promote).
pub fn destinations(legal: &[UciMove], files: usize, from: usize) -> Vec<(usize, Vec<UciMove>)> {
    let mut out: Vec<(usize, Vec<UciMove>)> = Vec::new();
    for mv in legal {
        if let Some((f, to, _)) = parse_uci(files, &mv.0) {
            if f == from {
                match out.iter_mut().find(|(t, _)| *t == to) {
                    Some((_, moves)) => moves.push(mv.clone()),
                    None => out.push((to, vec![mv.clone()])),
                }
            }
        }
    }
    out
}

/// What a tap on `square` means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tap {
    Select(usize),
    Cancel,
    /// A move (or the one the engine will refuse, with its reason).
    Offer(UciMove),
    /// Several moves land there (promotions): the player picks one.
    Choose(Vec<UciMove>),
}

pub fn tap(game: &Chess, acting: Option<Seat>, selected: Option<usize>, square: usize) -> Tap {
    let variant = game.variant();
    let files = variant.files();
    let pieces = placement(&game.fen(), files, variant.ranks());
    let mine = |sq: usize| pieces[sq].is_some_and(|p| Some(p.seat) == acting);
    match selected {
        Some(from) if from == square => Tap::Cancel,
        Some(from) => {
            let to_here = destinations(&game.legal_moves(), files, from).into_iter().find(|(to, _)| *to == square);
            match to_here {
                Some((_, moves)) if moves.len() > 1 => Tap::Choose(moves),
                Some((_, mut moves)) => Tap::Offer(moves.remove(0)),
                // Another of your pieces: select it instead (castling king-takes-rook is a legal
                // move and was found above).
                None if mine(square) => Tap::Select(square),
                None => Tap::Offer(UciMove(format!("{}{}", square_name(files, from), square_name(files, square)))),
            }
        }
        None if mine(square) => Tap::Select(square),
        // Not a piece of yours: offered as a move from nowhere, so the screen says why not.
        None => Tap::Offer(UciMove(square_name(files, square))),
    }
}

/// A piece held by the pointer: its square, where the pointer went down, and whether it has moved
/// far enough to be a drag rather than a tap.
#[derive(Clone, Copy, Debug)]
struct Drag {
    from: usize,
    x: i32,
    y: i32,
    moved: bool,
}

/// Shows the piece on `square` moved by (dx, dy) pixels, or puts it back. The square's style is
/// set directly, not through a signal: it changes at every pointer move. Whole pixels: the bundles
/// carry no float formatting (`xtask/src/float_formatting.rs`).
fn lift(files: usize, square: usize, by: Option<(i32, i32)>) {
    let Some(element) = browser::element_by_id::<web_sys::Element>(&format!("square-{}", square_name(files, square)))
    else {
        return;
    };
    let _ = match by {
        Some((dx, dy)) => element.set_attribute("style", &format!("z-index:2;--dx:{dx}px;--dy:{dy}px")),
        None => element.remove_attribute("style"),
    };
}

/// The board square under a point of the page (`square-e4` ids).
fn square_at(x: i32, y: i32, files: usize) -> Option<usize> {
    let element = browser::document()?.element_from_point(x as f32, y as f32)?;
    let id = element.closest(".sq").ok()??.id();
    read_square(files, id.strip_prefix("square-")?).map(|(square, _)| square)
}

/// Where the piece drawings are (`site/static/pieces.svg`, content-hashed by the build).
const FIGURES: &str = match option_env!("TABULA_PIECES") {
    Some(url) => url,
    None => "/pieces.svg",
};

/// What an `<svg>` holds to show the figure `name`.
pub fn figure_use(name: &str) -> String {
    format!("<use href=\"{FIGURES}#{name}\"/>")
}

/// A piece: its drawing, or its letter in a disc when it has none (a custom piece). Both carry the
/// letter, for tests.
fn piece_view(piece: Piece, figure: &Option<String>) -> AnyView {
    let class = format!("piece side-{}", piece.seat.number());
    let letter = piece.letter.to_string();
    match figure {
        Some(name) => view! {
            <svg class=class + " figure" data-letter=letter viewBox="0 0 45 45" aria-hidden="true"
                inner_html=figure_use(name)></svg>
        }
        .into_any(),
        None => {
            let text = letter.clone();
            view! { <span class=class data-letter=letter aria-hidden="true">{text}</span> }.into_any()
        }
    }
}

fn piece_name(i18n: I18n, piece: Piece) -> String {
    let colour = i18n.t(if piece.seat == Seat::One { "chess-white" } else { "chess-black" });
    format!("{colour} {}", piece.letter)
}

#[component]
pub fn ChessBoard(props: BoardProps<Chess>) -> impl IntoView {
    let i18n = use_i18n();
    let BoardProps { game, last, acting, own_side, ghost, play, diagram, .. } = props;
    let (files, ranks) = game.with_untracked(|g| (g.variant().files(), g.variant().ranks()));
    let selected = RwSignal::new(None::<usize>);
    let choosing = RwSignal::new(Vec::<UciMove>::new());
    Effect::new(move |_| {
        game.track();
        selected.set(None);
        choosing.set(Vec::new());
    });
    // Black sees the board from its side online (also replaying, and after the end); the button
    // turns it.
    let turned = RwSignal::new(false);
    let flipped = Signal::derive(move || turned.get() != (own_side.get() == Some(Seat::Two)));
    let pieces = Memo::new(move |_| game.with(|g| placement(&g.fen(), files, ranks)));
    let targets = Memo::new(move |_| -> Vec<usize> {
        selected
            .get()
            .map(|from| {
                game.with(|g| destinations(&g.legal_moves(), files, from)).into_iter().map(|(t, _)| t).collect()
            })
            .unwrap_or_default()
    });
    let last_squares = Memo::new(move |_| last.get().and_then(|m| parse_uci(files, &m.0)).map(|(f, t, _)| [f, t]));
    let check_square = Memo::new(move |_| {
        game.with(|g| {
            let side = g.status().to_move()?;
            if !g.in_check() {
                return None;
            }
            pieces.with(|p| p.iter().position(|x| x.is_some_and(|x| x.seat == side && g.variant().is_royal(x.letter))))
        })
    });
    // A piece being dragged (mouse or touch), and whether the click that may end a drag is one.
    let drag = StoredValue::new(None::<Drag>);
    let dropped = StoredValue::new(false);
    let figure_of = move |letter: char| game.with_untracked(|g| g.variant().figure(letter).map(str::to_owned));
    let focus = RwSignal::new(files / 2);
    let on_tap = move |square: usize| {
        focus.set(square);
        let intent = game.with_untracked(|g| tap(g, acting.get_untracked(), selected.get_untracked(), square));
        match intent {
            Tap::Select(sq) => selected.set(Some(sq)),
            Tap::Cancel => selected.set(None),
            Tap::Choose(moves) => choosing.set(moves),
            Tap::Offer(mv) => {
                selected.set(None);
                play.run(mv);
            }
        }
    };
    // Drag and drop, in one handler for the four pointer events (one closure is less code).
    let pointer = move |event: web_sys::PointerEvent| {
        // One finger drags; a second one is ignored.
        if !event.is_primary() {
            return;
        }
        let (x, y) = (event.client_x(), event.client_y());
        let kind = event.type_();
        // A drag whose release was missed (the button let go off the board before it moved far
        // enough to capture the pointer) ends at the next move without a button, or the next press.
        if kind == "pointerdown" || (kind == "pointermove" && event.buttons() & 1 == 0) {
            if let Some(old) = drag.get_value().filter(|d| d.moved) {
                lift(files, old.from, None);
            }
            drag.set_value(None);
        }
        if kind == "pointerdown" {
            dropped.set_value(false);
            let mine =
                |sq: usize| pieces.with_untracked(|p| p[sq]).is_some_and(|p| Some(p.seat) == acting.get_untracked());
            let from = square_at(x, y, files).filter(|sq| mine(*sq) && !diagram && event.button() == 0);
            drag.set_value(from.map(|from| Drag { from, x, y, moved: false }));
            return;
        }
        let Some(mut d) = drag.get_value() else { return };
        let (dx, dy) = (x - d.x, y - d.y);
        if kind == "pointermove" {
            if !d.moved && dx.abs() + dy.abs() > 6 {
                d.moved = true;
                drag.set_value(Some(d));
                selected.set(Some(d.from));
                // Later moves and the release come to the board even off it.
                if let Some(board) = event.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                    let _ = board.set_pointer_capture(event.pointer_id());
                }
            }
            if d.moved {
                lift(files, d.from, Some((dx, dy)));
            }
            return;
        }
        // Released or cancelled.
        drag.set_value(None);
        if d.moved {
            lift(files, d.from, None);
            dropped.set_value(true);
            match square_at(x, y, files) {
                Some(to) if to != d.from && kind == "pointerup" => on_tap(to),
                _ => {}
            }
        }
    };
    let prefix = if diagram { "diagram-square" } else { "square" };
    let order = move || {
        let mut squares = Vec::with_capacity(files * ranks);
        for row in 0..ranks {
            for col in 0..files {
                let (file, rank) = if flipped.get() { (files - 1 - col, row) } else { (col, ranks - 1 - row) };
                squares.push(rank * files + file);
            }
        }
        squares
    };
    let square_view = move |square: usize| {
        let (file, rank) = (square % files, square / files);
        let class = move || {
            let mut class = String::from(if (file + rank) % 2 == 0 { "sq dark" } else { "sq light" });
            if let Some(piece) = pieces.with(|p| p[square]) {
                class += &format!(" piece-{}", piece.seat.number());
                // One's own pieces can be dragged: a swipe from them does not scroll the page.
                if !diagram && Some(piece.seat) == acting.get() {
                    class += " mine";
                }
            }
            if selected.get() == Some(square) {
                class += " selected";
            }
            if targets.with(|t| t.contains(&square)) {
                class += " target";
            }
            if last_squares.get().is_some_and(|l| l.contains(&square)) {
                class += " last";
            }
            if check_square.get() == Some(square) {
                class += " check";
            }
            if ghost.with(|g| g.as_ref().and_then(|m| parse_uci(files, &m.0)).is_some_and(|(_, t, _)| t == square)) {
                class += " ghost";
            }
            class
        };
        let label = move || {
            let mut label = square_name(files, square);
            match pieces.with(|p| p[square]) {
                Some(piece) => label += &format!(", {}", piece_name(i18n, piece)),
                None => label += &format!(", {}", i18n.t("chess-empty")),
            }
            if targets.with(|t| t.contains(&square)) {
                label += &format!(", {}", i18n.t("chess-target"));
            }
            label
        };
        view! {
            <button
                id=format!("{prefix}-{}", square_name(files, square))
                class=class
                aria-label=label
                aria-pressed=move || (selected.get() == Some(square)).then_some("true")
                tabindex=move || if !diagram && focus.get() == square { "0" } else { "-1" }
                disabled=diagram
                on:click=move |_| {
                    if !std::mem::take(&mut *dropped.write_value()) {
                        on_tap(square)
                    }
                }
                on:keydown=move |event: web_sys::KeyboardEvent| {
                    // A key's click is a tap, even just after a drag.
                    dropped.set_value(false);
                    let (f, r) = ((square % files) as i32, (square / files) as i32);
                    let turn = if flipped.get_untracked() { -1 } else { 1 };
                    let (f, r) = match event.key().as_str() {
                        "ArrowLeft" => (f - turn, r),
                        "ArrowRight" => (f + turn, r),
                        "ArrowUp" => (f, r + turn),
                        "ArrowDown" => (f, r - turn),
                        "Escape" => {
                            selected.set(None);
                            choosing.set(Vec::new());
                            return;
                        }
                        _ => return,
                    };
                    if (0..files as i32).contains(&f) && (0..ranks as i32).contains(&r) {
                        event.prevent_default();
                        let next = r as usize * files + f as usize;
                        focus.set(next);
                        browser::focus(&format!("square-{}", square_name(files, next)));
                    }
                }
            >
                {move || pieces.with(|p| p[square]).map(|piece| piece_view(piece, &figure_of(piece.letter)))}
            </button>
        }
    };
    let file_letters = move || {
        (0..files)
            .map(|c| {
                let file = if flipped.get() { files - 1 - c } else { c };
                view! { <span class="coord" aria-hidden="true">{((b'a' + file as u8) as char).to_string()}</span> }
            })
            .collect_view()
    };
    let rank_numbers = move || {
        (0..ranks)
            .map(|row| {
                let rank = if flipped.get() { row + 1 } else { ranks - row };
                view! { <span class="coord" aria-hidden="true">{rank.to_string()}</span> }
            })
            .collect_view()
    };
    // The shown position's FEN (also of a step being replayed), to read or copy. Rooms have the
    // button only: the field did not fit their bundle's budget.
    let copy = move |_| browser::copy_text(&game.with_untracked(|g| g.fen()));
    #[cfg(feature = "local-screen")]
    let field = view! { <input id="fen" readonly aria-label="FEN" spellcheck="false" prop:value=move || game.with(|g| g.fen()) on:focus=|_| select_fen() /> };
    #[cfg(not(feature = "local-screen"))]
    let field = ();
    let fen_row = view! {
        <p class="fen-row">
            {field}
            <button class="button small-button" id="copy-fen" on:click=copy>{tr("chess-copy-fen")}</button>
        </p>
    };
    let base = if diagram { "board chess-board diagram-board" } else { "board chess-board" };
    view! {
        <div class="chess-frame" style=format!("--files: {files}; --ranks: {ranks}")>
            <div class="ranks">{rank_numbers}</div>
            <div
                class=base
                on:pointerdown=pointer
                on:pointermove=pointer
                on:pointerup=pointer
                on:pointercancel=pointer
                role="group"
                aria-label=move || i18n.t_with("chess-board-label", &[("files", files.into()), ("ranks", ranks.into())])
            >
                {move || order().into_iter().map(square_view).collect_view()}
            </div>
            <div class="files">{file_letters}</div>
        </div>
        {(!diagram).then(|| view! {
            <Show when=move || choosing.with(|c| !c.is_empty())>
                <div class="promotion actions" role="group" aria-label=tr("chess-promote")>
                    {move || choosing.get().into_iter().map(|mv| {
                        // Where promotion is optional (grand's last three ranks), staying is a choice too.
                        let letter = parse_uci(files, &mv.0).and_then(|(_, _, p)| p);
                        let id = letter.map_or("promote-none".to_owned(), |l| format!("promote-{}", l.to_ascii_lowercase()));
                        let label = move || letter.map_or_else(|| i18n.t("chess-no-promotion"), |l| l.to_string());
                        let chosen = mv.clone();
                        view! {
                            <button class="button" id=id
                                on:click=move |_| {
                                    choosing.set(Vec::new());
                                    selected.set(None);
                                    play.run(chosen.clone());
                                }>{label}</button>
                        }
                    }).collect_view()}
                </div>
            </Show>
            <div class="actions">
                <button class="button small-button" id="flip" on:click=move |_| turned.update(|t| *t = !*t)>{tr("chess-flip")}</button>
            </div>
            {fen_row}
        })}
    }
}

/// Selects the FEN field's text, ready to copy by hand.
#[cfg(feature = "local-screen")]
fn select_fen() {
    if let Some(input) = browser::element_by_id::<web_sys::HtmlInputElement>("fen") {
        input.select();
    }
}

#[cfg(test)]
mod tests {
    use tabula_core::fairy::ChessConfig;

    use super::*;

    fn game(variant: &str, fen: Option<&str>) -> Chess {
        Chess::new(ChessConfig { variant: variant.into(), fen: fen.map(Into::into), ..ChessConfig::default() }).unwrap()
    }

    #[test]
    fn every_figure_the_engine_names_is_drawn_and_every_drawing_is_named() {
        let figures: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(include_str!("../../../../core/data/fairy-figures.json")).unwrap();
        let named: std::collections::BTreeSet<&str> = figures.keys().map(String::as_str).collect();
        let sprite = include_str!("../../../static/pieces.svg");
        let drawn: std::collections::BTreeSet<&str> =
            sprite.split("<symbol id=\"").skip(1).map(|rest| rest.split('"').next().unwrap()).collect();
        assert_eq!(named, drawn);
        assert!(named.len() >= 30, "{named:?}");
        // The drawings use only what the board's CSS colours: no colour of their own.
        assert!(!sprite.contains("fill=\"#") && !sprite.contains("stroke=\"#"));
    }

    #[test]
    fn fens_and_moves_read_on_wide_boards() {
        let big = placement("r10r/12/12/12/12/12/12/12/12/12/12/R10K w - - 0 1", 12, 12);
        assert_eq!(big[0], Some(Piece { letter: 'R', seat: Seat::One }));
        assert_eq!(big[11], Some(Piece { letter: 'K', seat: Seat::One }));
        assert_eq!(big[11 * 12 + 11], Some(Piece { letter: 'R', seat: Seat::Two }));
        assert_eq!(big.iter().flatten().count(), 4);
        assert_eq!(parse_uci(12, "a10a12q"), Some((9 * 12, 11 * 12, Some('Q'))));
        assert_eq!(parse_uci(8, "e2e4"), Some((12, 28, None)));
        assert_eq!(square_name(10, 9 + 7 * 10), "j8");
    }

    #[test]
    fn taps_select_move_choose_a_promotion_or_are_offered_for_refusal() {
        let start = game("capablanca", None);
        let white = Some(Seat::One);
        let e2 = 10 + 4;
        assert_eq!(tap(&start, white, None, e2), Tap::Select(e2));
        assert_eq!(tap(&start, white, Some(e2), e2 + 20), Tap::Offer(UciMove("e2e4".into())));
        assert_eq!(tap(&start, white, Some(e2), e2), Tap::Cancel);
        let Tap::Offer(far) = tap(&start, white, Some(e2), e2 + 40) else { panic!("offered") };
        assert!(start.check(&far).is_err(), "e2e6 is refused by the engine");
        let Tap::Offer(black) = tap(&start, white, None, 60 + 4) else { panic!("offered") };
        assert!(start.check(&black).is_err(), "a black piece is not white's to move");
        // A pawn on the seventh rank: the promotion candidates to choose from.
        let promote = game("chess", Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
        let Tap::Choose(moves) = tap(&promote, white, Some(48), 56) else { panic!("a choice") };
        let mut names: Vec<String> = moves.into_iter().map(|m| m.0).collect();
        names.sort();
        assert_eq!(names, ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
        // Grand: promotion is optional on the ninth rank, so staying a pawn is one of the choices.
        let grand = game("grand", Some("k9/10/P9/10/10/10/10/10/10/9K w - - 0 1"));
        let Tap::Choose(moves) = tap(&grand, white, Some(70), 80) else { panic!("a choice") };
        assert!(moves.contains(&UciMove("a8a9".into())), "{moves:?}");
        assert!(moves.len() > 1, "{moves:?}");
    }
}
