//! Computer opponents: one Monte Carlo tree search for the placing games ([`Mcts`]), fed by each
//! game's playout policy ([`Searchable`]), an alpha-beta search for the chess variants
//! ([`ChessSearcher`]), and five levels of strength per game ([`Level`], [`ChessLevel`]).
//!
//! Deterministic: a search draws only from a `Xoshiro256PlusPlus` seeded by its caller (the same
//! stream on native and wasm32, unlike `SmallRng`) and uses only `+ - * / sqrt`, which IEEE 754
//! rounds the same everywhere. So a game against the computer replays exactly from its seed.
//!
//! ```
//! use tabula_core::ai::{Level, Searcher};
//! use tabula_core::popucom::Popucom;
//! use tabula_core::Game;
//!
//! let game = Popucom::new(Default::default()).unwrap();
//! let mut searcher = Searcher::new(Level::of::<Popucom>(2), 7);
//! let choice = searcher.choose(&game, &[]).unwrap();
//! assert!(game.is_legal(&choice.mv));
//! ```

mod mcts;
pub(crate) mod player;
mod review;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub use crate::fairy::search::{ChessLevel, ChessSearch, ChessSearcher, Limits};
use crate::game::{Game, Seat, Status};
pub use crate::go::ai::scoring_move;
pub use mcts::{Mcts, SearchStats};
pub use player::{error_reply, review_game, AiError, AiRequest, AnyPlayer, Computer, JsonChoice, Playable};
pub use review::{review, Judge, Judgement, Mark, Mistake, Review, Thresholds};

/// The generator every search draws from.
pub type AiRng = Xoshiro256PlusPlus;

/// What a search needs from a game beyond [`Game`]: the moves worth searching, a fast playout to
/// the end, and a small number naming each move for the all-moves-as-first statistics (RAVE).
pub trait Searchable: Game {
    /// The top level's playouts per move: about a second for a move in Chromium on the project's
    /// 2-core machine (measured by the browser test `cli/tests/e2e/computer.rs`; docs/AI.md).
    const TOP_PLAYOUTS: u32;

    /// The weight of UCT's exploration bonus when the search blends in shared (RAVE) statistics,
    /// which already spread it. Plain UCT always uses Kocsis and Szepesvári's.
    const RAVE_EXPLORATION: f32 = 0.25;

    /// Where the game gives no [`Searchable::priors`]: from this many visits of a node on, every
    /// candidate not yet tried has its edge, chosen by its shared (RAVE) statistics instead of
    /// waiting for its turn in random order. `None` (the default): each is tried once first.
    const ALL_EDGES_AT_VISITS: Option<u32> = None;

    /// How many distinct [`Searchable::move_key`]s there can be (keys are below it).
    fn key_space(&self) -> usize;

    /// A small number for `mv` that means "the same move" wherever it is played (POPUCOM's cell),
    /// or `None` for moves RAVE should not share (a pass).
    fn move_key(&self, mv: &Self::Move) -> Option<usize>;

    /// The moves the tree considers: legal, but without moves no player wants searched (Go's
    /// resignation, filling one's own eye). Empty only when the game is over.
    fn candidate_moves(&self) -> Vec<Self::Move> {
        self.legal_moves()
    }

    /// What the game knows of `moves` (this position's candidates) before searching them, one
    /// [`Prior`] each: the tree then gives every candidate its edge at once and chooses among them
    /// from the first playout. `None` (the default): each candidate is tried once, in random order,
    /// before any is tried again.
    fn priors(&self, moves: &[Self::Move]) -> Option<Vec<Prior>> {
        let _ = moves;
        None
    }

    /// Plays on from this position with the game's playout policy (or, if `uniform`, uniformly
    /// random moves, as the plain UCT yardstick plays) and returns seat one's reward (1 win, 0.5
    /// draw, 0 loss, or between where a playout is cut short and judged), calling
    /// `played(seat, key)` for each keyed move of the playout.
    fn playout(&self, rng: &mut AiRng, uniform: bool, played: &mut dyn FnMut(Seat, usize)) -> f32;

