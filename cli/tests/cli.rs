//! The `tabula` binary as a user runs it: reference files through `replay`, bad input, `bench`.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn tabula() -> Command {
    Command::cargo_bin("tabula").expect("the tabula binary is built for tests")
}

fn vector_file(name: &str) -> PathBuf {
    let shared = std::env::var_os("TABULA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let path = shared.join("vectors").join(name);
    assert!(path.is_file(), "reference file missing: {} (set TABULA_SHARED)", path.display());
    path
}

fn output_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec()).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn replay_reproduces_the_reference_files_exactly() {
    for name in ["popucom-public.jsonl", "popucom-crafted.jsonl"] {
        let input = std::fs::read_to_string(vector_file(name)).unwrap();
        let expected: Vec<Value> = input.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        // Only the moves are needed: strip the reference steps before handing the games over.
        let stripped: String = expected
            .iter()
            .map(|game| serde_json::json!({"seed": game["seed"], "moves": game["moves"]}).to_string() + "\n")
            .collect();
        let output = tabula().args(["replay", "popucom"]).write_stdin(stripped).assert().success();
        let ours = output_lines(&output.get_output().stdout);
        assert_eq!(ours.len(), expected.len(), "{name}: one output line per game");
        for (our_game, their_game) in ours.iter().zip(&expected) {
            assert_eq!(our_game["steps"], their_game["steps"], "{name}: seed {}", their_game["seed"]);
            assert_eq!(our_game["seed"], their_game["seed"]);
        }
    }
}

#[test]
fn replay_edges_reproduces_the_reference_files_exactly() {
    for name in ["edges-public.jsonl", "edges-scenarios.jsonl"] {
        let input = std::fs::read_to_string(vector_file(name)).unwrap();
        let expected: Vec<Value> = input.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let stripped: String = expected
            .iter()
            .map(|game| serde_json::json!({"seed": game["seed"], "actions": game["actions"]}).to_string() + "\n")
            .collect();
        let output = tabula().args(["replay", "edges"]).write_stdin(stripped).assert().success();
        let ours = output_lines(&output.get_output().stdout);
        assert_eq!(ours.len(), expected.len(), "{name}: one output line per game");
        for (our_game, their_game) in ours.iter().zip(&expected) {
            assert_eq!(our_game["steps"], their_game["steps"], "{name}: seed {}", their_game["seed"]);
            assert_eq!(our_game["actions"], their_game["actions"], "the input's fields pass through");
        }
    }
}

#[test]
fn replay_edges_ends_a_game_at_a_refused_action() {
    let input = r#"{"actions": [{"type":"place","player":0,"edge":3},{"type":"place","player":1,"edge":3}]}
{"actions": [{"type":"pass","player":1}]}
{"config": {"size": 4, "cells_to_win": 2, "supply": [1, 1]}, "actions": [{"type":"place","edge":31}]}
"#;
    let output = tabula().args(["replay", "edges"]).write_stdin(input).assert().success();
    let games = output_lines(&output.get_output().stdout);
    assert_eq!(games[0]["steps"][1]["error"]["code"], "occupied");
    assert_eq!(games[1]["steps"][0]["error"]["code"], "not_your_turn");
    assert_eq!(games[2]["steps"][0]["edges"], format!("{}0", ".".repeat(31)), "options come from `config`");
    assert_eq!(games[2]["steps"][0]["supply"], serde_json::json!([0, 1]));
}

#[test]
fn an_illegal_move_ends_that_games_steps_with_an_error() {
    let input = "{\"moves\": [[4,4],[4,4],[0,0]]}\n{\"moves\": [[0,0]]}\n";
    let output = tabula().args(["replay", "popucom"]).write_stdin(input).assert().success();
    let games = output_lines(&output.get_output().stdout);
    assert_eq!(games.len(), 2);
    let steps = games[0]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "the move after the illegal one is not played");
    assert_eq!(steps[1]["error"]["code"], "occupied");
    assert!(steps[1]["error"]["message"].as_str().unwrap().contains("(4, 4)"));
    assert_eq!(games[1]["steps"][0]["moves_played"], 1, "the next game is unaffected");
}

#[test]
fn malformed_input_fails_with_a_message_naming_the_line() {
    for (input, needle) in [
        ("{\"moves\": []}\nnot json\n", "line 2"),
        ("[1, 2]\n", "line 1"),
        ("{\"seed\": 3}\n", "moves"),
        ("{\"moves\": [], \"config\": {\"size\": 5}}\n", "config"),
    ] {
        let output = tabula().args(["replay", "popucom"]).write_stdin(input).assert().failure();
        let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
        assert!(stderr.contains(needle), "{input:?}: stderr {stderr:?} lacks {needle:?}");
    }
    tabula().args(["replay", "checkers"]).write_stdin("").assert().failure();
}

#[test]
fn bench_ends_with_the_median_rate() {
    let output = tabula().args(["bench", "popucom", "--seconds", "0.3", "--seed", "5"]).assert().success();
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let last = stdout.lines().last().unwrap();
    let rate: f64 = last.strip_prefix("playouts_per_sec=").expect("last line format").parse().unwrap();
    assert!(rate > 0.0);
    assert_eq!(stdout.lines().filter(|l| l.starts_with("round ")).count(), 5);
}

