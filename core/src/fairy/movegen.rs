//! Finding moves: each piece's move tree walked from its square (one ray walker, `Ray`, which
//! `reach.rs` walks too), attacks, castling, and the legal moves.

use super::model::{Condition, Hop, Mode, Node};
use super::{colour_of, piece_of, Move, Position, Special, Variant, NONE};

/// The square `(dx, dy)` from `sq`, if on the board.
#[inline]
pub(super) fn step(variant: &Variant, sq: usize, dx: i32, dy: i32) -> Option<usize> {
    let (f, r) = variant.coords[sq];
    let (f, r) = (f + dx, r + dy);
    (f >= 0 && r >= 0 && (f as usize) < variant.files && (r as usize) < variant.ranks)
        .then(|| r as usize * variant.files + f as usize)
}

/// The squares a node's step or ride passes from `at`, in order: one square for a step; for a
/// rider, on to its length (0: no limit), bouncing off the board's edges as often as the node
/// allows. Whoever walks it stops it at a piece.
pub(super) struct Ray<'a> {
    variant: &'a Variant,
    node: &'a Node,
    sq: usize,
    dx: i32,
    dy: i32,
    steps: u32,
    bounces: u32,
    done: bool,
}

impl<'a> Ray<'a> {
    #[inline]
    pub(super) fn new(variant: &'a Variant, node: &'a Node, at: usize) -> Ray<'a> {
        Ray { variant, node, sq: at, dx: node.dx, dy: node.dy, steps: 0, bounces: 0, done: false }
    }
}

impl Iterator for Ray<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.done {
            return None;
        }
        let (variant, node) = (self.variant, self.node);
        let next = match step(variant, self.sq, self.dx, self.dy) {
            Some(next) => Some(next),
            None if node.rider && self.bounces < node.reflections => {
                let (f, r) = variant.coords[self.sq];
                if f + self.dx < 0 || f + self.dx >= variant.files as i32 {
                    self.dx = -self.dx;
                }
                if r + self.dy < 0 || r + self.dy >= variant.ranks as i32 {
                    self.dy = -self.dy;
                }
                self.bounces += 1;
                step(variant, self.sq, self.dx, self.dy)
            }
            None => None,
        };
        let Some(next) = next else {
            self.done = true;
            return None;
        };
        self.steps += 1;
        self.sq = next;
        self.done = !node.rider || (node.length > 0 && self.steps >= node.length);
        Some(next)
    }
}

impl Position {
    /// Whether a move's condition holds for the piece on `origin`. A pawn's `moveCount0` means its
    /// double-step rank(s), as Fairy-Stockfish plays it (a FEN carries no move counts).
    fn condition_holds(&self, variant: &Variant, origin: usize, piece: usize, colour: u8, when: Condition) -> bool {
        if variant.pieces[piece].pawn && when == Condition::Count(0) {
            return variant.double_step[colour as usize].contains(&(origin / variant.files));
        }
        when.holds(self.moved[origin])
    }

