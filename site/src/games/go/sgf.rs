//! SGF in the Go screen: "Download SGF" for any game (a room's from the server, `format=sgf`) and
//! "Open SGF" to replay or continue a file as a local game. The format is `tabula_core::go::sgf`;
//! this turns its refusals into the reader's words.

use leptos::prelude::*;
use tabula_core::go::Go;

use crate::i18n::tr;
use crate::play::{record_buttons, Record};
#[cfg(feature = "local-screen")]
use {
    crate::browser,
    crate::i18n::{use_i18n, Arg, I18n},
    crate::play::{download_record, refusal_message, History, RecordWriter},
    tabula_core::annotation::Annotation,
    tabula_core::go::sgf::{Record as SgfRecord, SgfError},
    tabula_core::go::GoMove,
    tabula_core::{Game, Seat},
};

/// The game as SGF ([`SgfRecord::of_game`]) with its review's notes, if any: a local game's; a
/// room's the server writes.
#[cfg(feature = "local-screen")]
pub fn export(
    history: &History<Go>,
    names: &[Option<String>; 2],
    result: Option<&(u8, String)>,
    notes: &[Annotation],
) -> String {
    let result = result.map(|(winner, reason)| (Seat::from_number(*winner), reason.as_str()));
    let config = history.position(0).config().clone();
    let record = SgfRecord::of_game(config, history.moves(), names.clone(), result);
    // The record keeps plays and passes only (no scoring marks): so do its notes.
    let notes: Vec<Annotation> = history
        .moves()
        .iter()
        .zip(notes)
        .filter(|(mv, _)| matches!(mv, GoMove::Play { .. } | GoMove::Pass { .. }))
        .map(|(_, note)| note.clone())
        .collect();
    // A history replays by construction; the fallback never shows.
    record.and_then(|record| record.to_sgf_annotated(&notes)).unwrap_or_default()
}

/// A local game from an SGF file.
#[cfg(feature = "local-screen")]
pub fn import(text: &str) -> Result<History<Go>, SgfError> {
    let record = SgfRecord::from_sgf(text)?;
    let config = serde_json::to_value(&record.config).unwrap_or_default();
    History::replay(config, &record.moves).map_err(SgfError::Config)
}

/// The SGF reader and writer, loaded when a file is opened or saved: a module of its own (see
/// `browser::OnDemand`), no part of the local game's first load.
#[cfg(feature = "local-screen")]
#[leptos::wasm_split::wasm_split(go_sgf, wasm_split_path = ::leptos::wasm_split, fallible)]
fn sgf_code() -> Result<SgfCode, leptos::wasm_split::SplitLoaderError> {
    Ok(SgfCode { import, export })
}

/// [`import`] and [`export`], as the module loaded on demand hands them back.
#[cfg(feature = "local-screen")]
#[derive(Clone, Copy)]
struct SgfCode {
    import: fn(&str) -> Result<History<Go>, SgfError>,
    export: RecordWriter<Go>,
}

/// What is wrong with a file, in the reader's words.
#[cfg(feature = "local-screen")]
fn refusal(i18n: I18n, error: &SgfError) -> String {
    let args: Vec<(&str, Arg)> = match error {
        SgfError::Malformed { at, what } => vec![("detail", format!("{what}, byte {at}").into())],
        SgfError::NotGo(game) => vec![("game", game.as_str().into())],
        SgfError::Size(size) => vec![("size", size.as_str().into())],
        SgfError::Value { property, value } => vec![("detail", format!("{property}[{value}]").into())],
        SgfError::Config(reason) => vec![("reason", reason.as_str().into())],
        SgfError::Illegal { number, at, code } => vec![
            ("number", (*number).into()),
            ("move", at.as_str().into()),
            (
                "reason",
                i18n.t(&refusal_message(crate::catalogue::Slug::Played(tabula_core::GameKind::Go), code)).into(),
            ),
        ],
        SgfError::Empty | SgfError::Setup => Vec::new(),
    };
    let id = match error {
        SgfError::Malformed { .. } | SgfError::Value { .. } => "sgf-malformed",
        SgfError::Empty => "sgf-empty",
        SgfError::NotGo(_) => "sgf-not-go",
        SgfError::Size(_) => "sgf-size",
        SgfError::Setup => "sgf-setup",
        SgfError::Config(_) => "sgf-options",
        SgfError::Illegal { .. } => "sgf-illegal",
    };
    i18n.t_with(id, &args)
}

/// "Download SGF", and in a local game "Open SGF" beside it.
#[component]
pub fn SgfButtons(record: Record<Go>) -> impl IntoView {
    #[cfg(feature = "local-screen")]
    let local = move |load| loaders(record, load);
    #[cfg(not(feature = "local-screen"))]
    let local = |_| ();
    record_buttons(record, "sgf", "sgf-download", local)
}

