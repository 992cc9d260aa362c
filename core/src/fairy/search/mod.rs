//! The computer player of the chess variants: the root of an alpha-beta search (iterative
//! deepening, each iteration's best move first, the game's ends and repetitions judged here), the
//! levels, and the player behind JSON. Below the root: `tree.rs` (the search), `table.rs` (the
//! transposition table), `evaluation.rs` (what a position is worth). Random playouts tell little in
//! chess (one capture decides more than a thousand random games), so these games are not searched
//! by MCTS.
//!
//! Deterministic for a seed: moves are searched in a fixed order, and the seed only draws the
//! levels' noise and blunders.

use rand::{Rng, SeedableRng};

use serde_json::Value;

use crate::ai::player::replay;
use crate::ai::reward_for;
use crate::ai::{AiError, AiRng, Choice, Computer, JsonChoice, Judge, Judgement, Playable, SearchStats, Thresholds};
use crate::fairy::{Chess, Move, UciMove};
use crate::game::{Game, Seat};
use tree::Search;

mod evaluation;
mod table;
mod tree;

/// A mate's score; a mate in n plies scores `MATE - n`.
const MATE: i32 = 1_000_000;

/// How strong the chess player is: how deep and how many nodes it searches, how much noise its
/// evaluation has and how often it blunders on purpose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChessLevel {
    pub number: u8,
    /// The deepest full-width iteration.
    pub depth: u8,
    /// Nodes (positions visited, quiescence included) per move; the iteration running when they
    /// are spent is abandoned and the last finished one answers.
    pub nodes: u64,
    /// Chance of a deliberate random move.
    pub blunder: f32,
    /// Up to this many centipawns added to each root move's score, so weak levels misjudge.
    pub noise: i32,
}

impl ChessLevel {
    /// Level `number` (clamped to 1..=5): the top searches about a second in a browser.
    pub fn of(number: u8) -> ChessLevel {
        let number = number.clamp(1, crate::ai::Level::MAX);
        let (depth, nodes, blunder, noise) = match number {
            1 => (1, 2_000, 0.35, 200),
            2 => (2, 10_000, 0.1, 80),
            3 => (3, 30_000, 0.0, 20),
            4 => (4, 100_000, 0.0, 0),
            _ => (64, TOP_NODES, 0.0, 0),
        };
        ChessLevel { number, depth, nodes, blunder, noise }
    }

    /// The level with its node budget divided by `divisor` (at least 500 left), depth, blunders
    /// and noise as they are: the levels' order in short matches.
    pub fn scaled(self, divisor: u32) -> ChessLevel {
        ChessLevel { nodes: (self.nodes / u64::from(divisor.max(1))).max(500), ..self }
    }

    /// A plain full-strength search with a node budget: the yardstick between levels.
    pub fn nodes(nodes: u64) -> ChessLevel {
        ChessLevel { number: 0, depth: 64, nodes, blunder: 0.0, noise: 0 }
    }
}

/// The top level's nodes per move: under a second in Chromium on the project's 2-core machine
/// (docs/AI.md; 400,000 before the move generator's pins, 800,000 before the quiescence search's
/// captures-only moves and the keys made from the move, each of which made a node cheaper).
const TOP_NODES: u64 = 1_200_000;

/// What bounds one search besides the level: a depth, a node budget, and a question asked every
/// 1,024 nodes whether to stop now (a clock, for UCI's `movetime`; the engine itself reads none).
pub struct Limits<'a> {
    pub depth: u8,
    pub nodes: u64,
    pub stop: Option<&'a dyn Fn() -> bool>,
}

/// A search's result: the move, how deep the search finished, and its score for the side to move
/// in centipawns (mates near `±1,000,000`).
pub struct ChessSearch {
    pub choice: Choice<UciMove>,
    pub depth: u8,
    pub score: i32,
}

/// A chess player across a game.
pub struct ChessSearcher {
    level: ChessLevel,
    rng: AiRng,
}

impl ChessSearcher {
    pub fn new(level: ChessLevel, seed: u64) -> Self {
        ChessSearcher { level, rng: AiRng::seed_from_u64(seed) }
    }

    pub fn level(&self) -> ChessLevel {
        self.level
    }

