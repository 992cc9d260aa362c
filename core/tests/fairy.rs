//! Fairy chess against the reference data: Fairy-Stockfish's perft counts and legal move lists, and
//! the independent reference model's for pieces Fairy-Stockfish cannot express.

use serde_json::Value;
use tabula_core::fairy::{Position, Variant, VariantDef};

mod shared;

fn budget() -> u64 {
    std::env::var("TABULA_PERFT_BUDGET").ok().and_then(|b| b.parse().ok()).unwrap_or(u64::MAX)
}

/// Compares the legal moves and every perft depth whose count is at most `budget` nodes.
fn check(variant: &Variant, case: &Value, budget: u64) -> usize {
    let id = case["id"].as_str().unwrap();
    let fen = case["fen"].as_str().unwrap();
    let position = Position::from_fen(variant, fen, case["chess960"].as_bool().unwrap_or(false))
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    let mut ours: Vec<String> = position.legal_moves(variant).into_iter().map(|mv| position.uci(variant, mv)).collect();
    ours.sort();
    let theirs: Vec<String> = serde_json::from_value(case["legal_moves"].clone()).unwrap();
    assert_eq!(ours, theirs, "{id}: legal moves");
    let mut checked = 0;
    for (depth, expected) in case["perft"].as_array().unwrap().iter().enumerate() {
        let expected = expected.as_u64().unwrap();
        if expected > budget {
            break;
        }
        assert_eq!(position.perft(variant, depth as u32 + 1), expected, "{id}: perft {}", depth + 1);
        checked += 1;
    }
    checked
}

fn lines(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(shared::vectors_dir().join(file)).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The positions of the reference file whose variant is (or is not) orthodox chess; split in two
/// so the two halves run on both cores.
fn check_public(orthodox: bool) {
    let cases: Vec<Value> =
        lines("fairy-perft-public.jsonl").into_iter().filter(|c| (c["variant"] == "chess") == orthodox).collect();
    assert!(!cases.is_empty());
    let mut checked = 0;
    for case in &cases {
        let name = case["variant"].as_str().unwrap();
        let variant = Variant::builtin().get(name).unwrap_or_else(|| panic!("no built-in variant {name}"));
        checked += check(variant, case, budget());
    }
    assert!(checked > cases.len() * 3, "{checked} depths checked");
}

#[test]
fn every_chess_and_chess960_position_matches_fairy_stockfish() {
    check_public(true);
}

#[test]
fn every_fairy_variant_position_matches_fairy_stockfish() {
    check_public(false);
}

/// Mirrors a symmetric start position: ranks reversed, colours swapped, Black to move.
fn mirrored(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_owned).collect();
    let swap = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect::<String>()
    };
    fields[0] = fields[0].split('/').rev().map(swap).collect::<Vec<_>>().join("/");
    fields[1] = "b".into();
    fields[2] = if fields[2] == "-" { "-".into() } else { swap(&fields[2]) };
    fields.join(" ")
}

#[test]
fn every_builtin_variant_starts_and_plays_the_same_for_both_colours() {
    let variants = Variant::builtin();
    assert!(variants.len() >= 25, "the reference names plus at least ten more");
    for (name, variant) in variants {
        assert!(!variant.description.is_empty(), "{name} has a description");
        let start = variant.start.as_deref().unwrap_or_else(|| panic!("{name} has a start position"));
        let position = Position::from_fen(variant, start, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        let moves = position.perft(variant, 3);
        assert!(moves > 0, "{name}");
        if name == "vspawns" {
            continue; // White and Black have different armies.
        }
        let flipped = Position::from_fen(variant, &mirrored(start), false).unwrap();
        assert_eq!(flipped.perft(variant, 3), moves, "{name}: Black's start plays like White's");
    }
}

#[test]
fn reference_model_pieces_match() {
    let mut checked = 0;
    for case in lines("fairy-refmodel-public.jsonl") {
        let def: VariantDef = serde_json::from_value(case.clone()).unwrap();
        let variant = Variant::from_def(case["variant"].as_str().unwrap(), &def).unwrap();
        checked += check(&variant, &case, budget());
    }
    assert!(checked > 10, "{checked}");
}

/// The web app reads the built-in variants compiled (`core/build.rs`): reading them back must give
/// every variant exactly as compiled from the JSON model, and they must play the same.
#[test]
fn compiled_variants_read_back_to_the_same_variants() {
    let builtin = Variant::builtin();
    let bytes = Variant::to_compiled(builtin);
    let read = Variant::from_compiled(&bytes).expect("compiled variants read back");
    assert_eq!(read.len(), builtin.len());
    for (name, variant) in builtin {
        assert_eq!(format!("{:?}", read[name]), format!("{variant:?}"), "{name}");
        let start = variant.start.as_deref().expect("a start position");
        let ours = Position::from_fen(&read[name], start, false).expect("start reads");
        let theirs = Position::from_fen(variant, start, false).expect("start reads");
        assert_eq!(ours.perft(&read[name], 2), theirs.perft(variant, 2), "{name}");
    }
    assert!(Variant::from_compiled(&bytes[..bytes.len() / 2]).is_err(), "a cut file is refused");
}
