//! The tree search: UCT with optional RAVE (all-moves-as-first statistics shared between equal
//! moves, blended out as real visits grow), an arena of nodes, expansion one child per playout,
//! and re-rooting below a played move so the next search starts from what was learnt.

use rand::Rng;

use super::{reward_for, AiRng, Searchable};
use crate::game::Seat;

/// Exploration weight of plain UCT (Kocsis and Szepesvári's 1/sqrt(2) for rewards in 0..1).
const UCT_EXPLORATION: f32 = 0.7;
/// With RAVE the shared statistics already spread the search: explore less.
const RAVE_EXPLORATION: f32 = 0.25;
/// Silver's RAVE bias `4 b^2` with b = 0.1: how fast real visits take over from shared ones.
const RAVE_BIAS: f32 = 0.04;

/// What one search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    pub playouts: u32,
    /// Nodes in the tree after the search (reused ones included).
    pub nodes: u32,
    /// Visits of the chosen move's node over all root visits: how sure the search is.
    pub confidence: f32,
    /// The chosen move's mean reward for the side to move.
    pub value: f32,
}

struct Node<M> {
    /// The move that led here (`None` at the root) and who made it.
    mv: Option<M>,
    mover: Seat,
    key: Option<u32>,
    children: Vec<u32>,
    /// Candidate moves not yet given a child; computed on the node's second visit.
    untried: Option<Vec<M>>,
    visits: u32,
    wins: f32,
    shared_visits: u32,
    shared_wins: f32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Seat, key: Option<u32>) -> Self {
        Node {
            mv,
            mover,
            key,
            children: Vec::new(),
            untried: None,
            visits: 0,
            wins: 0.0,
            shared_visits: 0,
            shared_wins: 0.0,
        }
    }
}

/// A search tree over positions of `G`, rooted at a position.
pub struct Mcts<G: Searchable> {
    root_state: G,
    nodes: Vec<Node<G::Move>>,
    rave: bool,
    /// Moves seen in the current playout, per seat, as bit sets over the game's keys.
    seen: [Vec<u64>; 2],
}

impl<G: Searchable> Mcts<G> {
    pub fn new(root_state: G, rave: bool) -> Self {
        let words = root_state.key_space().div_ceil(64);
        let mover = root_state.status().to_move().map_or(Seat::Two, Seat::other);
        Mcts { root_state, nodes: vec![Node::new(None, mover, None)], rave, seen: [vec![0; words], vec![0; words]] }
    }

    /// Runs `playouts` more playouts from the root.
    pub fn search(&mut self, playouts: u32, rng: &mut AiRng) -> SearchStats {
        let mut path = Vec::new();
        for _ in 0..playouts {
            self.iterate(&mut path, rng);
        }
        let root = &self.nodes[0];
        let best = self.best_child();
        let (confidence, value) = best.map_or((0.0, 0.5), |child| {
            let child = &self.nodes[child as usize];
            (child.visits as f32 / root.visits.max(1) as f32, child.wins / child.visits.max(1) as f32)
        });
        SearchStats { playouts, nodes: self.nodes.len() as u32, confidence, value }
    }

    /// The most visited move at the root, if any was searched.
    pub fn best_move(&self) -> Option<G::Move> {
        self.best_child().and_then(|child| self.nodes[child as usize].mv.clone())
    }

    fn best_child(&self) -> Option<u32> {
        // Ties go to the first child, so the choice depends only on the search.
        let children = &self.nodes[0].children;
        children.iter().copied().reduce(|best, c| {
            if self.nodes[c as usize].visits > self.nodes[best as usize].visits {
                c
            } else {
                best
            }
        })
    }

    /// The tree below `mv` (the position after it), or `None` if the search never tried `mv`.
    pub fn descend(mut self, mv: &G::Move) -> Option<Self> {
        let child = self.nodes[0].children.iter().copied().find(|&c| self.nodes[c as usize].mv.as_ref() == Some(mv))?;
        self.root_state.play_unchecked(mv);
        // Copy the subtree out in breadth-first order, renumbering its children.
        let mut old: Vec<Option<Node<G::Move>>> = self.nodes.into_iter().map(Some).collect();
        let mut nodes = Vec::new();
        let mut queue = std::collections::VecDeque::from([child]);
        while let Some(index) = queue.pop_front() {
            let mut node = old[index as usize].take().expect("a tree has no shared nodes");
            let first = (nodes.len() + queue.len() + 1) as u32;
            queue.extend(node.children.iter().copied());
            node.children = (first..first + node.children.len() as u32).collect();
            nodes.push(node);
        }
        self.nodes = nodes;
        Some(self)
    }

