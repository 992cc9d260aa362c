//! The fast legal-move generator against a slow one that trusts nothing but the pseudo-legal
//! moves: a move is legal when no reply of the opponent can capture a royal piece after it, and
//! castling is legal when no square the king crosses could be captured on. Seeded random games in
//! every built-in variant and every reference model (`shared/vectors/fairy-refmodel-public.jsonl`).

use super::{Move, Position, Special, Variant, VariantDef};

/// A small seeded generator (xorshift*): the games are the same on every run.
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Whether a piece of the side to move in `position` can capture on `target` (an empty target gets
/// a piece of the other side first, so a capture there can show).
fn capturable(variant: &Variant, position: &Position, target: usize) -> bool {
    let mut probe = *position;
    if probe.squares[target] == 0 {
        probe.squares[target] = 1 + 64 * (1 - probe.side);
    }
    let mut replies = Vec::new();
    probe.pseudo_moves(variant, &mut replies, false);
    replies.iter().any(|mv| mv.to as usize == target && !matches!(mv.special, Special::Castle(..)))
}

fn slow_legal(variant: &Variant, position: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    position.pseudo_moves(variant, &mut moves, false);
    let me = position.side;
    moves.retain(|&mv| {
        let next = position.after(variant, mv);
        let royal = next.royal[me as usize];
        royal == super::NONE || !capturable(variant, &next, royal as usize)
    });
    moves
}

fn sorted(variant: &Variant, position: &Position, moves: &[Move]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(|&mv| position.uci(variant, mv)).collect();
    names.sort();
    names
}

/// Plays `games` random games of up to `plies` from `fen`; returns how many positions it compared.
fn compare(name: &str, variant: &Variant, fen: &str, games: usize, plies: usize, seed: u64) -> usize {
    let start = Position::from_fen(variant, fen, false).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
    let mut random = Seeded(seed | 1);
    let mut positions = 0;
    for game in 0..games {
        let mut position = start;
        for ply in 0..plies {
            let fast = position.legal_moves(variant);
            let slow = slow_legal(variant, &position);
            let fen = position.fen(variant);
            assert_eq!(
                sorted(variant, &position, &fast),
                sorted(variant, &position, &slow),
                "{name} game {game} ply {ply}: {fen}"
            );
            // The quiescence search's moves: the legal captures and promotions, no more, no fewer.
            let in_check = position.in_check(variant);
            let tactical: Vec<Move> =
                fast.iter().copied().filter(|&mv| position.captured(mv).is_some() || mv.promotion != 0).collect();
            assert_eq!(
                sorted(variant, &position, &position.legal_moves_knowing(variant, in_check, true)),
                sorted(variant, &position, &tactical),
                "{name} game {game} ply {ply}: captures only, {fen}"
            );
            for mv in fast.iter().filter(|mv| matches!(mv.special, Special::Castle(..))) {
                let (from, to) = (mv.from.min(mv.to) as usize, mv.from.max(mv.to) as usize);
                // The king's own square and every square it crosses, with the other side to move.
                let mut theirs = position;
                theirs.side = 1 - position.side;
                for sq in from..=to {
                    assert!(
                        !capturable(variant, &theirs, sq),
                        "{name}: {fen}: castling {} crosses an attacked square",
                        position.uci(variant, *mv)
                    );
                }
            }
            positions += 1;
            if fast.is_empty() {
                break;
            }
            position = position.after(variant, fast[random.below(fast.len())]);
        }
    }
    positions
}

#[test]
fn the_seed_s_griffin_attacks_through_its_move_only_first_step() {
    let variant = &Variant::builtin()["griffin-seed"];
    let legal = |fen: &str| {
        let position = Position::from_fen(variant, fen, false).unwrap();
        sorted(variant, &position, &position.legal_moves(variant))
    };
    let pinned = legal("4k3/8/5g2/4P3/8/8/8/4K3 w - - 0 1");
    assert!(!pinned.contains(&"e5e6".to_owned()), "the griffin steps f6-e5 and rides down the e-file: {pinned:?}");
    let castling = legal("4k3/8/8/8/8/1g6/8/R3K2R w KQ - 0 1");
    for attacked in ["e1c1", "e1d2", "e1e2", "e1f2"] {
        assert!(!castling.contains(&attacked.to_owned()), "{attacked}: the griffin reaches it through c2");
    }
    assert!(castling.contains(&"e1g1".to_owned()), "kingside castling is still fine: {castling:?}");
}

#[test]
fn fast_legal_moves_equal_the_slow_ones_in_random_games_of_every_variant() {
    let mut positions = 0;
    for (index, (name, variant)) in Variant::builtin().iter().enumerate() {
        let fen = variant.start.clone().unwrap_or_else(|| panic!("{name} has a start position"));
        positions += compare(name, variant, &fen, 6, 80, 0x9E37_79B9 + index as u64);
    }
    let shared = std::env::var_os("TABULA_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let text = std::fs::read_to_string(shared.join("vectors/fairy-refmodel-public.jsonl")).expect("reference models");
    for (index, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let def: VariantDef = serde_json::from_value(case.clone()).unwrap();
        let name = case["id"].as_str().unwrap_or("model");
        let variant = Variant::from_def(name, &def).unwrap();
        positions += compare(name, &variant, case["fen"].as_str().unwrap(), 2, 60, 0x51ED + index as u64);
    }
    assert!(positions > 10_000, "{positions} positions compared");
}
