//! `tabula ai`, `tabula arena` and `tabula gtp --level` as a harness drives them: answers are legal
//! moves, the same seed answers the same, bad lines get an error and the player goes on.

use assert_cmd::Command;
use serde_json::{json, Value};
use tabula_core::GameKind;

fn tabula() -> Command {
    Command::cargo_bin("tabula").expect("the tabula binary is built for tests")
}

fn lines(stdout: &[u8]) -> Vec<String> {
    String::from_utf8(stdout.to_vec()).unwrap().lines().map(str::to_owned).collect()
}

/// Plays a POPUCOM game through `tabula ai` alone, one process per move (so nothing but the
/// request carries the game), and returns the moves.
fn game_through_ai(seed: &str) -> Vec<Value> {
    let mut moves: Vec<Value> = Vec::new();
    for _ in 0..50 {
        let request = json!({"config": {}, "moves": moves}).to_string() + "\n";
        let output =
            tabula().args(["ai", "popucom", "--level", "2", "--seed", seed]).write_stdin(request).assert().success();
        let answer: Value = serde_json::from_str(&lines(&output.get_output().stdout)[0]).unwrap();
        assert!(answer["ms"].as_f64().is_some() && answer["playouts"].as_u64().is_some(), "{answer}");
        moves.push(answer["move"].clone());
    }
    moves
}

#[test]
fn ai_answers_legal_moves_the_same_for_the_same_seed() {
    let moves = game_through_ai("4");
    let game = GameKind::Popucom.replay(&json!({}), &moves).expect("every answer was legal");
    assert!(game.status().is_over());
    assert_eq!(game_through_ai("4"), moves);

    // Once the game is over there is nothing to play.
    let over = json!({"moves": moves}).to_string();
    let output = tabula().args(["ai", "popucom"]).write_stdin(over + "\n").assert().success();
    let answer: Value = serde_json::from_str(&lines(&output.get_output().stdout)[0]).unwrap();
    assert_eq!(answer["move"], Value::Null);
}

#[test]
fn ai_refuses_bad_lines_and_goes_on() {
    let input = [
        "not json".to_owned(),
        json!({"moves": [[4, 4], [4, 4]]}).to_string(),
        json!({"config": {"size": 99}, "moves": []}).to_string(),
        json!({"moves": [], "colour": 1}).to_string(),
        json!({"moves": [[4, 4]]}).to_string(),
    ]
    .join("\n");
    let output = tabula().args(["ai", "popucom", "--level", "1"]).write_stdin(input).assert().success();
    let answers: Vec<Value> =
        lines(&output.get_output().stdout).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let codes: Vec<&str> = answers.iter().map(|a| a["error"]["code"].as_str().unwrap_or("ok")).collect();
    assert_eq!(codes, ["bad_request", "bad_moves", "bad_config", "bad_request", "ok"]);
    let after = GameKind::Popucom.replay(&json!({}), &[json!([4, 4])]).unwrap();
    let mut after = after;
    after.play(&answers[4]["move"]).expect("the last answer is legal");

    let chess =
        tabula().args(["ai", "chess", "--level", "2"]).write_stdin("{\"moves\": [\"e2e4\"]}\n").assert().success();
    let answer: Value = serde_json::from_str(lines(&chess.get_output().stdout)[0].as_str()).unwrap();
    let mut game = GameKind::Chess.replay(&json!({}), &[json!("e2e4")]).unwrap();
    game.play(&answer["move"]).expect("the chess answer is legal");
}

#[test]
fn arena_plays_alternating_colours_and_tallies() {
    let output = tabula()
        .args(["arena", "popucom", "--a", "level:3", "--b", "uct:30", "--games", "4", "--seed", "2"])
        .assert()
        .success();
    let out = lines(&output.get_output().stdout);
    assert_eq!(out.len(), 5, "{out:?}");
    let games: Vec<Value> = out[..4].iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.iter().map(|g| g["a_seat"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 1, 2]);
    assert!(games.iter().all(|g| g["moves"] == 50 && g["reason"] == "moves_exhausted"), "{games:?}");
    let points: f64 = games.iter().map(|g| g["a_score"].as_f64().unwrap()).sum();
    let tally = &out[4];
    assert!(
        tally.contains("A level:3 vs B uct:30") && tally.contains(&format!("A scores {:.3}", points / 4.0)),
        "{tally}"
    );

    let bad = tabula().args(["arena", "popucom", "--a", "level:3", "--b", "gnugo:10"]).assert().failure();
    assert!(String::from_utf8_lossy(&bad.get_output().stderr).contains("expected level:N, uct:PLAYOUTS, uci:PROGRAM"));
}

