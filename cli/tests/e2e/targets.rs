//! One engine on every target: the rule engine and the computer players compiled to WASM (the
//! `ai` bundle, in Chromium's Web Worker, as local games run it) give exactly what the native build
//! gives, the one the server runs. Rooms replay moves in the browser and show what the engine there
//! says until the server answers: a difference would show players a wrong position, a wrong count
//! or other dead stones than the server's.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::ai::{AiRequest, AnyPlayer};
use tabula_core::GameKind;

use crate::browser::{site_dist, wait_for_app, Driver};
use crate::common::Server;
use crate::exclusive;

/// Posts `messages` to a worker started as local games start theirs, and returns its answers in
/// the order of the messages (it answers one at a time, in order).
const ASK_WORKER: &str = r#"
const worker = window.checkWorker || (window.checkWorker = new Worker(window.tabulaAi, { type: 'module' }));
const messages = arguments[0];
return new Promise((resolve) => {
  const replies = [];
  worker.onmessage = (event) => {
    replies.push(event.data);
    if (replies.length === messages.length) resolve(replies);
  };
  for (const message of messages) worker.postMessage(message);
});
"#;

async fn ask_worker(client: &fantoccini::Client, messages: &[Value]) -> Vec<Value> {
    let mut replies = Vec::new();
    // In batches: a script's answer travels through WebDriver as one JSON text.
    for batch in messages.chunks(40) {
        let texts: Vec<Value> = batch.iter().map(|m| Value::from(m.to_string())).collect();
        let answer = client.execute(ASK_WORKER, vec![Value::Array(texts)]).await.expect("the worker answers");
        for reply in answer.as_array().expect("a list of answers") {
            replies.push(serde_json::from_str(reply.as_str().expect("text")).expect("an answer in JSON"));
        }
    }
    replies
}

/// A game to replay on both targets.
struct Replay {
    label: String,
    kind: GameKind,
    config: Value,
    moves: Vec<Value>,
}

/// What the native engine says after `replay`'s moves: the state and the legal moves.
fn native(replay: &Replay) -> Value {
    let game = replay.kind.replay(&replay.config, &replay.moves).unwrap_or_else(|e| panic!("{}: {e}", replay.label));
    json!({"state": game.state(), "legal": game.legal_moves()})
}

fn shared_vectors() -> std::path::PathBuf {
    let shared = std::env::var_os("TABULA_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let dir = shared.join("vectors");
    assert!(dir.is_dir(), "reference vectors not found at {} (set TABULA_SHARED)", dir.display());
    dir
}

/// Every reference game of the files in `shared/vectors/` that hold whole games.
fn reference_games() -> Vec<Replay> {
    let files = [
        (GameKind::Popucom, "popucom-public.jsonl"),
        (GameKind::Popucom, "popucom-crafted.jsonl"),
        (GameKind::Edges, "edges-public.jsonl"),
        (GameKind::Edges, "edges-scenarios.jsonl"),
    ];
    let mut games = Vec::new();
    for (kind, file) in files {
        let text = std::fs::read_to_string(shared_vectors().join(file)).expect("a reference file");
        for (line, text) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let game: Value = serde_json::from_str(text).expect("a reference game");
            let moves = game.get("moves").or(game.get("actions")).and_then(Value::as_array).expect("moves");
            let config = game.get("config").cloned().unwrap_or(Value::Null);
            games.push(Replay { label: format!("{file}:{}", line + 1), kind, config, moves: moves.clone() });
        }
    }
    games
}

/// Games of random legal moves (never a pass or a resignation until the end), `moves` long, that
/// end with two passes: Go's scoring phase, where the engine proposes the dead stones from its
/// seeded playouts.
fn go_end_positions(size: u32, count: usize, longest: usize, rng: &mut SmallRng) -> Vec<Replay> {
    let config = json!({ "size": size });
    (0..count)
        .map(|index| {
            let mut game = GameKind::Go.new_game(&config).expect("a Go config");
            let mut moves = Vec::new();
            let length = rng.random_range(longest / 4..=longest);
            while moves.len() < length {
                let choices: Vec<Value> =
                    game.legal_moves().into_iter().filter(|m| m.get("type") == Some(&json!("play"))).collect();
                if choices.is_empty() {
                    break;
                }
                let mv = choices[rng.random_range(0..choices.len())].clone();
                game.play(&mv).expect("a legal move");
                moves.push(mv);
            }
            for _ in 0..2 {
                let pass = json!({"type": "pass"});
                game.play(&pass).expect("a pass");
                moves.push(pass);
            }
            Replay { label: format!("Go {size}x{size} #{index}"), kind: GameKind::Go, config: config.clone(), moves }
        })
        .collect()
}