    /// A move for the side to move, or `None` if the game is over.
    pub fn choose(&mut self, game: &Chess) -> Option<Choice<UciMove>> {
        let limits = Limits { depth: self.level.depth, nodes: self.level.nodes, stop: None };
        self.search(game, &limits).map(|search| search.choice)
    }

    /// The same within `limits` instead of the level's depth and nodes (its noise and blunders
    /// still apply).
    pub fn search(&mut self, game: &Chess, limits: &Limits) -> Option<ChessSearch> {
        if game.status().is_over() {
            return None;
        }
        let variant = game.variant();
        let root = game.position();
        let mut search = Search::new(variant, root, limits.nodes, limits.stop);
        // Root moves in name order (as the game lists them), each with the game it leads to, so
        // that the game's ends count at the root. A move back to a position met before scores as
        // a draw: the opponent could repeat it a third time, so a side ahead avoids it and a side
        // behind seeks it.
        let mut moves: Vec<(UciMove, Move, i32)> = game
            .legal_pairs()
            .iter()
            .map(|(uci, mv)| {
                let noise = if self.level.noise > 0 { self.rng.random_range(0..=self.level.noise) } else { 0 };
                (UciMove(uci.clone()), *mv, noise)
            })
            .collect();
        let ends: Vec<Option<i32>> = moves
            .iter()
            .map(|(uci, _, _)| {
                let mut after = game.clone();
                after.play_unchecked(uci);
                let end = after.status().outcome().map(|outcome| match outcome.winner {
                    None => 0,
                    Some(winner) if winner == game.status().to_move().expect("in play") => MATE - 1,
                    Some(_) => -MATE + 1,
                });
                end.or((after.repetitions() >= 2).then_some(0))
            })
            .collect();
        // The tree's order for the first iteration (captures first); then each iteration's best
        // moves to the front: the likeliest to cut the others short.
        let mut first: Vec<Move> = moves.iter().map(|&(_, mv, _)| mv).collect();
        search.order(root, &mut first, None, 0);
        let mut order: Vec<usize> =
            first.iter().map(|mv| moves.iter().position(|m| m.1 == *mv).expect("a root move")).collect();
        let mut best = order[0];
        let mut best_score = -MATE;
        let mut depth_done = 0;
        for depth in 1..=limits.depth.max(1) {
            let depth_left = i32::from(depth) - 1;
            search.start_at(root);
            let mut alpha = -MATE - 1;
            let mut iteration_best = None;
            for (k, &i) in order.iter().enumerate() {
                let (_, mv, noise) = moves[i];
                // The noise shifts the window too: a bound the child proves plus noise is no score.
                let child = || {
                    let child = root.after(variant, mv);
                    (child, table::key(variant, &child))
                };
                let score = match ends[i] {
                    Some(end) => end,
                    None if k == 0 => {
                        let (child, key) = child();
                        -search.negamax(&child, key, depth_left, 1, -MATE - 1, noise - alpha)
                    }
                    None => {
                        // The others only have to be shown no better; one that is gets its score.
                        let (child, key) = child();
                        let bound = -search.negamax(&child, key, depth_left, 1, noise - alpha - 1, noise - alpha);
                        if bound + noise > alpha {
                            -search.negamax(&child, key, depth_left, 1, -MATE - 1, noise - alpha)
                        } else {
                            bound
                        }
                    }
                } + noise;
                if search.out_of_budget() {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iteration_best = Some(i);
                }
            }
            if search.out_of_budget() {
                // A half-finished iteration's best is still better than the last one's when it
                // was searched first and then beaten.
                if let Some(i) = iteration_best.filter(|_| depth_done > 0 && alpha > best_score) {
                    best = i;
                    best_score = alpha;
                }
                break;
            }
            if let Some(i) = iteration_best {
                best = i;
                best_score = alpha;
                order.retain(|&j| j != i);
                order.insert(0, i);
            }
            depth_done = depth;
            if best_score.abs() >= MATE - 100 {
                break;
            }
        }
        let blundered = self.level.blunder > 0.0 && self.rng.random::<f32>() < self.level.blunder;
        let chosen = if blundered { self.rng.random_range(0..moves.len()) } else { best };
        let stats = SearchStats {
            playouts: 0,
            nodes: search.nodes.min(u32::MAX as u64) as u32,
            confidence: f32::from(depth_done),
            value: expected_score(best_score),
        };
        let choice = Choice { mv: moves.swap_remove(chosen).0, stats, blundered };
        Some(ChessSearch { choice, depth: depth_done, score: best_score })
    }
}

