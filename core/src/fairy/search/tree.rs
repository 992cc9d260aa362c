//! The search below the root: principal-variation alpha-beta with a transposition table, null-move
//! pruning, late-move reductions, a check extension, killer and history move ordering, and a
//! quiescence search of captures and promotions.

use crate::fairy::{Move, Position, Variant};

use super::evaluation::Evaluation;
use super::table::{self, Bound, Table};
use super::MATE;

/// Quiescence looks this many captures deep at most (a 12 x 12 board of riders can chain many).
const QUIESCENCE_DEPTH: u8 = 8;
/// Centipawns a ply near the leaves that a quiet move is not expected to change the score by.
const FUTILITY_MARGIN: i32 = 120;
/// Plies from the root the search keeps killers for; deeper nodes (rare: extensions) have none.
const MAX_PLY: usize = 128;
/// A capture whose victim, plus this margin, cannot lift a quiet position to alpha is not searched
/// in quiescence.
const DELTA_MARGIN: i32 = 200;

/// One search: the variant's tables, the node count, and what the tree has learnt so far.
pub(super) struct Search<'a> {
    variant: &'a Variant,
    stop: Option<&'a dyn Fn() -> bool>,
    stopped: bool,
    evaluation: Evaluation<'a>,
    pub nodes: u64,
    budget: u64,
    table: Table,
    /// Per ply, two quiet moves that refuted a sibling (tried early: they often refute again).
    killers: Vec<[Option<Move>; 2]>,
    /// Per side, from and to square: how often (weighted by depth) a quiet move refuted.
    history: Vec<i32>,
    /// The keys of the positions from the root to the node searched, for repetitions.
    path: Vec<u64>,
    /// The ply of the node a null move made, if one is being searched: its side does not pass
    /// again (two passes are the same position, which the path would call a repetition).
    passed_ply: usize,
}