    /// Adds the targets of `node` from `at` for the piece on `origin` (treated as empty: it moves).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        variant: &Variant,
        origin: usize,
        at: usize,
        node: &Node,
        piece: usize,
        colour: u8,
        out: &mut Vec<(usize, bool)>,
    ) {
        if let Some(when) = node.when {
            if !self.condition_holds(variant, origin, piece, colour, when) {
                return;
            }
        }
        if node.hop != Hop::None {
            return self.hop(variant, origin, node, colour, out);
        }
        for next in Ray::new(variant, node, at) {
            // The piece's own square counts as empty (it moves) and is no target.
            if next != origin && !self.land(variant, next, node, piece, colour, out) {
                return;
            }
            for child in &node.children {
                self.walk(variant, origin, next, child, piece, colour, out);
            }
        }
    }

    /// `walk` of a leap or a ride from `origin` that neither bounces nor goes on (most moves of
    /// most pieces), its square's coordinates stepped as it goes.
    #[inline(always)]
    fn slide(
        &self,
        variant: &Variant,
        origin: usize,
        node: &Node,
        piece: usize,
        colour: u8,
        out: &mut Vec<(usize, bool)>,
    ) {
        let (files, ranks) = (variant.files as i32, variant.ranks as i32);
        let (mut file, mut rank) = variant.coords[origin];
        let delta = node.dy * files + node.dx;
        let mut sq = origin as i32;
        let limit = if !node.rider {
            1
        } else if node.length == 0 {
            u32::MAX
        } else {
            node.length
        };
        for _ in 0..limit {
            (file, rank, sq) = (file + node.dx, rank + node.dy, sq + delta);
            if file < 0 || rank < 0 || file >= files || rank >= ranks {
                return;
            }
            if !self.land(variant, sq as usize, node, piece, colour, out) {
                return;
            }
        }
    }

    /// What a move of `node` does on `next`: a quiet move, a capture (en passant too), or nothing;
    /// whether a ride goes on past it (only over an empty square).
    #[inline(always)]
    fn land(
        &self,
        variant: &Variant,
        next: usize,
        node: &Node,
        piece: usize,
        colour: u8,
        out: &mut Vec<(usize, bool)>,
    ) -> bool {
        let cell = self.squares[next];
        if cell != 0 {
            if colour_of(cell) != colour && node.mode != Mode::MoveOnly {
                out.push((next, true));
            }
            return false;
        }
        if node.mode != Mode::CaptureOnly {
            out.push((next, false));
        } else if next as u8 == self.ep && variant.pieces[piece].pawn {
            out.push((next, true));
        }
        true
    }

    /// Hoppers: ride over empty squares to the first piece (the screen); the grasshopper lands just
    /// behind it, the cannon rides on to the next piece and takes it.
    fn hop(&self, variant: &Variant, origin: usize, node: &Node, colour: u8, out: &mut Vec<(usize, bool)>) {
        let mut sq = origin;
        let mut screened = false;
        while let Some(next) = step(variant, sq, node.dx, node.dy) {
            sq = next;
            let cell = self.squares[next];
            if !screened {
                if cell == 0 {
                    continue;
                }
                screened = true;
                if node.hop == Hop::Grasshopper {
                    let Some(land) = step(variant, next, node.dx, node.dy) else { return };
                    let target = self.squares[land];
                    if target == 0 && node.mode != Mode::CaptureOnly {
                        out.push((land, false));
                    } else if target != 0 && colour_of(target) != colour && node.mode != Mode::MoveOnly {
                        out.push((land, true));
                    }
                    return;
                }
                continue;
            }
            if cell == 0 {
                if node.mode != Mode::CaptureOnly {
                    out.push((next, false));
                }
                continue;
            }
            if colour_of(cell) != colour && node.mode != Mode::MoveOnly {
                out.push((next, true));
            }
            return;
        }
    }

    pub(super) fn targets(&self, variant: &Variant, sq: usize, out: &mut Vec<(usize, bool)>) {
        let cell = self.squares[sq];
        let (piece, colour) = (piece_of(cell), colour_of(cell));
        for node in &variant.pieces[piece].nodes[colour as usize] {
            if node.hop == Hop::None && node.reflections == 0 && node.children.is_empty() {
                if node.when.is_none_or(|when| self.condition_holds(variant, sq, piece, colour, when)) {
                    self.slide(variant, sq, node, piece, colour, out);
                }
            } else {
                self.walk(variant, sq, sq, node, piece, colour, out);
            }
        }
    }

    /// Whether a piece of `by` attacks `target`.
    pub fn attacked(&self, variant: &Variant, target: usize, by: u8) -> bool {
        if self.attacked_along_lines(variant, target, by) {
            return true;
        }
        if !variant.has_complex {
            return false;
        }
        // The other pieces are asked forward, with an enemy standing on an empty target so that
        // a capture there shows (castling asks about empty squares).
        let mut probe = *self;
        if probe.squares[target] == 0 {
            probe.squares[target] = 1 + 64 * (1 - by);
        }
        let mut out = Vec::new();
        for sq in 0..variant.files * variant.ranks {
            let cell = probe.squares[sq];
            if cell != 0 && colour_of(cell) == by && !variant.pieces[piece_of(cell)].simple {
                out.clear();
                probe.targets(variant, sq, &mut out);
                if out.iter().any(|&(to, capture)| capture && to == target) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a simple piece of `by` attacks `target` (walking back along each attack line).
    fn attacked_along_lines(&self, variant: &Variant, target: usize, by: u8) -> bool {
        for line in &variant.lines[by as usize] {
            let (mut sq, mut steps) = (target, 0u32);
            while let Some(prev) = step(variant, sq, -line.dx, -line.dy) {
                steps += 1;
                let cell = self.squares[prev];
                if cell == 0 {
                    if line.riders == 0 && line.limited.is_empty() {
                        break;
                    }
                    sq = prev;
                    continue;
                }
                if colour_of(cell) == by {
                    let piece = piece_of(cell);
                    if (steps == 1 && line.leapers & (1 << piece) != 0) || line.rides(piece, steps) {
                        return true;
                    }
                }
                break;
            }
        }
        false
    }

    pub fn in_check(&self, variant: &Variant) -> bool {
        self.royal_square(variant, self.side).is_some_and(|k| self.attacked(variant, k, 1 - self.side))
    }

    /// The side to move's moves, its royal piece's safety aside; with `captures_only`, only
    /// captures (en passant too) and promotions: no castling, no pawn staying a pawn on an empty
    /// square.
    pub(super) fn pseudo_moves(&self, variant: &Variant, moves: &mut Vec<Move>, captures_only: bool) {
        let mut targets = Vec::with_capacity(32);
        // How far into the promotion zone a rank is: 1 on the last rank, 0 outside the zone.
        let zone = |colour: u8, rank: usize| {
            let depth = if colour == 0 { variant.ranks - rank } else { rank + 1 };
            if depth <= variant.promotion_ranks {
                depth
            } else {
                0
            }
        };
        // The pieces a pawn may become here: all the variant's, unless some are limited to a
        // number on the board (then counted, only then).
        let mut allowed = [0u8; 64];
        let candidates: &[u8] = if variant.promotion.iter().all(|&p| variant.promotion_limits[p as usize].is_none()) {
            &variant.promotion
        } else {
            let mut on_board = [0usize; 64];
            for &cell in &self.squares[..variant.files * variant.ranks] {
                if cell != 0 && colour_of(cell) == self.side {
                    on_board[piece_of(cell)] += 1;
                }
            }
            let mut count = 0;
            for &p in &variant.promotion {
                if count < allowed.len()
                    && variant.promotion_limits[p as usize].is_none_or(|limit| on_board[p as usize] < limit)
                {
                    allowed[count] = p;
                    count += 1;
                }
            }
            &allowed[..count]
        };
        for from in 0..variant.files * variant.ranks {
            let cell = self.squares[from];
            if cell == 0 || colour_of(cell) != self.side {
                continue;
            }
            targets.clear();
            self.targets(variant, from, &mut targets);
            if variant.pieces[piece_of(cell)].needs_dedup {
                crate::small_sort::sort_small_by(&mut targets, |a, b| a < b);
                targets.dedup_by_key(|t| t.0);
            }
            let pawn = variant.pieces[piece_of(cell)].pawn;
            if !pawn {
                let (from, special) = (from as u8, Special::None);
                let wanted = targets.iter().filter(|&&(_, capture)| capture || !captures_only);
                moves.extend(wanted.map(|&(to, _)| Move { from, to: to as u8, promotion: 0, special }));
                continue;
            }
            for &(to, capture) in &targets {
                if captures_only && !capture && zone(self.side, to / variant.files) == 0 {
                    continue;
                }
                let special = if to as u8 == self.ep && self.squares[to] == 0 {
                    let behind = if self.side == 0 { to - variant.files } else { to + variant.files };
                    Special::EnPassant(behind as u8)
                } else {
                    Special::None
                };
                let depth = if !variant.promotion.is_empty() { zone(self.side, to / variant.files) } else { 0 };
                for &p in if depth > 0 { candidates } else { &[] } {
                    moves.push(Move { from: from as u8, to: to as u8, promotion: p + 1, special });
                }
                // Staying a pawn: outside the zone, or inside it but not on the last rank.
                if depth != 1 && (capture || !captures_only) {
                    moves.push(Move { from: from as u8, to: to as u8, promotion: 0, special });
                }
            }
        }
        if variant.castling && !captures_only {
            self.castling_moves(variant, moves);
        }
    }

    fn castling_moves(&self, variant: &Variant, moves: &mut Vec<Move>) {
        let Some(king) = self.royal_square(variant, self.side) else { return };
        let rank = king / variant.files;
        for &rook in self.castle_rooks.iter().filter(|&&r| r != NONE) {
            let rook = rook as usize;
            let cell = self.squares[rook];
            if cell == 0 || colour_of(cell) != self.side || rook / variant.files != rank {
                continue;
            }
            let kingside = rook > king;
            // By default g/c on 8 files, i/c on 10 (the spec's "W-3" is off by one against its own
            // examples); a variant's data may say otherwise (Chancellor: g on 9 files; Janus: b and i).
            let [king_file, rook_file] = variant.castling_files[kingside as usize];
            let (king_to, rook_to) = (rank * variant.files + king_file, rank * variant.files + rook_file);
            let low = king.min(rook).min(king_to).min(rook_to);
            let high = king.max(rook).max(king_to).max(rook_to);
            if (low..=high).any(|sq| sq != king && sq != rook && self.squares[sq] != 0) {
                continue;
            }
            let (a, b) = (king.min(king_to), king.max(king_to));
            if (a..=b).any(|sq| self.attacked(variant, sq, 1 - self.side)) {
                continue;
            }
            moves.push(Move {
                from: king as u8,
                to: king_to as u8,
                promotion: 0,
                special: Special::Castle(rook as u8, rook_to as u8),
            });
        }
    }

    pub fn legal_moves(&self, variant: &Variant) -> Vec<Move> {
        self.legal_moves_knowing(variant, self.in_check(variant), false)
    }

    /// The legal moves, told whether the side to move is in check (the search knows already);
    /// with `captures_only`, only captures and promotions: the quiescence search's.
    pub(crate) fn legal_moves_knowing(&self, variant: &Variant, in_check: bool, captures_only: bool) -> Vec<Move> {
        let mut moves = Vec::with_capacity(if captures_only { 16 } else { 64 });
        self.pseudo_moves(variant, &mut moves, captures_only);
        let Some(king) = self.royal_square(variant, self.side) else { return moves };
        let enemy = 1 - self.side;
        // Whether the royal piece is safe once `mv` is played, by playing it.
        let safe = |mv: Move| {
            let next = self.after(variant, mv);
            !next.royal_square(variant, self.side).is_some_and(|k| next.attacked(variant, k, enemy))
        };
        if variant.has_complex || in_check {
            moves.retain(|&mv| safe(mv));
            return moves;
        }
        // Out of check, another piece's move can only expose the royal piece if that piece is
        // pinned; the royal piece's own move is safe where no line attacks its target (it shields
        // no line to the target: a rider behind it would be giving check). En passant and
        // castling move two pieces: played.
        let pinned = self.pinned(variant, king);
        moves.retain(|&mv| {
            let from = mv.from as usize;
            if mv.special != Special::None {
                safe(mv)
            } else if from == king {
                !self.attacked_along_lines(variant, mv.to as usize, enemy)
            } else {
                pinned[from / 64] & (1 << (from % 64)) == 0 || safe(mv)
            }
        });
        moves
    }

    /// The squares (a bit set) of the side to move's pieces that each stand alone between its
    /// royal piece on `king` and an enemy rider along that rider's line.
    fn pinned(&self, variant: &Variant, king: usize) -> [u64; 3] {
        let mut pinned = [0u64; 3];
        for line in variant.lines[1 - self.side as usize].iter().filter(|l| l.riders != 0 || !l.limited.is_empty()) {
            let (mut sq, mut steps, mut screen) = (king, 0u32, None);
            while let Some(prev) = step(variant, sq, -line.dx, -line.dy) {
                (sq, steps) = (prev, steps + 1);
                let cell = self.squares[prev];
                if cell == 0 {
                    continue;
                }
                if colour_of(cell) == self.side {
                    if screen.is_some() {
                        break;
                    }
                    screen = Some(prev);
                    continue;
                }
                if let Some(screen) = screen {
                    if line.rides(piece_of(cell), steps) {
                        pinned[screen / 64] |= 1 << (screen % 64);
                    }
                }
                break;
            }
        }
        pinned
    }
}