/// A score in centipawns as the chance of winning (0 to 1), as players read an evaluation:
/// `1 / (1 + 10^(-cp / 400))`. The power is taken by squaring, multiplications only, so it is the
/// same on every target (the maths library's `powf` differs in the last bit on wasm32).
fn expected_score(centipawns: i32) -> f32 {
    /// 10^(1/400).
    const STEP: f64 = 1.005_773_063_001_738_2;
    let centipawns = centipawns.clamp(-2000, 2000);
    let (mut power, mut base, mut exponent) = (1.0f64, STEP, centipawns.unsigned_abs());
    while exponent > 0 {
        if exponent & 1 == 1 {
            power *= base;
        }
        base *= base;
        exponent >>= 1;
    }
    let ten_to_minus_x = if centipawns >= 0 { 1.0 / power } else { power };
    (1.0 / (1.0 + ten_to_minus_x)) as f32
}

// The chess player behind JSON (`AnyPlayer`): the alpha-beta search at each level.
impl Playable for Chess {
    fn computer(level: u8, divisor: u32, seed: u64) -> Box<dyn Computer> {
        Box::new(ChessSearcher::new(ChessLevel::of(level).scaled(divisor), seed))
    }

    fn yardstick(playouts: u32, seed: u64) -> Box<dyn Computer> {
        Box::new(ChessSearcher::new(ChessLevel::nodes(u64::from(playouts)), seed))
    }

    fn judge(level: u8, seed: u64) -> (Box<dyn Judge<Chess>>, Thresholds) {
        let level = ChessLevel { blunder: 0.0, noise: 0, ..ChessLevel::of(level) };
        (Box::new(ChessSearcher::new(level, seed)), Thresholds::CHESS)
    }
}

impl Judge<Chess> for ChessSearcher {
    fn judge(&mut self, game: &Chess, _history: &[UciMove]) -> Judgement<UciMove> {
        let mover = game.status().to_move().unwrap_or(Seat::One);
        match self.choose(game) {
            Some(choice) => Judgement { first_chance: reward_for(mover, choice.stats.value), best: Some(choice.mv) },
            None => Judgement { first_chance: 0.5, best: None },
        }
    }
}

