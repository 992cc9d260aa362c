//! The tree search: UCT with optional RAVE (all-moves-as-first statistics shared between equal
//! moves, blended out as real visits grow), an arena of nodes, expansion one child per playout
//! (every candidate tried once in random order, or, where the game gives priors, all candidates
//! at once, their priors standing in for those first tries; a game may also give the untried
//! candidates their edges once a node is visited often enough), re-rooting below a played move so
//! the next search starts from what was learnt, and, to choose a move, a stop once the playouts
//! left could not change the most visited one.

use rand::seq::SliceRandom;
use rand::Rng;

use super::{reward_for, AiRng, Prior, Searchable};
use crate::game::Seat;

/// Exploration weight of plain UCT (Kocsis and Szepesvári's 1/sqrt(2) for rewards in 0..1).
const UCT_EXPLORATION: f32 = 0.7;
/// Silver's RAVE bias `4 b^2` with b = 0.1: how fast real visits take over from shared ones.
const RAVE_BIAS: f32 = 0.04;
/// Playouts between two looks at whether the search is decided ([`Mcts::is_decided`]).
const DECIDED_CHECK_EVERY: u32 = 64;
/// The child of an edge whose position no playout has reached yet.
const UNMADE: u32 = u32::MAX;

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

/// A move searched from a node, with its statistics. A node's edges sit side by side, so
/// choosing among them and crediting their shared statistics reads one small array (the nodes
/// they lead to are scattered over the arena, in the order they were made).
struct Edge<M> {
    mv: M,
    /// Who makes the move.
    mover: Seat,
    key: Option<u32>,
    /// The node of the position after the move ([`UNMADE`] until a playout goes there).
    child: u32,
    visits: u32,
    wins: f32,
    /// `1 / sqrt(max(visits, 1))`, kept up to date so choosing needs no square root per edge.
    inv_sqrt_visits: f32,
    shared_visits: u32,
    shared_wins: f32,
}

impl<M> Edge<M> {
    /// An edge not yet taken, its own statistics starting from `prior` (made-up playouts that
    /// real ones outweigh as they come, as Pachi and Fuego count theirs).
    fn new<G: Searchable<Move = M>>(state: &G, mv: M, prior: Prior) -> Self {
        Edge {
            mover: state.mover(&mv).unwrap_or(Seat::One),
            key: state.move_key(&mv).map(|k| k as u32),
            mv,
            child: UNMADE,
            visits: prior.visits,
            wins: prior.wins,
            inv_sqrt_visits: inv_sqrt(prior.visits),
            shared_visits: 0,
            shared_wins: 0.0,
        }
    }
}

/// An edge's `inv_sqrt_visits`.
fn inv_sqrt(visits: u32) -> f32 {
    1.0 / (visits.max(1) as f32).sqrt()
}

struct Node<M> {
    edges: Vec<Edge<M>>,
    /// Candidate moves not yet given an edge; computed on the node's second visit (and empty at
    /// once where the game gives priors: every candidate gets its edge then).
    untried: Option<Vec<M>>,
    visits: u32,
    /// The reward of a settled position ([`Searchable::is_settled`]), once found: later visits
    /// take it without replaying the way there.
    settled: Option<f32>,
}

impl<M> Node<M> {
    fn new() -> Self {
        Node { edges: Vec::new(), untried: None, visits: 0, settled: None }
    }
}

/// A search tree over positions of `G`, rooted at a position.
pub struct Mcts<G: Searchable> {
    root_state: G,
    nodes: Vec<Node<G::Move>>,
    /// Shares statistics between equal moves, and plays the game's own playouts (not a plain UCT).
    rave: bool,
    /// Moves seen in the current playout, per seat, as bit sets over the game's keys.
    seen: [Vec<u64>; 2],
}

impl<G: Searchable> Mcts<G> {
    /// A search from `root_state` (best a [`Searchable::search_copy`]); `plain` makes it the plain
    /// UCT yardstick: no RAVE, uniformly random playouts.
    pub fn new(root_state: G, plain: bool) -> Self {
        let words = root_state.key_space().div_ceil(64);
        Mcts { root_state, nodes: vec![Node::new()], rave: !plain, seen: [vec![0; words], vec![0; words]] }
    }

