//! Which drawing shows a piece. The site draws each piece of the built-in variants
//! (`site/static/pieces.svg`); `core/data/fairy-figures.json` names each drawing and the pieces it
//! shows, in the variants' own model. A piece is matched by what it does (its compiled moves, and
//! whether it is royal or a pawn), not by its letter: a `C` is a chancellor in one variant and a
//! cannon in another, and a custom variant's knight is drawn as a knight. A piece that matches none
//! has no figure (the site shows its letter).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::model::{compile, Node, PieceDef};

struct Figure {
    name: String,
    royal: bool,
    pawn: bool,
    moves: Vec<String>,
}

/// The moves in an order-free form (compiling gives them in the order the data lists them), the
/// moves that follow a step too.
fn key(nodes: &[Node]) -> Vec<String> {
    let mut moves: Vec<String> = nodes
        .iter()
        .map(|node| format!("{:?} then {:?}", Node { children: Vec::new(), ..node.clone() }, key(&node.children)))
        .collect();
    moves.sort_unstable();
    moves
}

fn figures() -> &'static [Figure] {
    static FIGURES: OnceLock<Vec<Figure>> = OnceLock::new();
    FIGURES.get_or_init(|| {
        let table: BTreeMap<String, Vec<PieceDef>> =
            serde_json::from_str(include_str!("../../data/fairy-figures.json")).expect("fairy-figures.json reads");
        let mut figures = Vec::new();
        for (name, defs) in table {
            for def in defs {
                let (royal, pawn) = (def.royal, def.pawn);
                let pieces = BTreeMap::from([(String::new(), def)]);
                let nodes = compile(&pieces, "", 0).unwrap_or_else(|e| panic!("figure {name}: {e}"));
                figures.push(Figure { name: name.clone(), royal, pawn, moves: key(&nodes) });
            }
        }
        figures
    })
}

/// The figure of a piece with these compiled moves (as seen from White).
pub fn figure(nodes: &[Node], royal: bool, pawn: bool) -> Option<String> {
    let moves = key(nodes);
    figures().iter().find(|f| f.royal == royal && f.pawn == pawn && f.moves == moves).map(|f| f.name.clone())
}
