//! The chosen variant explained on the chess page, under the options: its name and board size, what
//! it is (`chess-variant-<name>` in the locale files), its start position, and each of its pieces
//! with a picture of where it goes from the middle of the board, drawn from its move tree
//! (`tabula_core::fairy::reach`), so a new variant needs no hand-made picture. The card is one
//! piece of HTML written here: as views, its many small pictures cost four times the bytes.

use leptos::prelude::*;
use tabula_core::fairy::reach::{CAPTURE, HOP, MOVE, SOMETIMES};
use tabula_core::fairy::{Chess, Variant};
use tabula_core::Game;

use super::board::{figure_use, placement};
use super::{custom, ChessUi};
use crate::api::ApiError;
use crate::browser::escape_html;
use crate::i18n::{has, tr, use_i18n, I18n};
use crate::play::GameUi;
use gloo_timers::future::TimeoutFuture;
use leptos::task::spawn_local;

/// The classes of a square of a piece's picture.
pub fn reach_class(mark: u8) -> &'static str {
    match (mark & (MOVE | CAPTURE), mark & HOP != 0, mark & SOMETIMES != 0) {
        (0, _, _) => "",
        (MOVE, false, false) => "to-move",
        (CAPTURE, false, false) => "to-capture",
        (_, false, false) => "to-move to-capture",
        (_, true, _) => "to-hop",
        (_, false, true) => "to-sometimes",
    }
}

/// The pieces of a start position, White's letters in the order they first stand (a8 to h1).
pub fn start_letters(fen: &str) -> Vec<char> {
    let mut letters = Vec::new();
    for c in fen.split(' ').next().unwrap_or_default().chars().filter(char::is_ascii_alphabetic) {
        let letter = c.to_ascii_uppercase();
        if !letters.contains(&letter) {
            letters.push(letter);
        }
    }
    letters
}

/// The pieces the card explains: those of the start position, then promotion candidates that
/// stand nowhere at the start (menagerie's short bishop).
pub fn explained_letters(variant: &Variant, fen: &str) -> Vec<char> {
    let mut letters = start_letters(fen);
    for letter in variant.promotion_letters() {
        if !letters.contains(&letter) {
            letters.push(letter);
        }
    }
    letters
}

/// A piece in a picture: its figure, or its letter in a disc.
fn piece_html(variant: &Variant, letter: char, side: u8) -> String {
    match variant.figure(letter) {
        Some(name) => {
            format!("<svg class=\"piece figure side-{side}\" viewBox=\"0 0 45 45\">{}</svg>", figure_use(name))
        }
        None => format!("<span class=\"piece side-{side}\">{letter}</span>"),
    }
}

