//! Replays every reference game in `shared/vectors/` through the engine and compares every field of
//! every step. One runner for all games: each file names its game kind.

use serde_json::Value;
use tabula_core::GameKind;

mod shared;
use shared::vectors_dir;

/// Returns how many steps were compared; panics with the game, step and field of the first mismatch.
fn check_file(kind: GameKind, file: &str) -> usize {
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut compared = 0;
    for (line_no, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let game: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", line_no + 1));
        let label = format!("{file}:{} (seed {})", line_no + 1, game["seed"]);
        // POPUCOM's files call the list `moves`, Edges & Blocks' `actions`.
        let moves = game.get("moves").or(game.get("actions")).and_then(Value::as_array);
        let moves = moves.unwrap_or_else(|| panic!("{label}: no moves"));
        let expected = game["steps"].as_array().unwrap_or_else(|| panic!("{label}: no steps"));
        let config = game.get("config").cloned().unwrap_or(Value::Null);
        let ours = kind.replay_steps(&config, moves).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(
            ours.len(),
            expected.len(),
            "{label}: step count (ours ends {})",
            ours.last().unwrap_or(&Value::Null)
        );
        for (index, (our_step, their_step)) in ours.iter().zip(expected).enumerate() {
            let fields = their_step.as_object().unwrap_or_else(|| panic!("{label}: step {index} is not an object"));
            for (field, value) in fields {
                assert_eq!(
                    our_step.get(field),
                    Some(value),
                    "{label}: step {index} (move {}) field {field}",
                    moves[index]
                );
            }
            compared += 1;
        }
    }
    compared
}

#[test]
fn popucom_public_games_match_every_step() {
    let steps = check_file(GameKind::Popucom, "popucom-public.jsonl");
    assert!(steps > 1000, "only {steps} steps compared");
}

#[test]
fn popucom_crafted_games_match_every_step() {
    let steps = check_file(GameKind::Popucom, "popucom-crafted.jsonl");
    assert!(steps > 0);
}

#[test]
fn edges_public_games_match_every_step() {
    let steps = check_file(GameKind::Edges, "edges-public.jsonl");
    assert!(steps > 30_000, "only {steps} steps compared");
}

#[test]
fn edges_scenarios_match_every_step() {
    let steps = check_file(GameKind::Edges, "edges-scenarios.jsonl");
    assert!(steps > 0);
}
