//! The rules under fire: both seated players of a room of each game send random requests with their
//! real tokens (legal moves chosen by the engine, moves out of turn, mangled moves, stale versions,
//! every action), so the room's rules (`apply`) run on each. After every answer the room must be
//! one the engine replays to the same state; a refusal changes nothing; a legal move by the side to
//! move, at the room's version, in a game going on, is taken. `TABULA_FUZZ_CASES` sets the number
//! of requests a store (CI: 300), `TABULA_FUZZ_SEED` the seed (printed).

use std::collections::{BTreeMap, BTreeSet};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::{AnyGame, GameKind};

use crate::client::{room_id, Backend, TestApi};
use crate::fuzz::ACTIONS;

/// What a request was meant to be, to know which answer it must get.
#[derive(Debug, PartialEq)]
enum Kind {
    /// A legal move by the side to move at the room's version.
    Legal,
    /// A move the engine allows, by the seat whose turn it is not, at the room's version.
    OutOfTurn,
    /// A move at a version the room is not at.
    Stale,
    /// A request with the token of a seat in another room.
    Foreign,
    /// Anything else: it may be taken or refused, never break the room.
    Other,
}

/// The seat (1 or 2) playing `colour` in the room's current game: they swap at every rematch.
fn seat_of(view: &Value, colour: u64) -> u64 {
    if view["gameNumber"].as_u64().unwrap_or(0) % 2 == 0 {
        colour
    } else {
        3 - colour
    }
}

/// A move with one field replaced, or a move of another game.
fn mangled(rng: &mut SmallRng, legal: Option<&Value>) -> Value {
    let others = [
        json!({"row": 9, "col": 0}),
        json!({"type": "play", "at": "Z9"}),
        json!({"type": "place", "edge": 100_000}),
        json!("e2e9"),
        json!(null),
        json!({"type": "pass"}),
        json!([1, 2]),
    ];
    match legal {
        Some(Value::Object(fields)) if rng.random_bool(0.5) => {
            let mut fields = fields.clone();
            if let Some(key) = fields.keys().nth(rng.random_range(0..fields.len().max(1))).cloned() {
                let junk = [json!(-1), json!(u64::MAX), json!("x"), json!(null), json!(1.5)];
                fields.insert(key, junk[rng.random_range(0..junk.len())].clone());
            }
            Value::Object(fields)
        }
        _ => others[rng.random_range(0..others.len())].clone(),
    }
}

/// The room as the engine replays it from its config and moves.
fn replayed(kind: GameKind, view: &Value) -> AnyGame {
    let moves = view["moves"].as_array().cloned().unwrap_or_default();
    kind.replay(&view["config"], &moves)
        .unwrap_or_else(|e| panic!("the engine cannot replay the room's moves ({e:?}): {view}"))
}

/// The fields of a room's state that differ from its replay's.
fn differing(room: &Value, replay: &Value) -> BTreeSet<String> {
    // A game the server ended (a resignation, an abandonment) has its result and no side to move;
    // the rules know neither.
    let reason = room["result"]["reason"].as_str().unwrap_or_default();
    let server_ended = ["resigned", "abandoned", "timeout"].contains(&reason);
    let fields = room.as_object().into_iter().chain(replay.as_object()).flat_map(|o| o.keys());
    fields
        .filter(|field| !(server_ended && ["result", "to_move"].contains(&field.as_str())))
        .filter(|field| room[field.as_str()] != replay[field.as_str()])
        .cloned()
        .collect()
}

fn check_room_is_replayable(kind: GameKind, view: &Value, context: &str) {
    let replay = replayed(kind, view).view();
    let differing = differing(&view["state"], &replay);
    assert!(differing.is_empty(), "{context}: the room's {differing:?} are not its moves' replay's: {replay}");
}

