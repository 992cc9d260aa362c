//! The fairy chess board: up to 12 x 12 square buttons in a labelled group, coordinates, the last
//! move, the king in check, and click-click input: tap one of your pieces, its legal destinations
//! light up, tap one (a promotion asks which piece); or drag the piece there (mouse or touch). Pieces are drawn (`site/static/pieces.svg`),
//! or, a piece without a drawing, a disc with its FEN letter: every piece of every variant shows. The decisions are plain functions, unit-tested natively.

use leptos::prelude::*;
use tabula_core::fairy::{Chess, UciMove};
use tabula_core::{Game, Seat};

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
    square_in(browser::document()?.element_from_point(x as f32, y as f32)?, files)
}

/// The board square `element` is, or is in.
fn square_in(element: web_sys::Element, files: usize) -> Option<usize> {
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

/// A piece's HTML: its drawing, or its letter in a disc when it has none (a custom piece). Both
/// carry the letter, for tests.
fn piece_html(piece: Piece, figure: Option<&str>) -> String {
    let (seat, letter) = (piece.seat.number(), piece.letter);
    match figure {
        Some(name) => format!(
            "<svg class=\"piece side-{seat} figure\" data-letter=\"{letter}\" viewBox=\"0 0 45 45\" aria-hidden=\"true\">{}</svg>",
            figure_use(&browser::escape_html(name))
        ),
        None => format!("<span class=\"piece side-{seat}\" data-letter=\"{letter}\" aria-hidden=\"true\">{letter}</span>"),
    }
}

/// The id of the promotion chooser's button for `mv`: `promote-q`, or `promote-none` for staying.
fn promotion_id(files: usize, mv: &UciMove) -> String {
    match parse_uci(files, &mv.0).and_then(|(_, _, p)| p) {
        Some(letter) => format!("promote-{}", letter.to_ascii_lowercase()),
        None => "promote-none".to_owned(),
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
    // What the squares show, worked out when they are written (no memo each: fewer bytes).
    let pieces = move || game.with(|g| placement(&g.fen(), files, ranks));
    let targets = move |selected: Option<usize>| -> Vec<usize> {
        let Some(from) = selected else { return Vec::new() };
        game.with(|g| destinations(&g.legal_moves(), files, from)).into_iter().map(|(t, _)| t).collect()
    };
    let check_square = move |pieces: &[Option<Piece>]| {
        game.with(|g| {
            let side = g.status().to_move().filter(|_| g.in_check())?;
            pieces.iter().position(|x| x.is_some_and(|x| x.seat == side && g.variant().is_royal(x.letter)))
        })
    };
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
            let mine = |sq: usize| untrack(pieces)[sq].is_some_and(|p| Some(p.seat) == acting.get_untracked());
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
                if let Some(board) = browser::handler_element(&event) {
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
    // The squares as one piece of HTML, written again whenever anything on them changes: a view
    // per square with five reactive attributes cost the chess bundles 3.7 to 3.9 KB more gzipped
    // (docs/PERFORMANCE.md). The board reads clicks and keys from the square they reach.
    let squares_html = move || {
        let (flipped, selected, focus, acting) = (flipped.get(), selected.get(), focus.get(), acting.get());
        let pieces = pieces();
        let (check, targets) = (check_square(&pieces), targets(selected));
        let last = last.get().and_then(|m| parse_uci(files, &m.0)).map(|(from, to, _)| [from, to]);
        let ghost = ghost.with(|g| g.as_ref().and_then(|m| parse_uci(files, &m.0)).map(|(_, to, _)| to));
        let mut html = String::new();
        for row in 0..ranks {
            for col in 0..files {
                let (file, rank) = if flipped { (files - 1 - col, row) } else { (col, ranks - 1 - row) };
                let square = rank * files + file;
                let name = square_name(files, square);
                let mut class = String::from(if (file + rank) % 2 == 0 { "sq dark" } else { "sq light" });
                let mut label = name.clone();
                let mut figure = String::new();
                match pieces[square] {
                    Some(piece) => {
                        class += &format!(" piece-{}", piece.seat.number());
                        // One's own pieces can be dragged: a swipe from them does not scroll the page.
                        if !diagram && Some(piece.seat) == acting {
                            class += " mine";
                        }
                        label += &format!(", {}", piece_name(i18n, piece));
                        figure = piece_html(piece, figure_of(piece.letter).as_deref());
                    }
                    None => label += &format!(", {}", i18n.t("chess-empty")),
                }
                let is_selected = selected == Some(square);
                let marks = [
                    (is_selected, " selected"),
                    (targets.contains(&square), " target"),
                    (last.is_some_and(|l| l.contains(&square)), " last"),
                    (check == Some(square), " check"),
                    (ghost == Some(square), " ghost"),
                ];
                for (_, mark) in marks.iter().filter(|(on, _)| *on) {
                    class += mark;
                }
                if targets.contains(&square) {
                    label += &format!(", {}", i18n.t("chess-target"));
                }
                let pressed = if is_selected { " aria-pressed=\"true\"" } else { "" };
                let tabindex = if !diagram && focus == square { 0 } else { -1 };
                let disabled = if diagram { " disabled" } else { "" };
                html += &format!(
                    "<button id=\"{prefix}-{name}\" class=\"{class}\" aria-label=\"{}\"{pressed} tabindex=\"{tabindex}\"{disabled}>{figure}</button>",
                    browser::escape_html(&label)
                );
            }
        }
        // A keyboard player's focus moves to the new square.
        if !diagram {
            browser::keep_focus("square-", Some(format!("square-{}", square_name(files, focus))));
        }
        html
    };
    let on_key = move |event: web_sys::KeyboardEvent| {
        let Some(square) = browser::event_element(&event).and_then(|e| square_in(e, files)) else {
            return;
        };
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
            // The squares are written again with the new one focusable, and it takes the focus.
            focus.set(r as usize * files + f as usize);
        }
    };
    let on_click = move |event: web_sys::MouseEvent| {
        let dragged = std::mem::take(&mut *dropped.write_value());
        let square = browser::event_element(&event).and_then(|e| square_in(e, files));
        if let Some(square) = square.filter(|_| !dragged && !diagram) {
            on_tap(square);
        }
    };
    // The promotion's choices (where promotion is optional, grand's last three ranks, staying is
    // one), as HTML: a click is read from its button's id.
    let promotions = move || {
        let button = |mv: &UciMove| {
            let letter = parse_uci(files, &mv.0).and_then(|(_, _, p)| p);
            let label = letter.map_or_else(|| i18n.t("chess-no-promotion"), |l| l.to_string());
            format!(
                "<button class=\"button\" id=\"{}\">{}</button>",
                promotion_id(files, mv),
                browser::escape_html(&label)
            )
        };
        choosing.with(|moves| moves.iter().map(button).collect::<String>())
    };
    let on_promote = move |event: web_sys::MouseEvent| {
        let id = browser::event_element(&event).map(|button| button.id());
        let chosen =
            choosing.with_untracked(|moves| moves.iter().find(|mv| id == Some(promotion_id(files, mv))).cloned());
        if let Some(chosen) = chosen {
            choosing.set(Vec::new());
            selected.set(None);
            play.run(chosen);
        }
    };
    let coordinates = move |count: usize, name: fn(usize, usize) -> String| {
        let flipped = flipped.get();
        (0..count)
            .map(|i| {
                format!(
                    "<span class=\"coord\" aria-hidden=\"true\">{}</span>",
                    name(count, if flipped { count - 1 - i } else { i })
                )
            })
            .collect::<String>()
    };
    let file_letters = move || coordinates(files, |_, file| ((b'a' + file as u8) as char).to_string());
    let rank_numbers = move || coordinates(ranks, |count, row| (count - row).to_string());
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
            <div class="ranks" inner_html=rank_numbers></div>
            <div
                class=base
                on:pointerdown=pointer
                on:pointermove=pointer
                on:pointerup=pointer
                on:pointercancel=pointer
                on:click=on_click
                on:keydown=on_key
                role="group"
                aria-label=move || i18n.t_with("chess-board-label", &[("files", files.into()), ("ranks", ranks.into())])
                inner_html=squares_html
            ></div>
            <div class="files" inner_html=file_letters></div>
        </div>
        {(!diagram).then(|| view! {
            <div class="promotion actions" role="group" aria-label=tr("chess-promote")
                inner_html=promotions on:click=on_promote></div>
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
