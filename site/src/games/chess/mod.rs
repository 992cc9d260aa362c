//! Fairy chess on the shared game screen: any built-in variant on boards up to 12 x 12, with
//! click-click input, promotion choice, flip, check and the last move. Moves are written in SAN
//! and typed in SAN or UCI; records go out as PGN and come in as PGN or FEN.

mod board;
mod custom;
#[cfg(feature = "game-page")]
mod picker;
mod records;

use leptos::prelude::*;
use tabula_core::fairy::{Chess, UciMove};
use tabula_core::{Game, Seat};

use crate::browser;
use crate::i18n::I18n;
use crate::play::{BoardProps, GameUi, Pen, Record};

#[derive(Clone, Copy)]
pub struct ChessUi;

impl GameUi for ChessUi {
    type G = Chess;
    #[cfg(not(feature = "game-page"))]
    const CSS: &'static str = include_str!(concat!(env!("OUT_DIR"), "/chess.css"));
    #[cfg(feature = "game-page")]
    const CSS: &'static str = concat!(
        include_str!(concat!(env!("OUT_DIR"), "/chess.css")),
        include_str!(concat!(env!("OUT_DIR"), "/chess-page.css"))
    );

    fn colour_id(seat: Seat) -> &'static str {
        match seat {
            Seat::One => "chess-white",
            Seat::Two => "chess-black",
        }
    }

    fn board(props: BoardProps<Chess>) -> AnyView {
        view! { <board::ChessBoard props=props /> }.into_any()
    }

    /// "check" next to the side in check.
    fn score(i18n: I18n, game: &Chess, seat: Seat) -> String {
        if game.status().to_move() == Some(seat) && game.in_check() {
            i18n.t("chess-in-check")
        } else {
            String::new()
        }
    }

    fn detail(_i18n: I18n, game: &Chess) -> Option<String> {
        Some(game.variant().name.clone())
    }

    fn reason(i18n: I18n, _game: &Chess, reason: &str) -> String {
        let own = format!("chess-reason-{reason}");
        let id = if crate::i18n::has(&own) { own } else { format!("reason-{reason}") };
        i18n.t(&id)
    }

    fn notation(before: &Chess, mv: &UciMove) -> String {
        before.san(mv).unwrap_or_else(|| mv.0.clone())
    }

    /// A move in SAN (`Nf3`, `O-O`, `e8=Q`) or UCI (`g1f3`); text that is neither is offered as
    /// typed, so the screen says why it is refused.
    fn parse(game: &Chess, text: &str, _acting: Option<Seat>) -> Option<UciMove> {
        let typed = text.trim();
        game.read_move(typed).or_else(|| (!typed.is_empty()).then(|| UciMove(typed.to_ascii_lowercase())))
    }

    /// "custom": the definition written on the page, as the server checked and compiled it.
    fn complete_config(config: serde_json::Value) -> Result<serde_json::Value, String> {
        #[cfg(feature = "game-page")]
        return custom::editor().complete(config);
        #[cfg(all(feature = "local-screen", not(feature = "game-page")))]
        return custom::checked_config(config);
        // A room's config comes from the server, complete.
        #[allow(unreachable_code)]
        Ok(config)
    }

    /// The chosen variant: what it is, its start, and where each piece goes; for a custom one,
    /// its definition to edit.
    #[cfg(feature = "game-page")]
    fn option_help(config: Signal<serde_json::Value>) -> AnyView {
        picker::variant_card(config).into_any()
    }

    fn records(record: Record<Chess>) -> AnyView {
        records::buttons(record).into_any()
    }

    fn draw(pen: &impl Pen, game: &Chess) {
        let (files, ranks) = (game.variant().files(), game.variant().ranks());
        let step = pen.size() / files.max(ranks) as f64;
        let pieces = board::placement(&game.fen(), files, ranks);
        for rank in 0..ranks {
            for file in 0..files {
                let (x, y) = (file as f64 * step, (ranks - 1 - rank) as f64 * step);
                let colour = if (file + rank) % 2 == 0 { "#b58863" } else { "#f0d9b5" };
                pen.rect(x, y, step, step, colour);
                if let Some(piece) = pieces[rank * files + file] {
                    pen.piece(x, y, step, game.variant().figure(piece.letter), piece.seat);
                }
            }
        }
    }

    /// Squares under 28 px are easy to mis-tap: ask for a confirmation there.
    fn small_points(game: &Chess) -> bool {
        let width = browser::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).unwrap_or(1024.0);
        (width.min(620.0) - 48.0) / (game.variant().files() as f64) < 28.0
    }
}

#[cfg(test)]
mod tests {
    use tabula_core::fairy::ChessConfig;

    use super::*;

    #[test]
    fn the_variant_option_lists_every_built_in_variant_and_a_custom_one() {
        let crate::catalogue::OptionKind::Choice(choices) = ChessUi::SLUG.options()[0].kind else { panic!("a choice") };
        let mut listed: std::collections::BTreeSet<&str> = choices.iter().map(|c| c.value).collect();
        assert!(listed.remove(custom::CUSTOM));
        let built_in = tabula_core::fairy::Variant::builtin().keys().map(String::as_str).collect();
        assert_eq!(listed, built_in);
    }

    #[test]
    fn moves_are_typed_in_san_or_uci_and_written_in_san() {
        let game = Chess::new(ChessConfig::default()).unwrap();
        assert_eq!(ChessUi::parse(&game, " E2E4 ", None), Some(UciMove("e2e4".into())));
        assert_eq!(ChessUi::parse(&game, "Nf3", None), Some(UciMove("g1f3".into())));
        assert_eq!(ChessUi::parse(&game, "Ke2", None), Some(UciMove("ke2".into())), "offered, to be refused");
        assert_eq!(ChessUi::parse(&game, "", None), None);
        assert_eq!(ChessUi::notation(&game, &UciMove("g1f3".into())), "Nf3");
    }
}
