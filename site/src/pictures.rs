//! The home's picture of each game, drawn at build time: `cargo xtask build-site` writes them to
//! `/pictures/<game>.svg`. A game with screens draws its own (`play::svg`); Triplex a level two-thirds
//! solved. Native only.

use crate::catalogue::Slug;
use crate::games::screens;
use crate::play::svg::{Svg, SIDE};

/// Triplex's picture: a 6x6 level two-thirds solved.
pub fn triplex_picture() -> String {
    const LEVEL: usize = 277;
    let level = tabula_core::triplex::catalog::level(LEVEL).expect("the shipped list has the level");
    let svg = Svg::new(SIDE);
    crate::games::triplex::draw(&svg, level, level.pieces.len() * 2 / 3);
    svg.finish()
}

/// Every game's picture, by the game's name.
pub fn all() -> Vec<(&'static str, String)> {
    let games = Slug::ALL.into_iter().filter_map(|slug| Some((slug.name(), screens(slug)?.picture())));
    games.chain([(Slug::Triplex.name(), triplex_picture())]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{chess::ChessUi, edges::EdgesUi, go::GoUi, popucom::PopucomUi};
    use crate::play::svg::picture_game;
    use crate::play::GameUi;
    use tabula_core::Game;

    /// The picture's game went on for its moves, both sides moved, and the drawing shows it.
    fn in_progress<U: GameUi>() {
        let history = picture_game::<U>();
        let name = U::SLUG.name();
        assert!(history.len() >= 10, "{name}: only {} moves", history.len());
        let movers: std::collections::BTreeSet<_> =
            (0..history.len()).filter_map(|k| history.position(k).status().to_move()).collect();
        assert_eq!(movers.len(), 2, "{name}: both sides moved");
        let [start, end] = [0, history.len()].map(|moves| {
            let svg = Svg::new(SIDE);
            U::draw(&svg, history.position(moves));
            svg.finish()
        });
        assert_ne!(start, end, "{name}: the drawing shows the moves");
    }

    #[test]
    fn each_game_s_picture_is_a_game_in_progress() {
        in_progress::<PopucomUi>();
        in_progress::<GoUi>();
        in_progress::<EdgesUi>();
        in_progress::<ChessUi>();
    }

    #[test]
    fn every_game_has_a_picture_whose_drawings_are_all_inside_it() {
        let pictures = all();
        let names: Vec<_> = pictures.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, Slug::ALL.map(Slug::name));
        for (name, svg) in &pictures {
            assert!(
                svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.ends_with("</svg>\n"),
                "{name}"
            );
            assert!(svg.matches("/>").count() > 20, "{name}: a board is more than 20 shapes");
            // An `<img>` loads nothing else: every drawing a `<use>` names is in the document.
            for used in svg.split("href=\"#").skip(1) {
                let id = &used[..used.find('"').expect("a closed attribute")];
                assert!(svg.contains(&format!("id=\"{id}\"")), "{name}: #{id} is not in the picture");
            }
        }
        let chess = &pictures.iter().find(|(name, _)| *name == "chess").expect("a chess picture").1;
        assert!(chess.contains("<use href=\"#king\""), "the chess picture draws its pieces' figures");
    }
}