    /// The position as a search keeps it: it only ever plays forward, so a game may leave out what
    /// only undo needs (the search copies it for every playout).
    fn search_copy(&self) -> Self {
        self.clone()
    }

    /// The answer where the search has nothing to decide (Go's scoring phase: the marking as
    /// `seat`, by default the side to move, sees it), `Some(None)` for nothing to do; `None` to search.
    fn unsearched_move(&self, seat: Option<Seat>) -> Option<Option<Self::Move>> {
        let _ = seat;
        None
    }

    /// Whether [`Searchable::playout`] from here always gives the same reward and records no move
    /// (the game is over), so the search may keep it instead of reaching the position again.
    fn is_settled(&self) -> bool {
        self.status().is_over()
    }
}

/// Knowledge of a move before the search tries it, as made-up playouts through it counted as its
/// own: `wins` of `visits` for the side making it. Real playouts outweigh them as they come.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    pub visits: u32,
    pub wins: f32,
}

impl Prior {
    pub const NONE: Prior = Prior { visits: 0, wins: 0.0 };
}

/// Seat one's reward for a finished game.
pub fn reward(status: &Status) -> Option<f32> {
    status.outcome().map(|outcome| match outcome.winner {
        Some(Seat::One) => 1.0,
        Some(Seat::Two) => 0.0,
        None => 0.5,
    })
}

/// `playouts` playouts from `game` exactly as a search plays them (its policy, its generator
/// seeded with `seed`), and the sum of seat one's rewards: the same sum on every target, since the
/// generator and the rules are. For timing playouts where the search runs (the browser's worker)
/// against the native build.
pub fn playout_reward_sum<G: Searchable>(game: &G, playouts: u32, seed: u64) -> f64 {
    let mut rng = AiRng::seed_from_u64(seed);
    (0..playouts).map(|_| f64::from(game.playout(&mut rng, false, &mut |_, _| {}))).sum()
}

/// How strong a computer player is: how many playouts it thinks for and how often it blunders on
/// purpose (plays a random candidate instead of its search's choice).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// 1 (weakest) to [`Level::MAX`].
    pub number: u8,
    pub playouts: u32,
    /// Chance of a deliberate random move, so the weakest levels lose to beginners.
    pub blunder: f32,
    /// A plain UCT, the yardstick: no statistics shared between equal moves (RAVE) and uniformly
    /// random playouts.
    pub plain: bool,
}

impl Level {
    pub const MAX: u8 = 5;

    /// Level `number` (clamped to 1..=5) of game `G`: the budgets come from each game's playout cost,
    /// so that the top level thinks about a second in a browser.
    pub fn of<G: Searchable>(number: u8) -> Level {
        let number = number.clamp(1, Level::MAX);
        let top = G::TOP_PLAYOUTS;
        // Below the top: a sixth, a thirtieth, a hundredth, a thousandth of its playouts; the two
        // weakest also blunder.
        let (playouts, blunder) = match number {
            1 => (top / 1000, 0.5),
            2 => (top / 100, 0.2),
            3 => (top / 30, 0.0),
            4 => (top / 6, 0.0),
            _ => (top, 0.0),
        };
        Level { number, playouts: playouts.max(16), blunder, plain: false }
    }

    /// The level with its playouts divided by `divisor` (at least 16 left): the levels' order in
    /// matches short enough for the test command (`tabula arena --a level:5/50`).
    pub fn scaled(self, divisor: u32) -> Level {
        Level { playouts: (self.playouts / divisor.max(1)).max(16), ..self }
    }

    /// A plain UCT player with uniform playouts and no RAVE: the yardstick the levels are measured
    /// against.
    pub fn plain_uct(playouts: u32) -> Level {
        Level { number: 0, playouts, blunder: 0.0, plain: true }
    }
}