impl Computer for ChessSearcher {
    fn choose(&mut self, config: &Value, moves: &[Value], _seat: Option<Seat>) -> Result<Option<JsonChoice>, AiError> {
        let (game, _) = replay::<Chess>(config, moves)?;
        Ok(ChessSearcher::choose(self, &game).map(JsonChoice::of))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairy::ChessConfig;

    fn game(fen: &str) -> Chess {
        Chess::new(ChessConfig { fen: Some(fen.into()), ..ChessConfig::default() }).unwrap()
    }

    fn best(fen: &str, level: ChessLevel) -> String {
        ChessSearcher::new(level, 1).choose(&game(fen)).unwrap().mv.0
    }

    #[test]
    fn the_evaluation_reads_as_the_logistic_chance_of_winning() {
        for centipawns in (-2100..=2100).step_by(7) {
            let x = f64::from(centipawns.clamp(-2000, 2000)) / 400.0;
            let library = 1.0 / (1.0 + 10f64.powf(-x));
            let ours = f64::from(expected_score(centipawns));
            assert!((ours - library).abs() < 1e-6, "{centipawns}: {ours} against {library}");
        }
        assert_eq!(expected_score(0), 0.5);
    }

    #[test]
    fn it_mates_in_one_and_in_two() {
        // Back-rank mate.
        assert_eq!(best("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", ChessLevel::of(3)), "a1a8");
        // Mate in two with the rook ladder: Rb7 then Ra8#... any mating line; check the result.
        let mut position = game("k7/8/8/8/8/8/1R6/1R4K1 w - - 0 1");
        let mut searcher = ChessSearcher::new(ChessLevel::of(5), 3);
        for _ in 0..3 {
            if position.status().is_over() {
                break;
            }
            let mv = searcher.choose(&position).unwrap().mv;
            position.play_unchecked(&mv);
            if position.status().is_over() {
                break;
            }
            let reply = ChessSearcher::new(ChessLevel::of(5), 4).choose(&position).unwrap().mv;
            position.play_unchecked(&reply);
        }
        let status = position.status();
        let outcome = status.outcome().expect("mated within two moves");
        assert_eq!(outcome.reason, "checkmate");
        assert_eq!(outcome.winner, Some(crate::Seat::One));
    }

    #[test]
    fn it_takes_a_hanging_queen_and_does_not_hang_its_own() {
        assert_eq!(best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", ChessLevel::of(3)), "d2d5");
        // The queen on d4 is attacked by a pawn: it moves away (any square not defended by e5).
        let mv = best("4k3/8/8/4p3/3Q4/8/8/4K3 w - - 0 1", ChessLevel::of(3));
        assert!(mv.starts_with("d4"), "{mv}");
        let after = {
            let mut g = game("4k3/8/8/4p3/3Q4/8/8/4K3 w - - 0 1");
            g.play_unchecked(&UciMove(mv.clone()));
            g
        };
        let reply = ChessSearcher::new(ChessLevel::of(4), 2).choose(&after).unwrap().mv.0;
        assert!(!reply.starts_with("e5") || !mv.ends_with(&reply[2..4]), "{mv} then {reply}: the queen hangs");
    }

    #[test]
    fn a_side_ahead_does_not_go_back_to_a_position_met_before() {
        // White, a rook up, plays its choice; Black answers; both move back: the start stands a
        // second time, and the same choice would let Black repeat it into a draw.
        let start = game("6k1/8/8/8/8/8/8/R5K1 w - - 0 1");
        let level = ChessLevel::nodes(20_000);
        let first = ChessSearcher::new(level, 1).choose(&start).unwrap().mv;
        let back = |mv: &UciMove| UciMove(format!("{}{}", &mv.0[2..4], &mv.0[0..2]));
        let mut after_first = start.clone();
        after_first.play(&first).unwrap();
        let again = after_first
            .legal_pairs()
            .iter()
            .map(|(reply, _)| UciMove(reply.clone()))
            .find_map(|reply| {
                let mut again = after_first.clone();
                again.play(&reply).ok()?;
                again.play(&back(&first)).ok()?;
                again.play(&back(&reply)).ok()?;
                Some(again)
            })
            .expect("a reply both sides can take back");
        assert_eq!((again.fen(), again.repetitions()), (start.fen().replace(" 0 1", " 4 3"), 2));
        let second = ChessSearcher::new(level, 1).choose(&again).unwrap().mv;
        assert_ne!(second, first, "the position after {first:?} was met before");
    }

    #[test]
    fn the_top_level_sees_deep_enough_to_play_chess() {
        // Before the transposition table, null moves and late-move reductions, 400,000 nodes (the
        // top level's budget then) finished 5 plies here; a club player's tactics need more.
        let kiwipete = game("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let limits = Limits { depth: 64, nodes: 400_000, stop: None };
        let search = ChessSearcher::new(ChessLevel::of(5), 1).search(&kiwipete, &limits).unwrap();
        assert!(search.depth >= 7, "{} plies", search.depth);
        let start = Chess::new(ChessConfig::default()).unwrap();
        let search = ChessSearcher::new(ChessLevel::of(5), 1).search(&start, &limits).unwrap();
        assert!(search.depth >= 8, "{} plies", search.depth);
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        let play = |seed| {
            let mut position = Chess::new(ChessConfig::default()).unwrap();
            let mut players =
                [ChessSearcher::new(ChessLevel::of(2), seed), ChessSearcher::new(ChessLevel::of(2), seed + 1)];
            let mut moves = Vec::new();
            for ply in 0..12 {
                let mv = players[ply % 2].choose(&position).unwrap().mv;
                position.play_unchecked(&mv);
                moves.push(mv.0);
            }
            moves
        };
        assert_eq!(play(5), play(5));
    }

    #[test]
    fn fairy_pieces_without_values_are_searched_too() {
        // Capablanca: the archbishop and the chancellor get estimated values; a hanging chancellor
        // is taken.
        let config = ChessConfig {
            variant: "capablanca".into(),
            fen: Some("4k5/10/10/4c5/10/10/4R5/4K5 w - - 0 1".into()),
            ..ChessConfig::default()
        };
        let position = Chess::new(config).unwrap();
        let mv = ChessSearcher::new(ChessLevel::of(3), 1).choose(&position).unwrap().mv.0;
        assert_eq!(mv, "e2e5");
    }
}
