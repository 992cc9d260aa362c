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

/// Sends a GTP script to `tabula gtp`; returns the answers (without the `=`/`?` status) in order.
fn session(script: &str) -> Vec<(bool, String)> {
    let output = assert_cmd::Command::cargo_bin("tabula").unwrap().args(["gtp"]).write_stdin(script).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    text.split("\n\n")
        .filter(|answer| !answer.trim().is_empty())
        .map(|answer| (answer.starts_with('='), answer[1..].trim().to_owned()))
        .collect()
}

#[test]
fn gtp_speaks_the_required_commands() {
    let answers = session(
        "protocol_version\nname\n7 known_command genmove\nknown_command fly\nlist_commands\nboardsize 5\n\
         clear_board\nkomi 0.5\nplay b C3\nplay w C3\nis_legal w C3\nis_legal w B3\nlist_stones black\n\
         undo\nlist_stones black\nundo\nboardsize 30\nfrobnicate\nplay b A1\nplay w B1\nplay b B2\nplay b C1\ncaptures black\n\
         showboard\nfinal_score\nquit\nname\n",
    );
    let texts: Vec<&str> = answers.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(&texts[..4], ["2", "Tabula", "7 true", "false"]);
    for command in COMMANDS_REQUIRED {
        assert!(answers[4].1.lines().any(|l| l == command), "list_commands lacks {command}");
    }
    assert!(answers[5..9].iter().all(|(ok, _)| *ok), "{answers:?}");
    assert_eq!(answers[9], (false, "illegal move".into()), "C3 is taken");
    assert_eq!((texts[10], texts[11], texts[12]), ("0", "1", "C3"));
    assert_eq!((answers[13].0, texts[14]), (true, ""), "undo takes C3 back");
    assert!(!answers[15].0, "nothing left to undo");
    assert!(!answers[16].0 && !answers[17].0, "bad size and unknown command are errors");
    // White B1, between black A1 and B2, is captured by black C1: one stone.
    assert_eq!(texts[22], "1");
    assert!(texts[23].contains('X') && texts[23].contains("A B C D E"), "{}", texts[23]);
    assert!(texts[24].starts_with("B+"), "black has all the area: {}", texts[24]);
    assert_eq!(answers.len(), 26, "nothing is read after quit");
}

/// The list, written out here on purpose rather than taken from the engine's own.
const COMMANDS_REQUIRED: [&str; 17] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "quit",
    "is_legal",
    "list_stones",
    "captures",
    "final_score",
];

#[test]
fn genmove_plays_legal_moves_and_never_fills_its_own_eyes() {
    // Black owns the 5x5 board's left side with two eyes at A1 and A3 (walls on B and column A).
    let setup = "boardsize 5\nclear_board\nplay b A2\nplay b A4\nplay b B1\nplay b B2\nplay b B3\nplay b B4\nplay b A5\nplay b B5\n";
    let mut script = setup.to_owned();
    for _ in 0..12 {
        script += "genmove b\ngenmove w\n";
    }
    let answers = session(&script);
    let moves = &answers[10..];
    for (i, (ok, vertex)) in moves.iter().enumerate() {
        assert!(ok, "genmove failed: {vertex}");
        if i % 2 == 0 {
            assert!(vertex != "A1" && vertex != "A3", "black filled its own eye: {vertex}");
        }
    }
}

#[test]
fn komi_applies_to_the_game_in_progress_and_a_bad_one_changes_nothing() {
    let answers = session(
        "boardsize 5\nclear_board\nplay b C3\nkomi 100.5\nfinal_score\nkomi 2000\nkomi 0.5\nfinal_score\nclear_board\n",
    );
    assert_eq!(answers[4], (true, "W+75.5".into()), "25 black points against 100.5");
    assert!(!answers[5].0, "komi 2000 is refused");
    assert_eq!(answers[7], (true, "B+24.5".into()));
    assert!(answers[8].0, "the engine still works");
}