/// The computer's answer: the move, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<M> {
    pub mv: M,
    pub stats: SearchStats,
    /// Whether this was a deliberate blunder rather than the search's choice.
    pub blundered: bool,
}

/// A computer player across a game: keeps its search tree between moves (the opponent's reply is
/// usually a line it already explored) and its own random stream.
///
/// A move is answered as soon as the playouts left could not change it; those playouts are still
/// owed to the tree, at the root where they would have been played: [`Searcher::think`] plays them
/// while the opponent thinks, and the next search plays whatever is left first. So the game is the
/// one the full budget plays, move for move, whenever (or whether) the caller thinks between moves.
pub struct Searcher<G: Searchable> {
    level: Level,
    rng: AiRng,
    /// The tree kept from the last search, and the moves from the start that lead to its root.
    tree: Option<(Mcts<G>, Vec<G::Move>)>,
    /// Playouts of the last search not yet played in its tree.
    owed: u32,
}

impl<G: Searchable> Searcher<G> {
    pub fn new(level: Level, seed: u64) -> Self {
        Searcher { level, rng: AiRng::seed_from_u64(seed), tree: None, owed: 0 }
    }

    /// Plays up to `playouts` of the playouts the last move did not need, in its tree; returns how
    /// many are still owed.
    pub fn think(&mut self, playouts: u32) -> u32 {
        match &mut self.tree {
            Some((tree, _)) => {
                let now = self.owed.min(playouts);
                tree.search(now, &mut self.rng);
                self.owed -= now;
            }
            None => self.owed = 0,
        }
        self.owed
    }

    /// Drops the kept tree (and the playouts owed to it): for a caller that cannot give the moves
    /// leading to its next position.
    pub fn forget(&mut self) {
        (self.tree, self.owed) = (None, 0);
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// A move for the side to move in `game`, reached by `history` from the start, or `None` if
    /// the game is over. The tree of the last call is reused when `history` extends the moves that
    /// led to it.
    pub fn choose(&mut self, game: &G, history: &[G::Move]) -> Option<Choice<G::Move>> {
        let candidates = game.candidate_moves();
        if candidates.is_empty() {
            return None;
        }
        let (tree, stats) = self.search(game, history, true);
        let best = tree.best_move().expect("a game with candidates has a best move");
        let blundered = self.level.blunder > 0.0 && self.rng.random::<f32>() < self.level.blunder;
        let mv = if blundered { candidates[self.rng.random_range(0..candidates.len())].clone() } else { best };
        // Kept at this root until the owed playouts are played; the next search moves it down.
        self.owed = self.level.playouts - stats.playouts;
        self.tree = Some((tree, history.to_vec()));
        Some(Choice { mv, stats, blundered })
    }

    /// The tree for `game`, reached by `history`, searched for the level's playouts (or, to
    /// choose a move, until the rest could not change it): the kept tree moved down the moves
    /// played since, or a new one.
    fn search(&mut self, game: &G, history: &[G::Move], to_choose: bool) -> (Mcts<G>, SearchStats) {
        self.think(u32::MAX);
        let kept = self.tree.take().and_then(|(tree, moves)| {
            let since = history.strip_prefix(moves.as_slice())?;
            since.iter().try_fold(tree, |tree, mv| tree.descend(mv))
        });
        let mut tree = kept.unwrap_or_else(|| Mcts::new(game.search_copy(), self.level.plain));
        let stats = if to_choose {
            tree.search_until_decided(self.level.playouts, &mut self.rng)
        } else {
            tree.search(self.level.playouts, &mut self.rng)
        };
        (tree, stats)
    }
}

/// The search's reward for `seat` from seat one's reward.
pub(crate) fn reward_for(seat: Seat, seat_one_reward: f32) -> f32 {
    match seat {
        Seat::One => seat_one_reward,
        Seat::Two => 1.0 - seat_one_reward,
    }
}
