//! The screens of each game built into this bundle, one folder per game, and the one
//! registration line per game in `screens`. What the games are (names, options) is
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

/// A game's screens, when this bundle has them: the one registration line per game.
pub fn screens(slug: Slug) -> Option<&'static dyn Screens> {
    match slug {
        #[cfg(feature = "popucom")]
        Slug::Played(tabula_core::GameKind::Popucom) => Some(&crate::play::ScreensOf(popucom::PopucomUi)),
        #[cfg(feature = "go")]
        Slug::Played(tabula_core::GameKind::Go) => Some(&crate::play::ScreensOf(go::GoUi)),
        #[cfg(feature = "edges")]
        Slug::Played(tabula_core::GameKind::Edges) => Some(&crate::play::ScreensOf(edges::EdgesUi)),
        #[cfg(feature = "chess")]
        Slug::Played(tabula_core::GameKind::Chess) => Some(&crate::play::ScreensOf(chess::ChessUi)),
        _ => None,
    }
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