/// A small board, top rank first: each square's classes and content.
fn grid_html(variant: &Variant, square: impl Fn(usize) -> (&'static str, String)) -> String {
    let files = variant.files();
    let mut html = format!("<div class=\"reach\" style=\"--files: {files}\" aria-hidden=\"true\">");
    for rank in (0..variant.ranks()).rev() {
        for file in 0..files {
            let colour = if (file + rank) % 2 == 0 { "dark" } else { "light" };
            let (class, content) = square(rank * files + file);
            html += &format!("<span class=\"{colour} {class}\">{content}</span>");
        }
    }
    html + "</div>"
}

/// The card of `game`'s variant: a built-in's words come from the locale files, a custom one's
/// (`custom`) from its definition.
fn card_html(i18n: I18n, game: &Chess, custom: Option<String>) -> String {
    let variant = game.variant();
    let name = variant.name.as_str();
    let words = |id: &str| if has(id) { escape_html(&i18n.t(id)) } else { String::new() };
    let description = match custom {
        Some(description) => escape_html(&description),
        None => words(&format!("chess-variant-{name}")),
    };
    let (files, ranks) = (variant.files(), variant.ranks());
    let mut html = format!("<h2>{} · {files} × {ranks}</h2><p>{description}</p>", escape_html(name));
    let start = placement(&game.fen(), files, ranks);
    html += &grid_html(variant, |sq| {
        ("", start[sq].map(|p| piece_html(variant, p.letter, p.seat.number())).unwrap_or_default())
    })
    .replacen("reach", "reach start", 1);
    html += &format!("<h3>{}</h3><ul class=\"piece-moves\">", words("chess-variant-pieces"));
    for letter in explained_letters(variant, &game.fen()) {
        let Some(reach) = variant.reach(letter) else { continue };
        let piece_name = variant.figure(letter).map(|f| words(&format!("chess-piece-{f}"))).unwrap_or_default();
        let grid = grid_html(variant, |sq| {
            let piece = if sq == reach.origin { piece_html(variant, letter, 1) } else { String::new() };
            (reach_class(reach.marks[sq]), piece)
        });
        html += &format!("<li>{grid}<span>{piece_name} ({letter})</span></li>");
    }
    html += "</ul><ul class=\"reach-legend\">";
    for id in ["move", "capture", "hop", "sometimes"] {
        html += &format!("<li><span class=\"light to-{id}\"></span>{}</li>", words(&format!("chess-reach-{id}")));
    }
    html + "</ul>"
}

/// The definition of a custom variant, to write or paste, or to begin from a built-in one (the
/// standard one until the player has written anything).
fn editor_view() -> impl IntoView {
    let i18n = use_i18n();
    let editor = custom::editor();
    if editor.text.with_untracked(String::is_empty) {
        let editor = editor.clone();
        spawn_local(async move {
            let written = custom::editor_code().await.ok().and_then(|code| (code.starting_point)("chess"));
            // Not over what the player wrote while the code was on its way.
            if let Some(written) = written.filter(|_| editor.text.with_untracked(String::is_empty)) {
                editor.set_text(written);
            }
        });
    }
    let (text, start_editor, input_editor) = (editor.text.clone(), editor.clone(), editor);
    let start_from = move |event| {
        let (name, editor) = (event_target_value(&event), start_editor.clone());
        spawn_local(async move {
            match custom::editor_code().await {
                Ok(code) => {
                    if let Some(written) = (code.starting_point)(&name) {
                        editor.set_text(written);
                    }
                }
                Err(_) => editor.set_checked(editor.text.get_untracked(), Err(i18n.t("code-unavailable"))),
            }
        });
    };
    let names = Variant::builtin().keys().map(|name| view! { <option value=name.clone()>{name.clone()}</option> });
    view! {
        <div class="variant-editor">
            <label for="chess-start-from">{tr("chess-custom-start-from")}</label>
            <select id="chess-start-from" on:change=start_from>
                <option value="" selected>"…"</option>
                {names.collect_view()}
            </select>
            <label for="chess-definition">{tr("chess-custom-definition")}</label>
            <textarea id="chess-definition" rows="14" spellcheck="false" autocapitalize="off" autocomplete="off"
                prop:value=move || text.get() on:input=move |event| input_editor.set_text(event_target_value(&event))></textarea>
            <p class="hint">{tr("chess-custom-help")}</p>
        </div>
    }
}

/// Has the server check the definition being written, half a second after the last change.
fn check_as_written(i18n: I18n, custom: Memo<bool>) {
    let editor = custom::editor();
    Effect::new(move |_| {
        let text = editor.text.get();
        if !custom.get() || editor.checked.with_untracked(|c| c.as_ref().is_some_and(|(t, _)| *t == text)) {
            return;
        }
        let editor = editor.clone();
        spawn_local(async move {
            TimeoutFuture::new(500).await;
            if editor.text.with_untracked(|now| *now != text) {
                return; // written on since: that text is checked instead
            }
            let answer = match (custom::to_check(&text), custom::editor_code().await) {
                (Err(reason), _) => Err(reason),
                (Ok(_), Err(_)) => Err(i18n.t("code-unavailable")),
                (Ok(config), Ok(code)) => (code.check)(config).await.map_err(|error| match error {
                    ApiError::Refused { message, .. } => message,
                    ApiError::Network(_) => i18n.t("connection-lost"),
                }),
            };
            editor.set_checked(text, answer);
        });
    });
}

/// The card of the variant `config` chooses; for a custom one, its editor above it (the card shows
/// the variant as the server compiled it; the page says why when it refused it).
pub fn variant_card(config: Signal<serde_json::Value>) -> impl IntoView {
    let i18n = use_i18n();
    let custom = Memo::new(move |_| config.with(|c| c["variant"] == custom::CUSTOM));
    check_as_written(i18n, custom);
    let html = Memo::new(move |_| {
        let completed = ChessUi::complete_config(config.get()).ok()?;
        let game = Chess::new(Chess::config_from_json(&completed).ok()?).ok()?;
        // The page reads no definitions: a custom variant's description comes from the text.
        let description = custom.get().then(|| {
            let definition = custom::editor().text.with(|text| serde_json::from_str::<serde_json::Value>(text).ok());
            definition.and_then(|d| d["description"].as_str().map(str::to_owned)).unwrap_or_default()
        });
        Some(card_html(i18n, &game, description))
    });
    view! {
        {move || custom.get().then(editor_view)}
        <section class="variant-card" id="variant-card" inner_html=move || html.get().unwrap_or_default()></section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_position_lists_each_piece_once_and_marks_read_as_classes() {
        let capablanca = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
        assert_eq!(start_letters(capablanca), ['R', 'N', 'A', 'B', 'Q', 'K', 'C', 'P']);
        assert_eq!(reach_class(0), "");
        assert_eq!(reach_class(MOVE), "to-move");
        assert_eq!(reach_class(CAPTURE), "to-capture");
        assert_eq!(reach_class(MOVE | CAPTURE), "to-move to-capture");
        assert_eq!(reach_class(MOVE | CAPTURE | HOP), "to-hop");
        assert_eq!(reach_class(MOVE | SOMETIMES), "to-sometimes");
    }

    #[test]
    fn promotion_candidates_absent_at_the_start_are_explained_too() {
        let menagerie = &Variant::builtin()["menagerie"];
        let letters = explained_letters(menagerie, menagerie.start.as_deref().unwrap());
        assert_eq!(letters.last(), Some(&'X'), "{letters:?}");
        let chess = &Variant::builtin()["chess"];
        assert_eq!(explained_letters(chess, chess.start.as_deref().unwrap()), ['R', 'N', 'B', 'Q', 'K', 'P']);
    }

    #[test]
    fn every_built_in_variant_has_its_words_and_every_figure_its_name() {
        for name in Variant::builtin().keys() {
            assert!(has(&format!("chess-variant-{name}")), "{name}");
        }
        for variant in Variant::builtin().values() {
            for letter in explained_letters(variant, variant.start.as_deref().unwrap()) {
                let figure = variant.figure(letter).unwrap();
                assert!(has(&format!("chess-piece-{figure}")), "{figure}");
            }
        }
    }
}
