//! Our fairy chess against Fairy-Stockfish (its Python binding `pyffish`, installed by `cargo xtask
//! test` from PyPI) in every built-in variant that names its Fairy-Stockfish twin
//! (`fairy_stockfish` in `core/data/fairy-variants.json`, the one list of name mappings): seeded
//! random games played by Fairy-Stockfish, replayed by our engine, compared at every position: the
//! legal moves, the FEN (every field), check, and how and when the game ends.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use tabula_core::fairy::{Chess, ChessConfig, UciMove, Variant};
use tabula_core::Game;

const HINT: &str = "`cargo xtask test` installs pyffish (pip install --target ~/.cache/tabula/pyffish)";

fn pyffish_dir() -> PathBuf {
    let dir = std::env::var_os("TABULA_PYFFISH").map(PathBuf::from).unwrap_or_else(|| {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| "/tmp".into());
        std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).unwrap_or(home.join(".cache")).join("tabula/pyffish")
    });
    let installed = std::fs::read_dir(&dir)
        .is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("pyffish"))));
    assert!(installed, "pyffish is not installed in {}; {HINT}", dir.display());
    dir
}

/// How our engine says the game at `game` ended, in the words the script uses.
fn our_ending(game: &Chess) -> Option<String> {
    let outcome = game.status().outcome().cloned()?;
    Some(match (outcome.reason, outcome.winner) {
        ("stalemate", None) => "stalemate:0".to_owned(),
        // A stalemate the stalemated side loses: Fairy-Stockfish's result is from its view.
        ("stalemate", Some(_)) => "stalemate:-32000".to_owned(),
        // Shatranj's bare king: an immediate end, won by the side to move.
        ("bare_king", Some(_)) => "immediate:32000".to_owned(),
        (reason, _) => reason.to_owned(),
    })
}

#[test]
fn random_games_agree_with_fairy_stockfish_move_by_move() {
    let variants: Vec<(String, String)> = Variant::builtin()
        .iter()
        .filter_map(|(name, v)| v.fairy_stockfish.clone().map(|fs| (name.clone(), fs)))
        .collect();
    assert!(variants.len() >= 10, "the variants both engines define: {variants:?}");
    let games: u64 = std::env::var("TABULA_FSF_GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(4);
    // Endings random play seldom reaches, played out move by move (each must end exactly there).
    let knights = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
    let scripted = json!([
        ["chess", "chess", null, knights],
        ["chess", "chess", "7k/8/8/8/8/8/8/K5R1 w - - 98 80", ["a1b1", "h8h7"]],
        ["chess", "chess", "8/8/4k3/8/8/3KB3/8/8 b - - 0 1", []],
        ["shatranj", "shatranj", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", ["e8d8"]],
        ["shatranj", "shatranj", "5K1k/R7/8/8/8/8/8/8 b - - 0 1", []],
        ["chancellor9", "chancellor", "4k4/9/9/9/9/9/9/9/R3K3R w KQ - 0 1", ["e1g1"]],
        ["janus", "janus", "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1", ["e1b1", "e8i8"]],
    ]);
    let expected_ends = ["repetition", "fifty_moves", "insufficient_material", "immediate:32000", "stalemate:-32000"];
    let job = json!({"variants": variants, "games": games, "plies": 120, "seed": 20261123, "scripted": scripted});
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fairy_stockfish/play.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .env("PYTHONPATH", pyffish_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run python3: {e}; {HINT}"));
    child.stdin.take().unwrap().write_all(job.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the Fairy-Stockfish player failed; {HINT}");

    let (mut positions, mut endings) = (0, std::collections::BTreeMap::<String, usize>::new());
    let mut differences = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let (ours, start) = (record["ours"].as_str().unwrap(), record["start"].as_str().unwrap());
        let config = ChessConfig { variant: ours.into(), fen: Some(start.into()), ..ChessConfig::default() };
        let mut game = Chess::new(config).unwrap_or_else(|e| panic!("{ours}: {start}: {e}"));
        let moves = record["moves"].as_array().unwrap();
        let steps = record["positions"].as_array().unwrap();
        for (ply, step) in steps.iter().enumerate() {
            let at = format!("{ours} game {} ply {ply} ({})", record["game"], step["fen"]);
            let last = ply + 1 == steps.len();
            let theirs_end = if last { record["end"].as_str().map(str::to_owned) } else { None };
            if our_ending(&game) != theirs_end {
                differences.push(format!(
                    "{at}: the game ends {:?} for us, {theirs_end:?} for Fairy-Stockfish",
                    our_ending(&game)
                ));
                break;
            }
            if theirs_end.is_none() {
                let mut legal: Vec<String> = game.legal_moves().into_iter().map(|m| m.0).collect();
                legal.sort();
                let want: Vec<String> = serde_json::from_value(step["legal"].clone()).unwrap();
                if legal != want {
                    differences.push(format!("{at}: legal moves {legal:?} against {want:?}"));
                    break;
                }
            }
            if game.fen() != step["fen"].as_str().unwrap() {
                differences.push(format!("{at}: our FEN {}", game.fen()));
                break;
            }
            let check = serde_json::to_value(&game).unwrap()["in_check"].clone();
            if check != step["check"] {
                differences.push(format!("{at}: check {check} against {}", step["check"]));
                break;
            }
            positions += 1;
            if let Some(end) = &theirs_end {
                *endings.entry(end.clone()).or_default() += 1;
            }
            if let Some(mv) = moves.get(ply) {
                game.play(&UciMove(mv.as_str().unwrap().to_owned())).unwrap_or_else(|e| panic!("{at}: {mv}: {e}"));
            }
        }
    }
    println!("{positions} positions compared; endings: {endings:?}");
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
    for end in expected_ends {
        assert!(endings.contains_key(end), "no game ended by {end}: {endings:?}");
    }
    assert!(positions as u64 > 100 * games * variants.len() as u64, "{positions} positions");
}