pub async fn seated_players_requests_reach_the_rules_and_keep_every_room_replayable(backend: Backend) {
    let api = TestApi::start(backend).await;
    let cases: usize = std::env::var("TABULA_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(300);
    let seed: u64 = std::env::var("TABULA_FUZZ_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or_else(rand::random);
    println!("seated fuzz ({backend:?}): {cases} requests, TABULA_FUZZ_SEED={seed}");
    let mut rng = SmallRng::seed_from_u64(seed);
    let games = [
        (GameKind::Popucom, json!({"game": "popucom", "takebacks": "ask"})),
        (GameKind::Go, json!({"game": "go", "config": {"size": 9}, "takebacks": "always"})),
        (GameKind::Edges, json!({"game": "edges"})),
        (GameKind::Chess, json!({"game": "chess", "config": {"variant": "capablanca"}})),
    ];
    // The seats of a room apart, whose tokens the others' players send by mistake or on purpose.
    let foreign = api.seated_room_of(&room_id(), json!({"game": "popucom"})).await;
    let mut taken = [0u32; 2];
    let mut refused = BTreeMap::<String, u32>::new();
    for (kind, game) in games {
        let room = room_id();
        let tokens = api.seated_room_of(&room, game).await;
        let secrets: Vec<&String> = tokens.iter().chain(&foreign).collect();
        for step in 0..cases / 4 {
            let before = api.get(&room).await.body;
            let version = before["version"].as_i64().expect("a version");
            let engine = replayed(kind, &before);
            let legal = engine.legal_moves();
            let going_on = before["state"]["result"].is_null();
            // The request: mostly legal moves by the side to move, so games get deep and end.
            let pick = legal.get(rng.random_range(0..legal.len().max(1))).cloned();
            let mover = pick
                .as_ref()
                .and_then(|mv| engine.mover(mv).ok().flatten())
                .map(|colour| seat_of(&before, u64::from(colour.number())));
            // A game that ended is mostly followed by a rematch, so every kind of position comes up.
            let roll = if going_on || rng.random_bool(0.3) { rng.random_range(0..100) } else { 100 };
            let any_seat = |rng: &mut SmallRng| rng.random_range(1..=2u64);
            // (who sends it, the version it names, its move or action, what it is meant to be)
            let (seat, sent_version, (key, value), kind_of) = match (roll, &pick, mover) {
                (100, _, _) => (any_seat(&mut rng), version, ("action", json!("rematch")), Kind::Other),
                (0..60, Some(mv), Some(seat)) => (seat, version, ("move", mv.clone()), Kind::Legal),
                (0..70, Some(mv), _) => {
                    // At a stale or future version, or by the other seat.
                    let seat = any_seat(&mut rng);
                    let offset = [-1, 1, 0][rng.random_range(0..3)];
                    let kind_of = match offset {
                        0 if mover.is_some_and(|m| m != seat) => Kind::OutOfTurn,
                        0 => Kind::Other,
                        _ => Kind::Stale,
                    };
                    (seat, version + offset, ("move", mv.clone()), kind_of)
                }
                (0..82, _, _) => (any_seat(&mut rng), version, ("move", mangled(&mut rng, pick.as_ref())), Kind::Other),
                // Another room's player (seat 0 here: none of this room's), with this room's move.
                (0..87, _, _) => {
                    let request = pick.clone().map_or(("action", json!("resign")), |mv| ("move", mv));
                    (0, version, request, Kind::Foreign)
                }
                _ => {
                    let actions: Vec<&str> = ACTIONS.iter().copied().chain(["no_such_action"]).collect();
                    let action = actions[rng.random_range(0..actions.len())];
                    (any_seat(&mut rng), version, ("action", json!(action)), Kind::Other)
                }
            };
            let token = match seat {
                0 => &foreign[rng.random_range(0..2)],
                seat => &tokens[seat as usize - 1],
            };
            let body = json!({"roomId": room, "token": token, "version": sent_version, key: value});
            // A legal move is the mover's only while the game goes on.
            let kind_of =
                if matches!(kind_of, Kind::Legal | Kind::OutOfTurn) && !going_on { Kind::Other } else { kind_of };
            let reply = api.put(body.clone()).await;
            let answer: String = reply.raw.chars().take(400).collect();
            let context = format!("{kind:?} room {room}, step {step}, seat {seat}, {body}: {} {answer}", reply.status);
            let status = reply.status.as_u16();
            assert!(status < 500, "{context}");
            let after = api.get(&room).await.body;
            let shown = format!("{} {after}", reply.raw);
            assert!(!secrets.iter().any(|token| shown.contains(token.as_str())), "an answer showed a token: {context}");
            check_room_is_replayable(kind, &after, &context);
            if status >= 400 {
                let code = reply.body["error"]["code"].as_str().unwrap_or_else(|| panic!("no error code: {context}"));
                let why =
                    reply.body["error"]["reason"].as_str().map_or(code.to_owned(), |reason| format!("{code}/{reason}"));
                *refused.entry(why).or_default() += 1;
                for field in ["version", "moves", "seats", "state", "takeback", "gameNumber"] {
                    assert_eq!(after[field], before[field], "a refusal changed the room's {field}: {context}");
                }
                assert_ne!(kind_of, Kind::Legal, "a legal move by the side to move was refused: {context}");
                match kind_of {
                    Kind::Stale => assert_eq!(code, "version_conflict", "{context}"),
                    Kind::Foreign => assert_eq!(code, "not_a_player", "{context}"),
                    _ => {}
                }
            } else {
                assert!(
                    !matches!(kind_of, Kind::OutOfTurn | Kind::Stale | Kind::Foreign),
                    "a move out of turn, at another version or by another room's player was taken: {context}"
                );
                taken[usize::from(kind_of != Kind::Legal)] += 1;
                assert!(after["version"].as_i64() > Some(version), "a change that kept the version: {context}");
                if kind_of == Kind::Legal {
                    let played = after["moves"].as_array().map_or(0, Vec::len);
                    let had = before["moves"].as_array().map_or(0, Vec::len);
                    assert_eq!(played, had + 1, "the legal move was not added: {context}");
                }
            }
        }
    }
    println!(
        "seated fuzz ({backend:?}): taken {} legal moves and {} other requests; refused by code {refused:?}",
        taken[0], taken[1]
    );
    // The fuzz reached the rules: moves were taken and refused for the rules' own reasons.
    assert!(taken[0] > cases as u32 / 4, "only {} legal moves were taken", taken[0]);
    let rules_said = refused.keys().filter(|why| why.starts_with("illegal_move/")).count();
    assert!(rules_said >= 3, "the rules refused for too few reasons: {refused:?}");
}

both_stores!(seated_players_requests_reach_the_rules_and_keep_every_room_replayable);