    /// Runs `playouts` more playouts from the root.
    pub fn search(&mut self, playouts: u32, rng: &mut AiRng) -> SearchStats {
        self.search_playouts(playouts, false, rng)
    }

    /// Runs up to `playouts` more playouts from the root, stopping once the remaining ones could
    /// not change the most visited move: the same choice as [`Mcts::search`]'s for less time (the
    /// root's values are then those of fewer playouts).
    pub fn search_until_decided(&mut self, playouts: u32, rng: &mut AiRng) -> SearchStats {
        self.search_playouts(playouts, true, rng)
    }

    fn search_playouts(&mut self, playouts: u32, until_decided: bool, rng: &mut AiRng) -> SearchStats {
        let mut path = Vec::new();
        let mut done = 0;
        while done < playouts {
            if until_decided && done % DECIDED_CHECK_EVERY == 0 && self.is_decided(playouts - done) {
                break;
            }
            self.iterate(&mut path, rng);
            done += 1;
        }
        let root = &self.nodes[0];
        let (confidence, value) = self.best_edge().map_or((0.0, 0.5), |best| {
            (best.visits as f32 / root.visits.max(1) as f32, best.wins / best.visits.max(1) as f32)
        });
        SearchStats { playouts: done, nodes: self.nodes.len() as u32, confidence, value }
    }

    /// The mean reward for the side to move over all the root's playouts: below the best move's
    /// mean, as it counts the tries of worse moves too.
    pub fn root_value(&self) -> f32 {
        let (visits, wins) = self.nodes[0].edges.iter().fold((0, 0.0), |(v, w), e| (v + e.visits, w + e.wins));
        wins / visits.max(1) as f32
    }

    /// The most visited move at the root, if any was searched.
    pub fn best_move(&self) -> Option<G::Move> {
        self.best_edge().map(|edge| edge.mv.clone())
    }

    /// Whether the root's most visited move leads the next by more than `remaining` visits: no
    /// way of spending them can make another the most visited.
    fn is_decided(&self, remaining: u32) -> bool {
        let (mut first, mut second) = (0, 0);
        for edge in &self.nodes[0].edges {
            if edge.visits > first {
                (first, second) = (edge.visits, first);
            } else if edge.visits > second {
                second = edge.visits;
            }
        }
        first - second > remaining
    }

    fn best_edge(&self) -> Option<&Edge<G::Move>> {
        // Ties go to the first edge, so the choice depends only on the search.
        self.nodes[0].edges.iter().reduce(|best, e| if e.visits > best.visits { e } else { best })
    }

    /// The tree below `mv` (the position after it), or `None` if the search never tried `mv`.
    pub fn descend(mut self, mv: &G::Move) -> Option<Self> {
        let child = self.nodes[0].edges.iter().find(|e| &e.mv == mv)?.child;
        if child == UNMADE {
            return None;
        }
        self.root_state.play_unchecked(mv);
        // Copy the subtree out in breadth-first order, renumbering the edges' nodes.
        let mut old: Vec<Option<Node<G::Move>>> = self.nodes.into_iter().map(Some).collect();
        let mut nodes = Vec::new();
        let mut queue = std::collections::VecDeque::from([child]);
        while let Some(index) = queue.pop_front() {
            let mut node = old[index as usize].take().expect("a tree has no shared nodes");
            // The queued nodes come after this one, in queue order.
            let first = (nodes.len() + queue.len() + 1) as u32;
            for (next, edge) in (first..).zip(node.edges.iter_mut().filter(|edge| edge.child != UNMADE)) {
                queue.push_back(edge.child);
                edge.child = next;
            }
            nodes.push(node);
        }
        self.nodes = nodes;
        Some(self)
    }