#[test]
fn arena_drives_an_outside_json_lines_player_and_referees_it() {
    // `tabula ai` itself stands in for the outside player; `{seed}` gives each game its own.
    let player = format!("jsonl:{} ai popucom --level 1 --seed {{seed}}", env!("CARGO_BIN_EXE_tabula"));
    let output =
        tabula().args(["arena", "popucom", "--a", "level:1", "--b", &player, "--games", "2"]).assert().success();
    let out = lines(&output.get_output().stdout);
    assert_eq!(out.len(), 3, "{out:?}");
    for line in &out[..2] {
        let game: Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["moves"], 50, "{game}");
    }
    assert!(out[2].contains(&format!("vs B {player}")), "{}", out[2]);

    // A player of another game answers moves POPUCOM refuses: the arena stops and says which.
    let wrong = format!("jsonl:{} ai edges --level 1", env!("CARGO_BIN_EXE_tabula"));
    let refused = tabula().args(["arena", "popucom", "--a", "level:1", "--b", &wrong]).assert().failure();
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("move 0") || stderr.contains("move 1"), "{stderr}");
}

#[test]
fn arena_drives_an_outside_uci_engine_in_a_chess_variant() {
    // `tabula uci` itself stands in for the outside engine; the arena referees its every move.
    let engine = format!("uci:{} uci?Level=1&movetime=20", env!("CARGO_BIN_EXE_tabula"));
    let config = r#"{"variant": "capablanca"}"#;
    let output = tabula()
        .args(["arena", "chess", "--a", "level:1", "--b", &engine, "--games", "2", "--config", config])
        .assert()
        .success();
    let out = lines(&output.get_output().stdout);
    assert_eq!(out.len(), 3, "{out:?}");
    for line in &out[..2] {
        let game: Value = serde_json::from_str(line).unwrap();
        assert!(game["moves"].as_u64().unwrap() > 2, "{game}");
    }
    assert!(out[2].contains(&format!("vs B uci:{} uci:", env!("CARGO_BIN_EXE_tabula"))), "{}", out[2]);

    let elsewhere = tabula().args(["arena", "popucom", "--a", "level:1", "--b", &engine]).assert().failure();
    assert!(String::from_utf8_lossy(&elsewhere.get_output().stderr).contains("only the chess variants"));
}

#[test]
fn gtp_genmove_at_a_level_plays_legal_moves_for_both_colours() {
    let script = "boardsize 7\nkomi 0.5\ngenmove b\ngenmove w\ngenmove b\nlist_stones black\nlist_stones white\nquit\n";
    let output = tabula().args(["gtp", "--level", "1"]).write_stdin(script).assert().success();
    let replies: Vec<String> = lines(&output.get_output().stdout).into_iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(replies.len(), 8, "{replies:?}");
    let played: Vec<&str> = replies[2..5].iter().map(|r| r.trim_start_matches("= ")).collect();
    let black: Vec<&str> = replies[5].trim_start_matches("= ").split_whitespace().collect();
    let white: Vec<&str> = replies[6].trim_start_matches("= ").split_whitespace().collect();
    for (mv, stones) in [(played[0], &black), (played[1], &white), (played[2], &black)] {
        assert!(mv == "pass" || stones.contains(&mv), "{mv} is on the board: {replies:?}");
    }
}