#[test]
fn triplex_levels_writes_one_line_per_level_and_counts_to_stderr() {
    let output = tabula().args(["triplex", "levels", "--size", "4x3"]).assert().success();
    let levels = output_lines(&output.get_output().stdout);
    assert_eq!(levels.len(), 4, "the article counts 4 levels of 4x3");
    for level in &levels {
        assert_eq!((level["w"].as_u64(), level["h"].as_u64()), (Some(4), Some(3)));
        let pieces = level["pieces"].as_array().unwrap();
        let rows = level["solution"].as_array().unwrap();
        assert_eq!(rows.len(), 3);
        let mut seen = vec![false; pieces.len()];
        for row in rows {
            assert_eq!(row.as_array().unwrap().len(), 4);
            for cell in row.as_array().unwrap() {
                seen[cell.as_u64().unwrap() as usize] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "every piece covers cells");
    }
    let stderr = String::from_utf8(output.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("4x3: 4 levels"), "{stderr}");

    let by_area = tabula().args(["triplex", "levels", "--min-area", "8", "--max-area", "9"]).assert().success();
    assert_eq!(output_lines(&by_area.get_output().stdout).len(), 3, "4x2 has 2 levels and 3x3 one");
    for bad in [&["--size", "3x4"][..], &["--size", "four"], &["--min-area", "10", "--max-area", "9"]] {
        tabula().args(["triplex", "levels"]).args(bad).assert().failure();
    }
}

#[test]
fn fairy_perft_reproduces_the_reference_files() {
    for name in ["fairy-perft-public.jsonl", "fairy-refmodel-public.jsonl"] {
        let input = std::fs::read_to_string(vector_file(name)).unwrap();
        let expected: Vec<Value> = input.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        // The shallow depths here (the full ones run in core's tests); the rest of each line as given.
        let shallow: Vec<Value> = expected
            .iter()
            .map(|case| {
                let mut case = case.clone();
                let kept: Vec<Value> = case["perft"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .take_while(|n| n.as_u64().unwrap() <= 50_000)
                    .cloned()
                    .collect();
                case["perft"] = kept.into();
                case["legal_moves"] = Value::Null;
                case
            })
            .collect();
        let stdin: String = shallow.iter().map(|c| c.to_string() + "\n").collect();
        let output = tabula().args(["fairy", "perft"]).write_stdin(stdin).assert().success();
        let ours = output_lines(&output.get_output().stdout);
        assert_eq!(ours.len(), expected.len());
        for ((our, asked), theirs) in ours.iter().zip(&shallow).zip(&expected) {
            assert_eq!(our["perft"], asked["perft"], "{name} {}", theirs["id"]);
            assert_eq!(our["legal_moves"], theirs["legal_moves"], "{name} {}", theirs["id"]);
        }
    }
    // Fairy-Stockfish's names are aliases: losalamos is our minichess (6x6, no double step).
    let alias = tabula()
        .args(["fairy", "perft"])
        .write_stdin(
            "{\"variant\": \"losalamos\", \"fen\": \"rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\", \"perft\": [0]}\n",
        )
        .assert()
        .success();
    assert_eq!(
        output_lines(&alias.get_output().stdout)[0]["perft"],
        serde_json::json!([10]),
        "6 pawn steps, 4 knight moves"
    );
    let bad = tabula()
        .args(["fairy", "perft"])
        .write_stdin("{\"variant\": \"nonesuch\", \"fen\": \"8/8 w\"}\n")
        .assert()
        .failure();
    assert!(String::from_utf8_lossy(&bad.get_output().stderr).contains("line 1"));
}

/// `tabula bench fairy`: perft's nodes a second; the counts are the reference's (chess depth 3 is
/// 8,902 in every perft table), so a wrong move generator cannot time itself.
#[test]
fn bench_fairy_times_perft_from_a_position() {
    let output = tabula().args(["bench", "fairy", "--depth", "3", "--rounds", "3"]).assert().success();
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let rounds: Vec<&str> = stdout.lines().filter(|l| l.starts_with("round ")).collect();
    assert_eq!(rounds.len(), 3, "{stdout}");
    assert!(rounds.iter().all(|l| l.contains("perft 3 = 8902 nodes")), "{stdout}");
    let rate: f64 = stdout.lines().last().unwrap().strip_prefix("nodes_per_sec=").expect("last line").parse().unwrap();
    assert!(rate > 0.0);
    // Capablanca (10 x 8) from its start, as the reference counts it (`fairy-perft-public.jsonl`).
    let output = tabula()
        .args(["bench", "fairy", "--variant", "capablanca", "--depth", "2", "--rounds", "1"])
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&output.get_output().stdout).contains("perft 2 = 784 nodes"));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let output =
        tabula().args(["bench", "fairy", "--fen", kiwipete, "--depth", "2", "--rounds", "1"]).assert().success();
    assert!(String::from_utf8_lossy(&output.get_output().stdout).contains("perft 2 = 2039 nodes"));
    tabula().args(["bench", "fairy", "--variant", "nonesuch"]).assert().failure();
    tabula().args(["bench", "checkers"]).assert().failure();
}