    /// One playout: down the tree by [`Mcts::select`], one new edge, a playout, and the result
    /// credited along the way. `path` holds (node, edge) pairs.
    fn iterate(&mut self, path: &mut Vec<(u32, u32)>, rng: &mut AiRng) {
        let mut state = self.root_state.clone();
        path.clear();
        let mut node = 0usize;
        let mut settled = None;
        loop {
            if self.nodes[node].visits > 0 && self.nodes[node].untried.is_none() {
                self.expand(node, &state, rng);
            }
            if G::ALL_EDGES_AT_VISITS.is_some_and(|visits| self.rave && self.nodes[node].visits >= visits) {
                self.add_untried_edges(node, &state);
            }
            let Some(untried) = self.nodes[node].untried.as_mut() else { break };
            if !untried.is_empty() {
                let mv = untried.swap_remove(rng.random_range(0..untried.len()));
                let edge = Edge::new(&state, mv, Prior::NONE);
                state.play_unchecked(&edge.mv);
                let edges = &mut self.nodes[node].edges;
                edges.push(edge);
                let edge = edges.len() - 1;
                path.push((node as u32, edge as u32));
                node = self.make_child(node, edge);
                break;
            }
            let Some(edge) = self.select(node) else { break };
            path.push((node as u32, edge as u32));
            if self.nodes[node].edges[edge].child == UNMADE {
                state.play_unchecked(&self.nodes[node].edges[edge].mv);
                node = self.make_child(node, edge);
                break;
            }
            let child = self.nodes[node].edges[edge].child as usize;
            if let Some(reward) = self.nodes[child].settled {
                (node, settled) = (child, Some(reward));
                break;
            }
            state.play_unchecked(&self.nodes[node].edges[edge].mv);
            node = child;
        }
        for set in &mut self.seen {
            set.fill(0);
        }
        let reward = settled.unwrap_or_else(|| {
            let seen = &mut self.seen;
            let reward =
                state.playout(rng, !self.rave, &mut |seat, key| seen[seat.index()][key / 64] |= 1 << (key % 64));
            if state.is_settled() {
                self.nodes[node].settled = Some(reward);
            }
            reward
        });
        self.nodes[node].visits += 1;
        self.backpropagate(path, reward);
    }

    /// A node's candidates, on its second visit: kept to be given an edge one per playout, or,
    /// where the game has priors for them (and this is not the plain yardstick), every one an edge
    /// at once, shuffled so that equal priors favour no corner of the board.
    fn expand(&mut self, node: usize, state: &G, rng: &mut AiRng) {
        let moves = state.candidate_moves();
        let priors = if self.rave { state.priors(&moves) } else { None };
        let Some(priors) = priors else {
            self.nodes[node].untried = Some(moves);
            return;
        };
        let mut edges: Vec<Edge<G::Move>> =
            moves.into_iter().zip(priors).map(|(mv, prior)| Edge::new(state, mv, prior)).collect();
        edges.shuffle(rng);
        self.nodes[node].edges = edges;
        self.nodes[node].untried = Some(Vec::new());
    }

    /// Gives every candidate of `node` not yet tried its edge, with no statistics of its own yet.
    fn add_untried_edges(&mut self, node: usize, state: &G) {
        let node = &mut self.nodes[node];
        let untried = node.untried.as_mut().map(std::mem::take).unwrap_or_default();
        node.edges.extend(untried.into_iter().map(|mv| Edge::new(state, mv, Prior::NONE)));
    }

    /// A new node for the position after `node`'s `edge`, returned.
    fn make_child(&mut self, node: usize, edge: usize) -> usize {
        let child = self.nodes.len();
        self.nodes.push(Node::new());
        self.nodes[node].edges[edge].child = child as u32;
        child
    }

    /// The edge of `node` to explore next: the best blend of its own mean, its shared (RAVE) mean
    /// and an exploration bonus.
    fn select(&self, node: usize) -> Option<usize> {
        let parent = &self.nodes[node];
        let exploration = if self.rave { G::RAVE_EXPLORATION } else { UCT_EXPLORATION };
        let bonus = exploration * ln(parent.visits.max(1)).sqrt();
        let score = |edge: &Edge<G::Move>| {
            // An edge no playout has taken yet (made with priors) is judged by its priors alone.
            let n = edge.visits as f32;
            let mean = edge.wins / n.max(1.0);
            let blended = if self.rave && edge.shared_visits > 0 {
                let shared = edge.shared_visits as f32;
                let beta = shared / (n + shared + RAVE_BIAS * n * shared);
                (1.0 - beta) * mean + beta * (edge.shared_wins / shared)
            } else {
                mean
            };
            blended + bonus * edge.inv_sqrt_visits
        };
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for (i, edge) in parent.edges.iter().enumerate() {
            let s = score(edge);
            if best.is_none() || s > best_score {
                (best, best_score) = (Some(i), s);
            }
        }
        best
    }

