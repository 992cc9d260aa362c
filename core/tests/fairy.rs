//! Fairy chess against the reference data: Fairy-Stockfish's perft counts and legal move lists, and
//! the independent reference model's for pieces Fairy-Stockfish cannot express.

use std::path::PathBuf;

use serde_json::Value;
use tabula_core::fairy::{Position, Variant, VariantDef};

fn shared() -> PathBuf {
    std::env::var_os("TABULA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

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
    let text = std::fs::read_to_string(shared().join("vectors").join(file)).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn every_reference_position_matches_fairy_stockfish() {
    let cases = lines("fairy-perft-public.jsonl");
    let mut checked = 0;
    for case in &cases {
        let name = case["variant"].as_str().unwrap();
        let variant = Variant::builtin().get(name).unwrap_or_else(|| panic!("no built-in variant {name}"));
        checked += check(variant, case, budget());
    }
    assert!(checked > cases.len() * 3, "{checked} depths checked");
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
