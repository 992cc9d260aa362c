//! `tabula gtp` checked by the shared Go tools (`shared/tools/go`) against GNU Go, the reference:
//! the public rule cases under both ko rules, and random games compared move by move.

use std::path::PathBuf;
use std::process::Command;

const GNUGO: &str = "/usr/games/gnugo";

fn shared() -> PathBuf {
    std::env::var_os("TABULA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

fn tabula_gtp(ko: &str) -> String {
    format!("{} gtp --ko {ko}", env!("CARGO_BIN_EXE_tabula"))
}

/// Runs a shared Python tool; panics with its output unless it succeeds. Returns its stdout.
fn tool(script: &str, args: &[&str]) -> String {
    let path = shared().join("tools/go").join(script);
    assert!(path.is_file(), "{} missing (set TABULA_SHARED)", path.display());
    let output = Command::new("python3")
        .arg(&path)
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("python3 runs (cargo xtask test installs it)");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{script} {args:?} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn cases() -> String {
    shared().join("vectors/go-cases-public.jsonl").display().to_string()
}

#[test]
fn every_public_case_passes_under_simple_ko() {
    let out = tool("check_cases.py", &["--captures", "--engine", &tabula_gtp("simple"), &cases()]);
    assert!(out.contains("100 cases, 0 failed"), "{out}");
}

#[test]
fn every_public_case_passes_under_positional_superko() {
    let out = tool("check_cases.py", &["--psk", "--captures", "--engine", &tabula_gtp("psk"), &cases()]);
    assert!(out.contains("100 cases, 0 failed"), "{out}");
}

/// Random games: GNU Go (with the matching ko option) chooses, ours must agree on stones, legal
/// points and captures after every move. GNU Go's `final_score` guesses dead stones in unfinished
/// random games, so scores are not compared (`--score none`).
fn diff(ko: &str, gnugo_ko: &[&str], size: &str, games: &str, seed: &str) {
    assert!(std::path::Path::new(GNUGO).is_file(), "GNU Go is missing: cargo xtask test installs Debian's gnugo");
    let gnugo = [&[GNUGO, "--mode", "gtp", "--chinese-rules"][..], gnugo_ko].concat().join(" ");
    let ours = tabula_gtp(ko);
    let replays = std::env::temp_dir();
    let args = [
        "--a",
        &gnugo,
        "--b",
        &ours,
        "--games",
        games,
        "--size",
        size,
        "--seed",
        seed,
        "--check-legal",
        "--check-captures",
        "--score",
        "none",
        "--replay-dir",
        replays.to_str().unwrap(),
    ];
    let out = tool("gtp_diff.py", &args);
    assert!(out.contains(&format!("{games} games, 0 disagreements")), "{out}");
}

#[test]
fn random_9x9_games_agree_with_gnu_go_under_superko() {
    diff("psk", &["--positional-superko"], "9", "50", "11");
}

#[test]
fn random_19x19_games_agree_with_gnu_go_under_superko() {
    diff("psk", &["--positional-superko"], "19", "10", "12");
}

#[test]
fn random_9x9_games_agree_with_gnu_go_under_simple_ko() {
    diff("simple", &[], "9", "50", "13");
}

#[test]
fn random_19x19_games_agree_with_gnu_go_under_simple_ko() {
    diff("simple", &[], "19", "10", "14");
}