    /// Credits `reward` along `path`, from the new edge up: each edge its real result, and with RAVE
    /// every edge of each node on the way whose move its mover made later on (in the tree below, or
    /// in the playout) its shared one.
    fn backpropagate(&mut self, path: &[(u32, u32)], reward: f32) {
        for &(node, edge) in path.iter().rev() {
            let node = &mut self.nodes[node as usize];
            let taken = &mut node.edges[edge as usize];
            taken.visits += 1;
            taken.wins += reward_for(taken.mover, reward);
            taken.inv_sqrt_visits = inv_sqrt(taken.visits);
            // The move taken here was played after this node's position.
            if let Some(key) = taken.key {
                let key = key as usize;
                self.seen[taken.mover.index()][key / 64] |= 1 << (key % 64);
            }
            if self.rave {
                // Without branches: whether a move was seen is a coin toss the processor cannot
                // predict. Adding 0 changes nothing, so this equals crediting only the seen ones.
                let rewards = [reward_for(Seat::One, reward), reward_for(Seat::Two, reward)];
                for edge in &mut node.edges {
                    if let Some(key) = edge.key {
                        let (key, side) = (key as usize, edge.mover.index());
                        let hit = (self.seen[side][key / 64] >> (key % 64)) as u32 & 1;
                        edge.shared_visits += hit;
                        edge.shared_wins += hit as f32 * rewards[side];
                    }
                }
            }
            node.visits += 1;
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
    use rand::SeedableRng;

    use super::*;
    use crate::game::Game;
    use crate::go::{Go, GoConfig};
    use crate::popucom::Popucom;

    #[test]
    fn priors_start_a_moves_own_statistics_and_leave_the_shared_ones_to_real_playouts() {
        let game = Go::new(GoConfig::default()).unwrap();
        let priors = game.priors(&game.candidate_moves()).unwrap();
        assert!(priors.iter().all(|prior| prior.visits >= 10), "{priors:?}");
        // The root is expanded on its second visit and one edge taken by the second playout.
        let mut tree = Mcts::new(game.clone(), false);
        tree.search(2, &mut AiRng::seed_from_u64(1));
        let edges = &tree.nodes[0].edges;
        assert_eq!(edges.len(), priors.len());
        for (mv, prior) in game.candidate_moves().into_iter().zip(priors) {
            let edge = edges.iter().find(|edge| edge.mv == mv).unwrap();
            let taken = (edge.child != UNMADE) as u32;
            assert_eq!(edge.visits, prior.visits + taken, "{mv:?}");
            assert!((0.0..=taken as f32).contains(&(edge.wins - prior.wins)), "{mv:?}");
            assert!(edge.shared_visits <= 1, "{mv:?}: {} shared visits after one playout", edge.shared_visits);
        }
        assert_eq!(edges.iter().filter(|edge| edge.child != UNMADE).count(), 1);
    }

    #[test]
    fn a_node_visited_often_enough_has_an_edge_for_every_candidate() {
        let game = Popucom::new(Default::default()).unwrap();
        let at = Popucom::ALL_EDGES_AT_VISITS.expect("POPUCOM gives its nodes all their edges");
        let mut tree = Mcts::new(game.clone(), false);
        let mut rng = AiRng::seed_from_u64(1);
        // The root is expanded on its second visit, then gains one edge a playout.
        tree.search(at, &mut rng);
        assert_eq!(tree.nodes[0].edges.len(), at as usize - 1);
        tree.search(1, &mut rng);
        assert_eq!(tree.nodes[0].edges.len(), game.candidate_moves().len());
        // The plain yardstick goes on trying one new candidate a playout.
        let mut plain = Mcts::new(game, true);
        plain.search(at + 1, &mut AiRng::seed_from_u64(1));
        assert_eq!(plain.nodes[0].edges.len(), at as usize);
    }

    #[test]
    fn the_logarithm_stays_close_to_the_true_one() {
        for n in [1u32, 2, 3, 7, 100, 1_000, 65_537, 1_000_000, u32::MAX] {
            let error = (ln(n) - (n as f32).ln()).abs();
            assert!(error < 0.06, "ln({n}) off by {error}");
        }
    }
}