#[test]
fn gtp_keeps_its_tree_only_along_moves_played_in_turn() {
    // Self-play (the tree kept from move to move), undo, and moves out of turn (the tree dropped):
    // every genmove is answered with a legal move, which the engine then plays.
    let script = "boardsize 7\nkomi 0.5\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nundo\nundo\ngenmove w\n\
                  play w A1\ngenmove w\ngenmove b\nplay w G7\ngenmove w\ngenmove b\nquit\n";
    let output = tabula().args(["gtp", "--level", "3", "--seed", "5"]).write_stdin(script).assert().success();
    let replies: Vec<String> = lines(&output.get_output().stdout).into_iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(replies.len(), 16, "{replies:?}");
    assert!(replies.iter().all(|r| r.starts_with('=')), "a command failed: {replies:?}");
}

#[test]
fn uci_plays_legal_moves_in_each_variant_within_its_limits() {
    let input = "uci\nisready\nposition startpos moves e2e4 e7e5\ngo nodes 5000\n\
                 setoption name UCI_Variant value capablanca\nucinewgame\nposition startpos\ngo depth 2\n\
                 setoption name UCI_Variant value nosuchvariant\nposition fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n\
                 setoption name UCI_Variant value chess\nposition fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo movetime 300\n\
                 position startpos moves e2e5\nquit\n";
    let start = std::time::Instant::now();
    let output = tabula().args(["uci"]).write_stdin(input).assert().success();
    let lines = lines(&output.get_output().stdout);
    assert!(lines.contains(&"uciok".to_owned()) && lines.contains(&"readyok".to_owned()), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant type combo default chess") && l.contains(" var capablanca")));
    let best: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("bestmove ")).collect();
    assert_eq!(best.len(), 3, "{lines:?}");
    let mut chess = GameKind::Chess.replay(&json!({}), &[json!("e2e4"), json!("e7e5")]).unwrap();
    chess.play(&json!(best[0])).expect("a legal reply in chess");
    let mut capablanca = GameKind::Chess.replay(&json!({"variant": "capablanca"}), &[]).unwrap();
    capablanca.play(&json!(best[1])).expect("a legal move in capablanca");
    assert_eq!(best[2], "a1a8", "the back-rank mate is found");
    assert!(lines.iter().any(|l| l.starts_with("info depth") && l.contains("score mate 1")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("no variant \"nosuchvariant\"")));
    assert!(lines.iter().any(|l| l.contains("move e2e5")), "an illegal move is refused: {lines:?}");
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

/// `tabula review` as a script drives it: one line per game, the shape of the issue (values from the
/// start, a mark per move, each side's biggest mistake first), the same for the same seed, and a
/// bad line answered with an error while the next game goes on.
#[test]
fn review_writes_one_line_per_game_and_names_a_queen_given_away() {
    let blunder = json!({"moves": ["e2e4", "e7e5", "g1f3", "d8h4", "f3h4"]}).to_string();
    let input = [blunder.clone(), "not json".to_owned(), json!({"moves": ["e2e5"]}).to_string(), blunder].join("\n");
    let run = || {
        let output =
            tabula().args(["review", "chess", "--level", "3", "--seed", "2"]).write_stdin(input.clone()).assert();
        lines(&output.success().get_output().stdout)
    };
    let answers = run();
    assert_eq!(answers.len(), 4);
    let review: Value = serde_json::from_str(&answers[0]).unwrap();
    assert_eq!(review["values"].as_array().unwrap().len(), 6, "{review}");
    assert_eq!(review["marks"].as_array().unwrap().len(), 5, "{review}");
    let first = &review["mistakes"][0];
    assert_eq!((first["ply"].as_u64(), first["colour"].as_u64()), (Some(4), Some(2)), "{review}");
    assert!(first["loss"].as_f64().unwrap() >= 0.15 && first["best"].is_string(), "{review}");
    let codes: Vec<Value> =
        answers[1..3].iter().map(|l| serde_json::from_str::<Value>(l).unwrap()["error"]["code"].clone()).collect();
    assert_eq!(codes, [json!("bad_request"), json!("bad_moves")]);
    assert_eq!(answers[3], answers[0], "the same game, the same review");
    assert_eq!(run(), answers, "the same seed, the same reviews");
}