/// Games of random legal moves in chess variants of every kind of piece the engine moves (leapers,
/// riders, hoppers, reflecting and laser pieces, boards up to 12x12).
fn chess_games(rng: &mut SmallRng) -> Vec<Replay> {
    let mut games = Vec::new();
    let variants = ["chess", "capablanca", "grand", "shatranj", "knightmate", "big12", "griffin-laser", "hoppers"];
    for variant in variants.into_iter().chain(["reflecting1", "nightrider", "imitator", "janus"]) {
        let config = json!({ "variant": variant });
        let mut game = GameKind::Chess.new_game(&config).unwrap_or_else(|e| panic!("{variant}: {e}"));
        let mut moves = Vec::new();
        for _ in 0..rng.random_range(20..120) {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())].clone();
            game.play(&mv).expect("a legal move");
            moves.push(mv);
        }
        games.push(Replay { label: format!("chess {variant}"), kind: GameKind::Chess, config, moves });
    }
    games
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_in_wasm_gives_what_the_native_one_gives_bit_for_bit() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/popucom/local", server.base)).await.unwrap();
    wait_for_app(&client).await;

    let mut rng = SmallRng::seed_from_u64(48);
    let mut replays = reference_games();
    let references = replays.len();
    replays.extend(go_end_positions(9, 200, 80, &mut rng));
    replays.extend(go_end_positions(19, 40, 300, &mut rng));
    for _ in 0..5 {
        replays.extend(chess_games(&mut rng));
    }
    let messages: Vec<Value> = replays
        .iter()
        .enumerate()
        .map(|(id, r)| json!({"id": id, "replay": {"game": r.kind, "config": r.config, "moves": r.moves}}))
        .collect();
    let replies = ask_worker(&client, &messages).await;
    let mut proposals_with_dead = 0;
    for ((replay, reply), id) in replays.iter().zip(&replies).zip(0..) {
        assert_eq!(reply["id"], id, "{}: answers in order", replay.label);
        let ours = native(replay);
        assert_eq!(reply["state"], ours["state"], "{}: the state after the last move", replay.label);
        assert_eq!(reply["legal"], ours["legal"], "{}: the legal moves after the last move", replay.label);
        if replay.kind == GameKind::Go && ours["state"]["dead"].as_array().is_some_and(|d| !d.is_empty()) {
            proposals_with_dead += 1;
        }
    }
    assert!(references > 500, "only {references} reference games");
    // The proposal is drawn from seeded playouts only where stones are not clearly alive: the check
    // means something only if many proposals mark stones dead.
    assert!(proposals_with_dead > 50, "only {proposals_with_dead} Go proposals mark dead stones");

    // Each game's computer move at fixed seeds, from the start and from positions of the replays
    // (a new seed each time, so the worker starts a new player as the native side does).
    let mut asked = Vec::new();
    for kind in GameKind::ALL {
        let mut positions: Vec<(Value, Vec<Value>)> = vec![(json!({}), Vec::new())];
        for replay in replays.iter().filter(|r| r.kind == kind).take(4) {
            let cut = replay.moves.len() / 2;
            positions.push((replay.config.clone(), replay.moves[..cut].to_vec()));
        }
        for (config, moves) in positions {
            asked.push((kind, 2u8, 1000 + asked.len() as u64, config, moves));
        }
    }
    let messages: Vec<Value> = asked
        .iter()
        .enumerate()
        .map(|(id, (kind, level, seed, config, moves))| {
            json!({"id": id, "game": kind, "level": level, "seed": seed, "request": {"config": config, "moves": moves}})
        })
        .collect();
    let replies = ask_worker(&client, &messages).await;
    for ((kind, level, seed, config, moves), reply) in asked.iter().zip(&replies) {
        let mut player = AnyPlayer::new(*kind, *level, *seed).expect("a computer player");
        let request = AiRequest { config: config.clone(), moves: moves.clone(), seat: None };
        let ours = player.reply(&request, || 0.0);
        let what = format!("{kind} level {level} seed {seed} after {} moves", moves.len());
        assert!(ours["move"].is_object() || ours["move"].is_array() || ours["move"].is_string(), "{what}: {ours}");
        for field in ["move", "playouts", "nodes", "blundered"] {
            assert_eq!(reply[field], ours[field], "{what}: {field}");
        }
        // The engine's value is an `f32`, written as an `f64`. serde_json's default reading of a
        // 17-digit number can be one `f64` step off ("0.9328116774559021" reads as
        // 0.932811677455902), so it is compared as the `f32` it is, which that step cannot change.
        let value = |answer: &Value| answer["value"].as_f64().map(|v| (v as f32).to_bits());
        assert_eq!(value(reply), value(&ours), "{what}: value {} against {}", reply["value"], ours["value"]);
    }
    client.close().await.unwrap();
}
