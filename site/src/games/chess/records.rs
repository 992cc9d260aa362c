//! Records in the chess screen: "Download PGN" for any game (local or a room), and in a local game
//! "Open PGN" and a box to paste a FEN or a PGN into. The format is `tabula_core::fairy::pgn`; this
//! turns its refusals into the reader's words.

use leptos::prelude::*;
use tabula_core::fairy::Chess;

use crate::i18n::tr;
use crate::play::{record_buttons, Record};
#[cfg(feature = "local-screen")]
use {
    crate::browser,
    crate::i18n::{use_i18n, Arg, I18n},
    crate::play::{download_record, History, RecordWriter},
    tabula_core::annotation::Annotation,
    tabula_core::fairy::pgn::{result_text, PgnError, Record as Pgn},
    tabula_core::fairy::ChessConfig,
    tabula_core::{Game, Seat},
};

/// The game as PGN, with the players' names, the result (a game still going is `*`) and its
/// review's notes, if any.
#[cfg(feature = "local-screen")]
pub fn export(
    history: &History<Chess>,
    names: &[Option<String>; 2],
    result: Option<&(u8, String)>,
    notes: &[Annotation],
) -> String {
    let record = Pgn {
        config: history.position(0).config().clone(),
        moves: history.moves().to_vec(),
        white: names[0].clone(),
        black: names[1].clone(),
        result: result.map_or("*", |(winner, _)| result_text(Seat::from_number(*winner))).to_owned(),
    };
    // A history replays by construction; the fallback never shows.
    record.to_pgn_annotated(notes).unwrap_or_default()
}

/// Why a pasted or opened record cannot be played.
#[cfg(feature = "local-screen")]
#[derive(Debug, PartialEq)]
enum Refusal {
    Pgn(PgnError),
    Empty,
}

/// A local game from a FEN (in the variant being played, custom ones too) or a PGN file's first game.
#[cfg(feature = "local-screen")]
fn import(text: &str, playing: &ChessConfig) -> Result<History<Chess>, Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Refusal::Empty);
    }
    // A FEN is one line whose first field is the placement (ranks separated by slashes).
    let fen_like = !text.contains('\n') && text.split_whitespace().next().is_some_and(|f| f.matches('/').count() >= 2);
    let record = if fen_like && !text.starts_with('[') {
        let config = ChessConfig { fen: Some(text.to_owned()), chess960: is_960(text), ..playing.clone() };
        Pgn { config, moves: Vec::new(), white: None, black: None, result: "*".into() }
    } else {
        Pgn::from_pgn_playing(text, playing).map_err(Refusal::Pgn)?
    };
    let config = serde_json::to_value(&record.config).unwrap_or_default();
    History::replay(config, &record.moves).map_err(|e| Refusal::Pgn(PgnError::Config(e)))
}

/// Whether a FEN is a Chess960 position, where castling is played king-takes-rook: its castling
/// rights name the rooks' files (Shredder-FEN, `HAha`), or a side that may castle has its king off
/// the e-file (X-FEN writes such rights as `KQkq`).
#[cfg(feature = "local-screen")]
fn is_960(fen: &str) -> bool {
    let mut fields = fen.split_whitespace();
    let (placement, rights) = (fields.next().unwrap_or(""), fields.nth(1).unwrap_or("-"));
    if rights.chars().any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c)) {
        return true;
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    // The file of `king` on a rank written in FEN (digits are runs of empty squares, maybe two long).
    let king_file = |rank: &str, king: char| {
        let (mut file, mut run) = (0, 0);
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(d) => run = run * 10 + d as usize,
                None if c == king => return Some(file + run),
                None => {
                    file += run + 1;
                    run = 0;
                }
            }
        }
        None
    };
    let off_e = |rank: Option<&&str>, king: char| rank.and_then(|r| king_file(r, king)).is_some_and(|f| f != 4);
    (rights.contains(['K', 'Q']) && off_e(ranks.last(), 'K'))
        || (rights.contains(['k', 'q']) && off_e(ranks.first(), 'k'))
}

/// The PGN reader and writer, loaded when a record is opened, pasted or saved: a module of its own
/// (see `browser::OnDemand`), no part of the local game's first load.
#[cfg(feature = "local-screen")]
#[leptos::wasm_split::wasm_split(chess_pgn, wasm_split_path = ::leptos::wasm_split, fallible)]
fn pgn_code() -> Result<PgnCode, leptos::wasm_split::SplitLoaderError> {
    Ok(PgnCode { import: |i18n, text, playing| import(text, playing).map_err(|error| refusal(i18n, &error)), export })
}

/// [`import`] (its refusal in the player's words) and [`export`], as the module loaded on demand
/// hands them back.
#[cfg(feature = "local-screen")]
#[derive(Clone, Copy)]
struct PgnCode {
    import: fn(I18n, &str, &ChessConfig) -> Result<History<Chess>, String>,
    export: RecordWriter<Chess>,
}

#[cfg(feature = "local-screen")]
fn refusal(i18n: I18n, error: &Refusal) -> String {
    let (id, args): (&str, Vec<(&str, Arg)>) = match error {
        Refusal::Empty => ("pgn-empty", Vec::new()),
        Refusal::Pgn(PgnError::Malformed(what)) => ("pgn-malformed", vec![("detail", what.as_str().into())]),
        Refusal::Pgn(PgnError::Variant(name)) => ("pgn-variant", vec![("variant", name.as_str().into())]),
        Refusal::Pgn(PgnError::Config(reason)) => ("pgn-options", vec![("reason", reason.as_str().into())]),
        Refusal::Pgn(PgnError::Illegal { number, text }) => {
            ("pgn-illegal", vec![("number", (*number).into()), ("move", text.as_str().into())])
        }
    };
    i18n.t_with(id, &args)
}

