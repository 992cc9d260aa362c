//! `cargo xtask ai-matches [NAME ...]`: the matches of docs/AI.md's strength table, with their
//! seeds, as `tabula arena` (release build) plays them, two at a time (one per core). Each run's
//! games are written to `target/ai-matches/<name>-seed<S>.jsonl` and every match's tally is
//! printed. `--list` names the matches; without names, all of them are played (hours);
//! `--games N` plays N games of each run instead (a quick look, not the table's figures).
//! The engine's results depend on its seeds and budgets only, so a match gives the same games
//! on every machine; its seconds per game depend on the CPU.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::{run, site::target_dir, workspace_root};

/// One row of the strength table.
struct Row {
    name: &'static str,
    game: &'static str,
    config: &'static str,
    a: &'static str,
    b: &'static str,
    /// `(seed, games)`: each is one `tabula arena` run.
    runs: &'static [(u64, u32)],
}

/// The rows made with today's engine (docs/AI.md, Strength: the rows from 2026-11-26 on). Rows
/// against outside engines (GNU Go, Fairy-Stockfish) are played by the commands written beside
/// them, which need those programs built.
const ROWS: &[Row] = &[
    Row {
        name: "popucom-level5-vs-uct200000",
        game: "popucom",
        config: "null",
        a: "level:5",
        b: "uct:200000",
        runs: &[(21, 50), (22, 50), (23, 30), (24, 30)],
    },
    Row {
        // The same match after the playouts' last moves and blocks (2026-12-02).
        name: "popucom-level5-vs-uct200000-blocks",
        game: "popucom",
        config: "null",
        a: "level:5",
        b: "uct:200000",
        runs: &[(31, 25), (32, 25), (33, 20)],
    },
    Row {
        // The same match after a node's edges from its eighth visit (2026-12-05).
        name: "popucom-level5-vs-uct200000-all-edges",
        game: "popucom",
        config: "null",
        a: "level:5",
        b: "uct:200000",
        runs: &[(51, 50), (52, 50), (53, 50), (54, 50)],
    },
    Row {
        name: "chess-level5-vs-level3",
        game: "chess",
        config: "null",
        a: "level:5",
        b: "level:3",
        runs: &[(41, 50), (42, 50)],
    },
    Row {
        name: "capablanca-level5-vs-level3",
        game: "chess",
        config: r#"{"variant":"capablanca"}"#,
        a: "level:5",
        b: "level:3",
        runs: &[(43, 50), (44, 50)],
    },
    Row {
        name: "griffin-seed-level5-vs-level3",
        game: "chess",
        config: r#"{"variant":"griffin-seed"}"#,
        a: "level:5",
        b: "level:3",
        runs: &[(31, 50), (32, 50)],
    },
    Row {
        name: "edges-level5-vs-uct10000",
        game: "edges",
        config: "null",
        a: "level:5",
        b: "uct:10000",
        runs: &[(45, 50), (46, 50)],
    },
    Row {
        name: "chess-level5-vs-level3-repetitions",
        game: "chess",
        config: "null",
        a: "level:5",
        b: "level:3",
        runs: &[(61, 50)],
    },
];