#[cfg(feature = "local-screen")]
fn loaders(record: Record<Go>, load: Callback<History<Go>>) -> impl IntoView {
    let i18n = use_i18n();
    let download = move |_| {
        let writer = async { sgf_code().await.ok().map(|code| code.export) };
        download_record(record, i18n, writer, "tabula-go.sgf", "application/x-go-sgf");
    };
    let on_file = move |event: leptos::ev::Event| {
        browser::read_chosen_file(&event, move |text| {
            let Some(text) = text else {
                record.notice.run(i18n.t_with("sgf-malformed", &[("detail", "unreadable file".into())]));
                return;
            };
            leptos::task::spawn_local(async move {
                let Ok(code) = sgf_code().await else {
                    record.notice.run(i18n.t("code-unavailable"));
                    return;
                };
                match (code.import)(&text) {
                    Ok(history) => {
                        let moves = history.len();
                        load.run(history);
                        record.notice.run(i18n.t_with("sgf-loaded", &[("count", moves.into())]));
                    }
                    Err(error) => record.notice.run(refusal(i18n, &error)),
                }
            });
        });
    };
    view! {
        <button class="button" id="download-sgf" on:click=download>{tr("sgf-download")}</button>
        <label class="button file-button">
            {tr("sgf-open")}
            <input type="file" id="open-sgf" class="visually-hidden" accept=".sgf,application/x-go-sgf" on:change=on_file />
        </label>
    }
}

#[cfg(all(test, feature = "local-screen"))]
mod tests {
    use serde_json::json;
    use tabula_core::go::GoMove;

    use super::*;
    use crate::i18n::Lang;

    fn play(at: &str) -> GoMove {
        GoMove::Play { at: at.parse().unwrap(), colour: None }
    }

    #[test]
    fn a_scored_game_exports_its_area_and_imports_without_the_marks() {
        let pass = GoMove::Pass { colour: None };
        let accept = |seat| GoMove::Accept { colour: Some(seat) };
        let moves = [play("C3"), pass, pass, accept(Seat::One), accept(Seat::Two)];
        let history = History::<Go>::replay(json!({"size": 5, "komi": 0.5}), &moves).unwrap();
        let text = export(&history, &[Some("Ann".into()), None], Some(&(1, "score".into())), &[]);
        assert!(text.contains("RE[B+24.5]") && text.contains("PB[Ann]") && text.contains("TB["), "{text}");
        let back = import(&text).unwrap();
        assert_eq!(back.len(), 3, "marks and acceptances are not moves");
        assert_eq!(back.current().board(), history.position(3).board());
    }

    #[test]
    fn a_reviewed_game_keeps_each_note_on_its_move() {
        let pass = GoMove::Pass { colour: None };
        let accept = |seat| GoMove::Accept { colour: Some(seat) };
        let moves = [play("C3"), pass, pass, accept(Seat::One), accept(Seat::Two)];
        let history = History::<Go>::replay(json!({"size": 5, "komi": 0.5}), &moves).unwrap();
        let note = |percent: u8| Annotation { first_chance: f32::from(percent) / 100.0, ..Annotation::default() };
        let notes: Vec<Annotation> = [60, 70, 80, 90, 100].into_iter().map(note).collect();
        let text = export(&history, &[None, None], Some(&(1, "score".into())), &notes);
        assert!(text.contains(";B[cc]C[Black's chance of winning: 60%]"), "{text}");
        assert!(text.contains(";W[]C[Black's chance of winning: 70%]"), "{text}");
        assert!(text.contains(";B[]C[Black's chance of winning: 80%]"), "{text}");
        assert!(!text.contains("90%") && !text.contains("100%"), "acceptances are not SGF moves: {text}");
    }

    #[test]
    fn refusals_read_as_sentences() {
        let i18n = I18n { lang: leptos::prelude::RwSignal::new(Lang::En) };
        let illegal = import("(;GM[1]SZ[9];B[ee];W[ee])").unwrap_err();
        assert_eq!(refusal(i18n, &illegal), "Move 2 (E5) is illegal: That point already holds a stone.");
        let broken = import("(;GM[1]SZ[9];B[ee]").unwrap_err();
        assert_eq!(refusal(i18n, &broken), "This file is not an SGF game record (unclosed game tree, byte 18).");
        assert_eq!(
            refusal(i18n, &import("(;GM[1]SZ[21])").unwrap_err()),
            "Boards of 21 are not supported (square, 5 to 19)."
        );
    }
}
