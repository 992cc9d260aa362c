//! The screens of each game built into this bundle, one folder per game, and the one
//! registration line per game in `games!`. What the games are (names, options) is
//! `crate::catalogue`.

#[cfg(feature = "chess")]
pub mod chess;
#[cfg(feature = "edges")]
pub mod edges;
#[cfg(feature = "go")]
pub mod go;
#[cfg(feature = "popucom")]
pub mod popucom;
#[cfg(feature = "triplex")]
pub mod triplex;

use crate::catalogue::Slug;
use crate::play::Screens;
#[cfg(feature = "game-page")]
use leptos::prelude::{AnyView, IntoAny};

/// The one registration line per game: the game's feature, its kind and its screens. It makes
/// [`screens`] and, for the game page, [`diagrams_code`].
macro_rules! games {
    ($($feature:literal $kind:ident => $ui:path),* $(,)?) => {
        /// A game's screens, when this bundle has them.
        pub fn screens(slug: Slug) -> Option<&'static dyn Screens> {
            match slug {
                $(#[cfg(feature = $feature)]
                Slug::Played(tabula_core::GameKind::$kind) => Some(&crate::play::ScreensOf($ui)),)*
                _ => None,
            }
        }

        /// The rules pictures of a game's page, loaded after its first paint (see
        /// `browser::OnDemand`): with them goes the drawing of a board, which nothing else on the
        /// page draws. Natively (the pre-rendered page) the call is direct.
        #[cfg(feature = "game-page")]
        #[leptos::wasm_split::wasm_split(game_diagrams, wasm_split_path = ::leptos::wasm_split, fallible)]
        pub fn diagrams_code() -> Result<fn(Slug) -> AnyView, leptos::wasm_split::SplitLoaderError> {
            Ok(|slug| match slug {
                $(#[cfg(feature = $feature)]
                Slug::Played(tabula_core::GameKind::$kind) => crate::play::diagrams::<$ui>(),)*
                _ => ().into_any(),
            })
        }
    };
}

games! {
    "popucom" Popucom => popucom::PopucomUi,
    "go" Go => go::GoUi,
    "edges" Edges => edges::EdgesUi,
    "chess" Chess => chess::ChessUi,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_knows_which_screens_this_bundle_has() {
        for slug in Slug::ALL {
            assert_eq!(screens(slug).is_some(), slug.screens_built(), "{}", slug.name());
        }
    }
}
