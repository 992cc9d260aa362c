//! Edges & Blocks for the search: placing on an edge and moving onto it are two moves of their own
//! (both keyed by the edge). Playouts are cut short and judged by cells (games need not end). The
//! levels' playouts see what a player sees at once: an edge that completes or eats a cell is
//! taken, and an edge the opponent would eat at once is not offered; the yardstick's are uniform.

use rand::Rng;

use crate::ai::{reward, AiRng, Searchable};
use crate::edges::{Edges, EdgesMove};
use crate::game::{Game, Seat};

/// Actions in a playout before the position is judged: games need not end (edges can move forever).
const PLAYOUT_ACTIONS: usize = 60;

/// How often an informed playout takes a cell it can take (the rest of the time it plays
/// uniformly, so the playouts still explore).
const TAKE_CHANCE: f32 = 0.9;

/// Draws of a uniform action before an informed playout accepts one the opponent would eat.
const SUICIDE_REDRAWS: usize = 4;

impl Searchable for Edges {
    const TOP_PLAYOUTS: u32 = 12_000;

    fn key_space(&self) -> usize {
        2 * self.torus().edge_count()
    }

    fn move_key(&self, mv: &EdgesMove) -> Option<usize> {
        match *mv {
            EdgesMove::Place { edge, .. } => Some(edge),
            EdgesMove::Move { to, .. } => Some(self.torus().edge_count() + to),
            EdgesMove::Pass { .. } => None,
        }
    }

    fn search_copy(&self) -> Self {
        self.forward_only()
    }

    fn playout(&self, rng: &mut AiRng, uniform: bool, played: &mut dyn FnMut(Seat, usize)) -> f32 {
        let mut game = self.forward_only();
        for _ in 0..PLAYOUT_ACTIONS {
            let Some(seat) = game.status().to_move() else { break };
            let mv = if uniform { uniform_action(&game, rng) } else { informed_action(&game, rng) };
            if let Some(key) = game.move_key(&mv) {
                played(seat, key);
            }
            game.play_unchecked(&mv);
        }
        reward(&game.status()).unwrap_or_else(|| {
            let (one, two) = (game.cells_of(Seat::One), game.cells_of(Seat::Two));
            match one.cmp(&two) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 0.5,
            }
        })
    }
}

/// One of [`Game::legal_moves`], uniformly, without building the list.
fn uniform_action(game: &Edges, rng: &mut AiRng) -> EdgesMove {
    let me = game.status().to_move().expect("a playout moves only in an ongoing game");
    let torus = game.torus();
    let places = if game.supply(me) > 0 { game.empty_edges() as usize } else { 0 };
    let own = || (0..torus.edge_count()).filter(move |&e| game.edge(e) == Some(me));
    let targets = |from: usize| torus.adjacent(from).into_iter().filter(|&e| game.edge(e).is_none());
    let shifts: usize = own().map(|from| targets(from).count()).sum();
    let mut pick = rng.random_range(0..places + shifts + 1);
    if pick < places {
        let edge = (0..torus.edge_count()).filter(|&e| game.edge(e).is_none()).nth(pick);
        return EdgesMove::place(edge.expect("counted empty edges"));
    }
    pick -= places;
    for from in own() {
        for to in targets(from) {
            if pick == 0 {
                return EdgesMove::shift(from, to);
            }
            pick -= 1;
        }
    }
    EdgesMove::PASS
}

/// What an edge of the mover landing on an empty edge does to one of its cells, judged from the
/// cell's other three edges alone (chains and the opponent's phase aside).
#[derive(Clone, Copy, PartialEq)]
enum Effect {
    /// The cell becomes the mover's: three own edges (a capture) or two and one enemy (an eat).
    Takes,
    /// Three enemy edges: the opponent eats the edge at once.
    Suicide,
    Other,
}

/// The effect of `me` filling `hole`, the one empty edge of `cell`.
fn effect(game: &Edges, cell: usize, hole: usize, me: Seat) -> Effect {
    let (mut mine, mut theirs) = (0, 0);
    for edge in game.torus().cell_edges(cell) {
        match game.edge(edge) {
            Some(seat) if seat == me => mine += 1,
            Some(_) => theirs += 1,
            None if edge == hole => {}
            None => return Effect::Other,
        }
    }
    match (mine, theirs) {
        (3, 0) if game.owner(cell) != Some(me) => Effect::Takes,
        (2, 1) => Effect::Takes,
        (0, 3) => Effect::Suicide,
        _ => Effect::Other,
    }
}

/// The edges that fill the only hole of a cell with the given effect for `me`, as (cell, hole).
fn holes(game: &Edges, me: Seat, wanted: Effect) -> impl Iterator<Item = (usize, usize)> + '_ {
    let torus = game.torus();
    (0..torus.cell_count()).filter_map(move |cell| {
        let mut empty = torus.cell_edges(cell).into_iter().filter(|&e| game.edge(e).is_none());
        let hole = empty.next()?;
        (empty.next().is_none() && effect(game, cell, hole, me) == wanted).then_some((cell, hole))
    })
}