impl<'a> Search<'a> {
    pub fn new(variant: &'a Variant, root: &Position, budget: u64, stop: Option<&'a dyn Fn() -> bool>) -> Search<'a> {
        let squares = Position::square_count(variant);
        Search {
            variant,
            stop,
            stopped: false,
            evaluation: Evaluation::new(variant, root),
            nodes: 0,
            budget,
            table: Table::new(budget),
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; 2 * squares * squares],
            path: Vec::with_capacity(MAX_PLY),
            passed_ply: usize::MAX,
        }
    }

    pub fn out_of_budget(&self) -> bool {
        self.stopped || self.nodes >= self.budget
    }

    /// Counts a node, and every 1,024 nodes asks whether to stop.
    fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes % 1024 == 0 {
            if let Some(stop) = self.stop {
                self.stopped = stop();
            }
        }
    }

    /// Sets the root: the path starts at it.
    pub fn start_at(&mut self, root: &Position) {
        self.path.clear();
        self.path.push(table::key(self.variant, root));
    }

    /// Whether the position at the end of the path stood earlier on it since the last capture or
    /// pawn move (a draw the side behind could claim by repeating).
    fn repeats(&self, key: u64, halfmove: u16) -> bool {
        let back = usize::from(halfmove).min(self.path.len());
        self.path.iter().rev().take(back).skip(1).step_by(2).any(|&k| k == key)
    }

    /// The score of `position` (whose key is `key`) for its side to move, within `(alpha, beta)`;
    /// `depth` plies to go.
    pub fn negamax(&mut self, position: &Position, key: u64, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.visit();
        if self.out_of_budget() {
            return 0;
        }
        if position.halfmove_clock() >= 100 {
            return 0;
        }
        if ply > 0 && self.repeats(key, position.halfmove_clock()) {
            return 0;
        }
        let in_check = position.in_check(self.variant);
        // A check is searched a ply deeper: the forced replies are few, and mates hide behind them.
        let depth = if in_check && ply < MAX_PLY / 2 { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiescence(position, ply, QUIESCENCE_DEPTH, alpha, beta);
        }
        let window = beta - alpha > 1;
        let remembered = self.table.get(key).copied();
        if let Some(entry) = remembered.filter(|e| !window && i32::from(e.depth) >= depth) {
            let score = entry.score(ply);
            match entry.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        // Away from the principal line and out of check, the position's static worth decides what
        // to search: far above beta near the leaves, it is taken as it is; above beta further up,
        // a pass is tried first; far below alpha, quiet moves near the leaves are not searched.
        let judged = !window && !in_check && beta.abs() < MATE - 1000;
        let stand = if judged { self.evaluation.evaluate(position) } else { 0 };
        if judged && depth <= 3 && stand - FUTILITY_MARGIN * depth >= beta {
            return stand - FUTILITY_MARGIN * depth;
        }
        let futile = judged && depth <= 2 && stand + FUTILITY_MARGIN * depth <= alpha;
        if judged
            && depth >= 3
            && stand >= beta
            && ply != self.passed_ply
            && self.evaluation.has_pieces(position, position.side_to_move())
        {
            let reduction = 3 + depth / 6;
            self.path.push(key);
            let passed_ply = std::mem::replace(&mut self.passed_ply, ply + 1);
            let passed = position.passed();
            let passed_key = table::key_after_pass(position, key, &passed);
            let score = -self.negamax(&passed, passed_key, depth - 1 - reduction, ply + 1, -beta, -beta + 1);
            self.passed_ply = passed_ply;
            self.path.pop();
            if self.out_of_budget() {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }
        let mut moves = position.legal_moves_knowing(self.variant, in_check, false);
        if moves.is_empty() {
            return self.no_moves(in_check, ply);
        }
        self.order(position, &mut moves, remembered.and_then(|e| e.mv), ply);
        let original_alpha = alpha;
        let (mut best, mut best_move) = (-MATE - 1, None);
        self.path.push(key);
        for (i, &mv) in moves.iter().enumerate() {
            let child = position.after(self.variant, mv);
            let child_key = table::key_after(position, key, mv, &child);
            let quiet = position.captured(mv).is_none() && Position::promotes_to(mv).is_none();
            if futile && i > 0 && quiet && !child.in_check(self.variant) {
                best = best.max(stand + FUTILITY_MARGIN * depth);
                continue;
            }
            let score = if i == 0 {
                -self.negamax(&child, child_key, depth - 1, ply + 1, -beta, -alpha)
            } else {
                // Late quiet moves rarely matter: searched shallower, and again at full depth only
                // if they beat alpha.
                let reduction = if depth >= 3 && i >= 3 && quiet && !in_check { 1 + i32::from(i >= 8) } else { 0 };
                let mut score = -self.negamax(&child, child_key, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, child_key, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, child_key, depth - 1, ply + 1, -beta, -alpha);
                }
                score
            };
            if self.out_of_budget() {
                self.path.pop();
                return 0;
            }
            if score > best {
                (best, best_move) = (score, Some(mv));
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if quiet {
                    self.remember_refutation(position, mv, depth, ply);
                }
                break;
            }
        }
        self.path.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.put(key, best_move, best, depth, bound, ply);
        best
    }

    /// Captures and promotions only, until the position is quiet; standing pat is allowed (except
    /// in check, where every move is looked at).
    fn quiescence(&mut self, position: &Position, ply: usize, depth: u8, mut alpha: i32, beta: i32) -> i32 {
        self.visit();
        let in_check = position.in_check(self.variant);
        let mut stand = -MATE;
        if !in_check {
            stand = self.evaluation.evaluate(position);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        // Out of check, captures and promotions only (no move among them is no stalemate).
        let mut moves = position.legal_moves_knowing(self.variant, in_check, !in_check);
        if moves.is_empty() && in_check {
            return self.no_moves(in_check, ply);
        }
        if !in_check {
            // Only captures that could lift the position to alpha, and promotions. A capture by a
            // piece worth more than its victim onto a square the other side then attacks loses
            // material on the exchange: left out too.
            let (variant, values) = (self.variant, &self.evaluation.values);
            moves.retain(|&mv| match (position.captured(mv), Position::promotes_to(mv)) {
                (_, Some(_)) => true,
                (Some(victim), None) => {
                    let (from, to) = Position::squares_of(mv);
                    let attacker = position.piece_at(from).map_or(0, |(piece, _)| values[piece]);
                    stand + values[victim] + DELTA_MARGIN > alpha
                        && (attacker <= values[victim] || {
                            let after = position.after(variant, mv);
                            !after.attacked(variant, to, after.side_to_move())
                        })
                }
                (None, None) => false,
            });
        }
        if depth == 0 || self.out_of_budget() {
            let stand = if in_check { self.evaluation.evaluate(position) } else { stand };
            return alpha.max(stand.min(beta));
        }
        self.order(position, &mut moves, None, MAX_PLY);
        let mut best = if in_check { -MATE + ply as i32 } else { stand };
        for mv in moves {
            let score = -self.quiescence(&position.after(self.variant, mv), ply + 1, depth - 1, -beta, -alpha);
            if score >= beta {
                return score;
            }
            best = best.max(score);
            alpha = alpha.max(score);
        }
        best
    }

    /// The score of a position with no legal move: mated, or stalemated (a draw, or a loss in
    /// shatranj-like variants).
    fn no_moves(&self, in_check: bool, ply: usize) -> i32 {
        if in_check || self.variant.stalemate_loses() {
            -MATE + ply as i32
        } else {
            0
        }
    }

    fn history_index(&self, position: &Position, mv: Move) -> usize {
        let squares = Position::square_count(self.variant);
        let (from, to) = Position::squares_of(mv);
        (usize::from(position.side_to_move()) * squares + from) * squares + to
    }

    /// A quiet move refuted the node: a killer at its ply, and its history grows.
    fn remember_refutation(&mut self, position: &Position, mv: Move, depth: i32, ply: usize) {
        if let Some(killers) = self.killers.get_mut(ply) {
            if killers[0] != Some(mv) {
                *killers = [Some(mv), killers[0]];
            }
        }
        let index = self.history_index(position, mv);
        self.history[index] += depth * depth;
        if self.history[index] > 1 << 18 {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// The remembered best move first; then captures, most valuable victim by least valuable
    /// attacker, and promotions; then the ply's killers; then quiet moves by history (a stable sort,
    /// so the search stays deterministic).
    pub fn order(&self, position: &Position, moves: &mut [Move], remembered: Option<Move>, ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        moves.sort_by_cached_key(|&mv| {
            if Some(mv) == remembered {
                return i32::MIN;
            }
            let (from, _) = Position::squares_of(mv);
            let (captured, promotes) = (position.captured(mv), Position::promotes_to(mv));
            let score = if captured.is_some() || promotes.is_some() {
                let attacker = position.piece_at(from).map_or(0, |(piece, _)| self.evaluation.values[piece]);
                let gain = captured.map_or(0, |victim| 10 * self.evaluation.values[victim].max(1) - attacker / 10)
                    + promotes.map_or(0, |piece| self.evaluation.values[piece]);
                (1 << 24) + gain
            } else if killers[0] == Some(mv) {
                (1 << 23) + 1
            } else if killers[1] == Some(mv) {
                1 << 23
            } else {
                self.history[self.history_index(position, mv)]
            };
            -score
        });
    }
}