pub fn ai_matches(args: &[String]) -> Result<()> {
    if args.iter().any(|a| a == "--list") {
        for row in ROWS {
            let games: u32 = row.runs.iter().map(|(_, games)| games).sum();
            println!("{}: {} {} vs {} ({games} games, config {})", row.name, row.game, row.a, row.b, row.config);
        }
        return Ok(());
    }
    let mut names: Vec<&String> = Vec::new();
    let mut games_each: Option<u32> = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--games" {
            let n = rest.next().and_then(|n| n.parse().ok()).filter(|&n| n > 0);
            games_each = Some(n.context("--games takes a number of games")?);
        } else {
            names.push(arg);
        }
    }
    let chosen: Vec<&Row> = if names.is_empty() {
        ROWS.iter().collect()
    } else {
        names
            .into_iter()
            .map(|name| ROWS.iter().find(|row| row.name == name).with_context(|| format!("no match {name:?} (--list)")))
            .collect::<Result<_>>()?
    };
    run("cargo", &["build", "--release", "--bin", "tabula"])?;
    let tabula = target_dir().join("release/tabula");
    let logs = target_dir().join("ai-matches");
    std::fs::create_dir_all(&logs)?;
    let runs: Vec<(&Row, u64, u32)> = chosen
        .iter()
        .flat_map(|row| row.runs.iter().map(move |&(seed, games)| (*row, seed, games_each.unwrap_or(games))))
        .collect();
    // Two at a time: each `tabula arena` is one thread.
    for pair in runs.chunks(2) {
        let started: Vec<_> = pair
            .iter()
            .map(|&(row, seed, games)| start(&tabula, &logs, row, seed, games).map(|child| (row, seed, child)))
            .collect::<Result<_>>()?;
        for (row, seed, mut child) in started {
            let status = child.wait()?;
            if !status.success() {
                bail!("{} --seed {seed} failed ({status})", row.name);
            }
        }
    }
    for row in chosen {
        println!("{}", tally(row, &logs)?);
    }
    Ok(())
}

fn log_of(logs: &Path, row: &Row, seed: u64) -> PathBuf {
    logs.join(format!("{}-seed{seed}.jsonl", row.name))
}

fn start(tabula: &Path, logs: &Path, row: &Row, seed: u64, games: u32) -> Result<std::process::Child> {
    let log = std::fs::File::create(log_of(logs, row, seed))?;
    let (seed_text, games_text) = (seed.to_string(), games.to_string());
    let args = ["arena", row.game, "--a", row.a, "--b", row.b, "--games", &games_text, "--seed", &seed_text];
    eprintln!("xtask: tabula {} --config {} > {}", args.join(" "), row.config, log_of(logs, row, seed).display());
    Command::new(tabula)
        .args(args)
        .args(["--config", row.config])
        .stdout(Stdio::from(log))
        .current_dir(workspace_root())
        .spawn()
        .context("could not start tabula arena")
}

/// A row's games over all its runs: W-L-D from A's side and A's score with its 95% interval.
fn tally(row: &Row, logs: &Path) -> Result<String> {
    let mut scores = Vec::new();
    for &(seed, _) in row.runs {
        let text = std::fs::read_to_string(log_of(logs, row, seed))?;
        for line in text.lines().filter(|l| l.starts_with('{')) {
            let game: serde_json::Value = serde_json::from_str(line)?;
            scores.push(game["a_score"].as_f64().context("a game without a_score")?);
        }
    }
    Ok(summary(row.name, &scores))
}

fn summary(name: &str, scores: &[f64]) -> String {
    let n = scores.len().max(1) as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let spread = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n / n).sqrt();
    let count = |value: f64| scores.iter().filter(|&&s| s == value).count();
    format!(
        "{name}: {}-{}-{} over {} games, A scores {mean:.3} ± {:.3} (95%)",
        count(1.0),
        count(0.0),
        count(0.5),
        scores.len(),
        1.96 * spread
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_has_a_name_of_its_own_and_games() {
        for (index, row) in ROWS.iter().enumerate() {
            assert!(ROWS[..index].iter().all(|other| other.name != row.name), "{} twice", row.name);
            assert!(row.runs.iter().all(|&(_, games)| games > 0), "{}", row.name);
            assert!(serde_json::from_str::<serde_json::Value>(row.config).is_ok(), "{}", row.name);
        }
    }

    #[test]
    fn a_summary_counts_wins_losses_and_draws() {
        let line = summary("m", &[1.0, 1.0, 0.5, 0.0]);
        assert!(line.starts_with("m: 2-1-1 over 4 games, A scores 0.625 ± "), "{line}");
        // Bernoulli-like spread of (1, 1, 0.5, 0): variance 0.171875 / 4 games.
        assert!(line.ends_with(&format!("{:.3} (95%)", 1.96 * (0.171875f64 / 4.0).sqrt())), "{line}");
    }
}