/// A way for `me` to put an edge on `hole` without taking one from `cell`: from the supply, or
/// from a neighbouring own edge that is not one of the cell's.
fn fill(game: &Edges, cell: usize, hole: usize, me: Seat) -> Option<EdgesMove> {
    if game.supply(me) > 0 {
        return Some(EdgesMove::place(hole));
    }
    let sides = game.torus().cell_edges(cell);
    let from = game.torus().adjacent(hole).into_iter().find(|&e| game.edge(e) == Some(me) && !sides.contains(&e))?;
    Some(EdgesMove::shift(from, hole))
}

/// Whether `me` putting an edge on `edge` fills the only hole of a cell with three enemy edges.
fn is_suicide(game: &Edges, edge: usize, me: Seat) -> bool {
    game.torus().edge_cells(edge).into_iter().any(|cell| effect(game, cell, edge, me) == Effect::Suicide)
}

/// The levels' playout action: take a cell when one can be taken (most of the time), otherwise a
/// uniform action, drawn again (a few times) while it lands where the opponent eats it at once.
/// Nothing is allocated: this runs for every action of every playout.
fn informed_action(game: &Edges, rng: &mut AiRng) -> EdgesMove {
    let me = game.status().to_move().expect("a playout moves only in an ongoing game");
    if rng.random::<f32>() < TAKE_CHANCE {
        let takes = || holes(game, me, Effect::Takes).filter_map(|(cell, hole)| fill(game, cell, hole, me));
        let count = takes().count();
        if count > 0 {
            return takes().nth(rng.random_range(0..count)).expect("counted takes");
        }
    }
    let mut mv = uniform_action(game, rng);
    for _ in 0..SUICIDE_REDRAWS {
        let lands = match mv {
            EdgesMove::Place { edge, .. } => edge,
            EdgesMove::Move { to, .. } => to,
            EdgesMove::Pass { .. } => break,
        };
        if !is_suicide(game, lands, me) {
            break;
        }
        mv = uniform_action(game, rng);
    }
    mv
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::edges::EdgesConfig;

    fn after(moves: &[EdgesMove]) -> Edges {
        Edges::replay(EdgesConfig::default(), moves).unwrap()
    }

    /// The position after placing on `edges`, seat one first.
    fn placed(edges: &[usize]) -> Edges {
        after(&edges.iter().map(|&e| EdgesMove::place(e)).collect::<Vec<_>>())
    }

    #[test]
    fn uniform_actions_are_the_legal_moves_each_about_as_often() {
        // Seat one to move with some edges of its own on the board and supply left.
        let game = after(&[EdgesMove::place(0), EdgesMove::place(9), EdgesMove::place(64), EdgesMove::PASS]);
        let legal = game.legal_moves();
        let mut rng = AiRng::seed_from_u64(3);
        let mut counts = std::collections::HashMap::new();
        let draws = 200 * legal.len();
        for _ in 0..draws {
            let mv = uniform_action(&game, &mut rng);
            assert!(legal.contains(&mv), "{mv:?} is not legal");
            *counts.entry(mv).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), legal.len(), "some legal moves were never drawn");
        assert!(counts.values().all(|&n| (100..=300).contains(&n)), "{counts:?}");
    }

    #[test]
    fn informed_playouts_take_a_cell_they_can_take() {
        // Cell 0 (edges 0, 8, 64, 65): seat one holds 0, 8 and 64, so an edge on 65 takes it.
        let game = placed(&[0, 18, 8, 26, 64, 82]);
        let mut rng = AiRng::seed_from_u64(5);
        let draws = 1_000;
        let taken = (0..draws).filter(|_| informed_action(&game, &mut rng) == EdgesMove::place(65)).count();
        assert!(taken > 850, "took the cell {taken} times of {draws}");
    }

    #[test]
    fn informed_playouts_shun_an_edge_the_opponent_would_eat() {
        // Cell 18 (edges 18, 26, 82, 83): seat two holds 18, 26 and 82, so seat one on 83 is
        // eaten. Seat one, to move, can take no cell.
        let game = placed(&[0, 18, 1, 26, 2, 82]);
        let lands_on_83 =
            |mv: EdgesMove| matches!(mv, EdgesMove::Place { edge: 83, .. } | EdgesMove::Move { to: 83, .. });
        let mut rng = AiRng::seed_from_u64(5);
        let draws = 5_000;
        let uniform = (0..draws).filter(|_| lands_on_83(uniform_action(&game, &mut rng))).count();
        let informed = (0..draws).filter(|_| lands_on_83(informed_action(&game, &mut rng))).count();
        assert!(uniform > 10, "uniform actions should land there now and then ({uniform})");
        assert_eq!(informed, 0);
    }
}
