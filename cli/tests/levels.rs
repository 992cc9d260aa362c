//! The levels' order (issue 48): in every game with a computer player, each level beats the one two
//! below it (3 over 1, 4 over 2, 5 over 3) in at least three games of four, and by enough games that
//! its 95% interval stays above even. The matches are short: every level's budget is divided by the
//! same number (`tabula arena --a level:5/D`), which keeps the levels' ratios. The engine draws only
//! from its seeds, so a match at fixed seeds gives the same games on every run and every machine:
//! this test cannot fail on a slow moment, only on a change of strength.

use assert_cmd::Command;
use serde_json::Value;

/// The games of a match: enough for a three-in-four share to be told from even.
const GAMES: u32 = 20;

/// A's score over the games of one `tabula arena` run, and the half-width of its 95% interval.
fn arena(game: &str, config: &str, limit: u32, a: &str, b: &str, seed: u32) -> (f64, f64, String) {
    let output = Command::cargo_bin("tabula")
        .expect("the tabula binary is built for tests")
        .args(["arena", game, "--a", a, "--b", b, "--games", &GAMES.to_string(), "--seed", &seed.to_string()])
        .args(["--config", config, "--limit", &limit.to_string()])
        .assert()
        .success();
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let scores: Vec<f64> = text
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|game| game["a_score"].as_f64())
        .collect();
    assert_eq!(scores.len(), GAMES as usize, "{text}");
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    (mean, 1.96 * (variance / n).sqrt(), text.lines().last().unwrap_or_default().to_owned())
}

/// Each level against the one two below it, both at `1/divisor` of their budgets, every game stopped
/// after `limit` moves (judged by cells in Edges & Blocks, else a draw).
fn levels_in_order(game: &str, config: &str, limit: u32, divisor: u32) {
    let mut failures = Vec::new();
    for (stronger, weaker) in [(3u8, 1u8), (4, 2), (5, 3)] {
        let (a, b) = (format!("level:{stronger}/{divisor}"), format!("level:{weaker}/{divisor}"));
        let (score, half_width, tally) = arena(game, config, limit, &a, &b, 48 + u32::from(stronger));
        eprintln!("{game} {config}: {tally}");
        if score < 0.75 || score - half_width <= 0.5 {
            failures.push(format!("{a} over {b}: {score:.3} ± {half_width:.3} ({tally})"));
        }
    }
    assert!(failures.is_empty(), "{game}: a level does not beat the one two below it:\n{}", failures.join("\n"));
}

#[test]
fn popucom_levels_beat_the_level_two_below() {
    levels_in_order("popucom", "{}", 1_000, 50);
}

#[test]
fn go_levels_beat_the_level_two_below() {
    levels_in_order("go", r#"{"size": 9}"#, 1_000, 25);
}

#[test]
fn edges_levels_beat_the_level_two_below() {
    // The network game's board (6 x 6, 3 cells). Weak levels can shuffle edges without a capture
    // for as long as they are let (level 3 against 1 ends one game in twenty by 1,000 actions):
    // stopped after 300 actions, a game goes to whoever has more cells.
    levels_in_order("edges", r#"{"size": 6, "cells_to_win": 3}"#, 300, 4);
}

#[test]
fn chess_levels_beat_the_level_two_below() {
    levels_in_order("chess", "{}", 1_000, 20);
}