    fn iterate(&mut self, path: &mut Vec<u32>, rng: &mut AiRng) {
        let mut state = self.root_state.clone();
        path.clear();
        path.push(0);
        let mut node = 0usize;
        loop {
            if self.nodes[node].visits > 0 && self.nodes[node].untried.is_none() {
                self.nodes[node].untried = Some(state.candidate_moves());
            }
            let Some(untried) = self.nodes[node].untried.as_mut() else { break };
            if !untried.is_empty() {
                let mv = untried.swap_remove(rng.random_range(0..untried.len()));
                let mover = state.mover(&mv).unwrap_or(Seat::One);
                let key = state.move_key(&mv).map(|k| k as u32);
                state.play_unchecked(&mv);
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new(Some(mv), mover, key));
                self.nodes[node].children.push(child);
                path.push(child);
                break;
            }
            let Some(child) = self.select(node) else { break };
            state.play_unchecked(self.nodes[child as usize].mv.as_ref().expect("children have moves"));
            path.push(child);
            node = child as usize;
        }
        for set in &mut self.seen {
            set.fill(0);
        }
        let seen = &mut self.seen;
        let reward = state.playout(rng, &mut |seat, key| seen[seat.index()][key / 64] |= 1 << (key % 64));
        self.backpropagate(path, reward);
    }

    /// The child of `node` to explore next: the best blend of its own mean, its shared (RAVE) mean
    /// and an exploration bonus.
    fn select(&self, node: usize) -> Option<u32> {
        let parent = &self.nodes[node];
        let log_visits = ln(parent.visits.max(1));
        let exploration = if self.rave { RAVE_EXPLORATION } else { UCT_EXPLORATION };
        let score = |child: u32| {
            let child = &self.nodes[child as usize];
            let n = child.visits.max(1) as f32;
            let mean = child.wins / n;
            let blended = if self.rave && child.shared_visits > 0 {
                let shared = child.shared_visits as f32;
                let beta = shared / (n + shared + RAVE_BIAS * n * shared);
                (1.0 - beta) * mean + beta * (child.shared_wins / shared)
            } else {
                mean
            };
            blended + exploration * (log_visits / n).sqrt()
        };
        parent.children.iter().copied().reduce(|best, c| if score(c) > score(best) { c } else { best })
    }

    fn backpropagate(&mut self, path: &[u32], reward: f32) {
        for &index in path.iter().rev() {
            let index = index as usize;
            if self.rave {
                let children = std::mem::take(&mut self.nodes[index].children);
                for &child in &children {
                    let child = &mut self.nodes[child as usize];
                    if let Some(key) = child.key {
                        let key = key as usize;
                        if self.seen[child.mover.index()][key / 64] & (1 << (key % 64)) != 0 {
                            child.shared_visits += 1;
                            child.shared_wins += reward_for(child.mover, reward);
                        }
                    }
                }
                self.nodes[index].children = children;
            }
            let node = &mut self.nodes[index];
            node.visits += 1;
            node.wins += reward_for(node.mover, reward);
            // The move into this node was played after its parent's position.
            if let Some(key) = node.key {
                let key = key as usize;
                self.seen[node.mover.index()][key / 64] |= 1 << (key % 64);
            }
        }
    }
}

/// The natural logarithm from the exponent and a linear mantissa (within 0.06): UCT needs only its
/// shape, and basic arithmetic keeps the search identical on every platform, where `f32::ln` is a
/// library call that may round differently.
fn ln(n: u32) -> f32 {
    let exponent = 31 - n.leading_zeros();
    let mantissa = (n - (1 << exponent)) as f32 / (1u64 << exponent) as f32;
    (exponent as f32 + mantissa) * std::f32::consts::LN_2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logarithm_stays_close_to_the_true_one() {
        for n in [1u32, 2, 3, 7, 100, 1_000, 65_537, 1_000_000, u32::MAX] {
            let error = (ln(n) - (n as f32).ln()).abs();
            assert!(error < 0.06, "ln({n}) off by {error}");
        }
    }
}