/// "Download PGN", and in a local game "Open PGN" and the paste box beside it.
pub fn buttons(record: Record<Chess>) -> impl IntoView {
    #[cfg(feature = "local-screen")]
    let local = move |load| loaders(record, load);
    #[cfg(not(feature = "local-screen"))]
    let local = |_| ();
    record_buttons(record, "pgn", "pgn-download", local)
}

#[cfg(feature = "local-screen")]
fn loaders(record: Record<Chess>, load: Callback<History<Chess>>) -> impl IntoView {
    let i18n = use_i18n();
    let download = move |_| {
        let writer = async { pgn_code().await.ok().map(|code| code.export) };
        download_record(record, i18n, writer, "tabula-chess.pgn", "application/x-chess-pgn");
    };
    let take = move |text: String| {
        let playing = record.history.with_untracked(|h| h.position(0).config().clone());
        leptos::task::spawn_local(async move {
            let Ok(code) = pgn_code().await else {
                record.notice.run(i18n.t("code-unavailable"));
                return;
            };
            match (code.import)(i18n, &text, &playing) {
                Ok(history) => {
                    let moves = history.len();
                    load.run(history);
                    record.notice.run(i18n.t_with("pgn-loaded", &[("count", moves.into())]));
                }
                Err(refusal) => record.notice.run(refusal),
            }
        });
    };
    let on_file =
        move |event: leptos::ev::Event| browser::read_chosen_file(&event, move |text| take(text.unwrap_or_default()));
    // The box's text is read when it is loaded (no signal per keystroke).
    let on_submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let text = browser::element_by_id::<web_sys::HtmlElement>("paste-record")
            .and_then(|box_| js_sys::Reflect::get(&box_, &"value".into()).ok())
            .and_then(|value| value.as_string());
        take(text.unwrap_or_default());
    };
    view! {
        <button class="button" id="download-pgn" on:click=download>{tr("pgn-download")}</button>
        <label class="button file-button">
            {tr("pgn-open")}
            <input type="file" id="open-pgn" class="visually-hidden" accept=".pgn,application/x-chess-pgn" on:change=on_file />
        </label>
        <form class="paste-record" on:submit=on_submit>
            <label for="paste-record">{tr("pgn-paste-label")}</label>
            <textarea id="paste-record" rows="2" spellcheck="false"></textarea>
            <button class="button" id="load-pasted" type="submit">{tr("pgn-paste-load")}</button>
        </form>
    }
}

#[cfg(all(test, feature = "local-screen"))]
mod tests {
    use serde_json::json;
    use tabula_core::fairy::UciMove;

    use super::*;
    use crate::i18n::Lang;

    fn moves(list: &str) -> Vec<UciMove> {
        list.split(' ').map(|m| UciMove(m.into())).collect()
    }

    #[test]
    fn a_game_exports_to_pgn_and_imports_to_the_same_history() {
        let history = History::<Chess>::replay(json!({"variant": "capablanca"}), &moves("e2e4 e7e5 c1d3")).unwrap();
        let text = export(&history, &[Some("Ann".into()), None], Some(&(2, "resign".into())), &[]);
        assert!(text.contains("[White \"Ann\"]") && text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("1. e4 e5 2. Ad3 0-1"), "{text}");
        let back = import(&text, &ChessConfig::default()).unwrap();
        assert_eq!(back.moves(), history.moves());
        assert_eq!(back.current().fen(), history.current().fen());
    }

    #[test]
    fn a_fen_starts_a_game_in_the_variant_being_played() {
        let fen = "4k4r/10/10/10/10/10/10/4K5 w - - 0 1";
        let capablanca = ChessConfig { variant: "capablanca".into(), ..ChessConfig::default() };
        let loaded = import(&format!(" {fen}\n"), &capablanca).unwrap();
        assert_eq!((loaded.len(), loaded.current().fen()), (0, fen.to_owned()));
    }

    #[test]
    fn a_fen_with_castling_kings_off_the_e_file_or_rook_files_is_chess960() {
        assert!(!is_960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        assert!(!is_960("4k3/8/8/8/8/8/8/R2K3R w - - 0 1"), "no castling: nothing to tell");
        assert!(is_960("rkrbbqnn/pppppppp/8/8/8/8/PPPPPPPP/RKRBBQNN w KQkq - 0 1"), "X-FEN, king on b");
        assert!(is_960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"), "Shredder-FEN");
        assert!(is_960("1r4k1/8/8/8/8/8/8/4K3 b k - 0 1"), "Black's king on g");
        let game = import("rkrbbqnn/pppppppp/8/8/8/8/PPPPPPPP/RKRBBQNN w KQkq - 0 1", &ChessConfig::default()).unwrap();
        assert!(game.position(0).config().chess960);
    }

    #[test]
    fn refusals_read_as_sentences() {
        let i18n = I18n { lang: leptos::prelude::RwSignal::new(Lang::En) };
        let say = |text: &str| refusal(i18n, &import(text, &ChessConfig::default()).unwrap_err());
        assert_eq!(say("1. e4 e5 2. Ke3"), "Move 3 (Ke3) is illegal here.");
        assert_eq!(say("[Variant \"xiangqi\"] 1. e4"), "We do not have the variant xiangqi.");
        assert_eq!(say("  "), "There is nothing to load.");
        assert!(say("8/8/8 w - - 0 1").starts_with("These game settings cannot be played: "), "{}", say("8/8/8 w"));
        assert_eq!(say("1. e4 {unclosed"), "This is not a PGN game record (an unclosed comment).");
    }
}
