//! Edges & Blocks rules that the reference vectors cannot show: undo back to the start, every kind
//! of refusal (with the state unchanged), the options, and the state's validation.

use serde_json::{json, Value};
use tabula_core::edges::{Edges, EdgesConfig, EdgesMove};
use tabula_core::{Game, GameKind, Rejection, Seat, Status};

mod shared;

fn start() -> Edges {
    Edges::new(EdgesConfig::default()).unwrap()
}

fn state(game: &Edges) -> Value {
    serde_json::to_value(game).unwrap()
}

/// The fields a vector step has, taken from our state.
fn as_step(game: &Edges, like: &Value) -> Value {
    let ours = state(game);
    like.as_object().unwrap().keys().map(|k| (k.clone(), ours[k].clone())).collect()
}

#[test]
fn undoing_every_reference_action_walks_back_through_every_recorded_state() {
    let initial = json!({"edges": ".".repeat(128), "cells": ".".repeat(64), "supply": [6, 6], "to_move": 0,
        "result": -1, "ev": [0, 0, 0, 0, 0, 0, 0, 0, 0]});
    let mut undone = 0;
    for file in ["edges-public.jsonl", "edges-scenarios.jsonl"] {
        let text = std::fs::read_to_string(shared::vectors_dir().join(file)).expect("reference vectors");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let record: Value = serde_json::from_str(line).unwrap();
            let actions: Vec<EdgesMove> = serde_json::from_value(record["actions"].clone()).unwrap();
            let steps = record["steps"].as_array().unwrap();
            let mut game = start();
            for action in &actions {
                game.play(action).unwrap();
            }
            assert_eq!(game.undoable(), actions.len());
            for index in (0..actions.len()).rev() {
                game.undo().unwrap();
                let expected = if index == 0 { &initial } else { &steps[index - 1] };
                assert_eq!(
                    &as_step(&game, expected),
                    expected,
                    "{file} seed {}: undo of action {index}",
                    record["seed"]
                );
                undone += 1;
            }
            assert_eq!(game, start(), "back at the start");
            assert_eq!(game.undo().unwrap_err().code(), "nothing_to_undo");
        }
    }
    assert!(undone > 30_000, "only {undone} actions undone");
}

/// Plays `moves` from the start; panics if one is refused.
fn after(moves: &[EdgesMove]) -> Edges {
    let mut game = start();
    for mv in moves {
        game.play(mv).unwrap_or_else(|e| panic!("{mv:?}: {e}"));
    }
    game
}

fn refused(game: &Edges, mv: EdgesMove) -> &'static str {
    let mut copy = game.clone();
    let code = copy.play(&mv).unwrap_err().code();
    assert_eq!(&copy, game, "{mv:?} was refused ({code}) but changed the state");
    code
}

fn with_player(mv: EdgesMove, player: u8) -> EdgesMove {
    let mut json = serde_json::to_value(mv).unwrap();
    json["player"] = json!(player);
    serde_json::from_value(json).unwrap()
}

#[test]
fn each_kind_of_illegal_action_is_refused_with_its_code_and_changes_nothing() {
    // Seat one has edge 19 (H(3,2)); seat two has edge 85 (V(5,2)).
    let game = after(&[EdgesMove::place(19), EdgesMove::place(85)]);
    assert_eq!(game.status(), Status::ToMove(Seat::One));
    assert_eq!(refused(&game, EdgesMove::place(128)), "off_board");
    assert_eq!(refused(&game, EdgesMove::shift(19, 500)), "off_board");
    assert_eq!(refused(&game, EdgesMove::place(19)), "occupied");
    assert_eq!(refused(&game, EdgesMove::place(85)), "occupied");
    assert_eq!(refused(&game, EdgesMove::shift(85, 86)), "not_own_edge");
    assert_eq!(refused(&game, EdgesMove::shift(40, 41)), "not_own_edge");
    // H(3,2)'s neighbours are H(2,2), H(4,2), V(3,2), V(4,2), V(3,1), V(4,1).
    assert_eq!(refused(&game, EdgesMove::shift(19, 20 + 8)), "not_adjacent");
    assert_eq!(refused(&game, EdgesMove::shift(19, 85)), "occupied");
    assert_eq!(refused(&game, with_player(EdgesMove::PASS, 1)), "not_your_turn");
    for to in [18, 20, 64 + 19, 64 + 20, 64 + 11, 64 + 12] {
        assert!(game.is_legal(&EdgesMove::shift(19, to)), "19 -> {to}");
        assert!(game.is_legal(&with_player(EdgesMove::shift(19, to), 0)));
    }
    // A move needs no supply; a place does.
    let config = EdgesConfig { supply: [1, 1], ..EdgesConfig::default() };
    let mut spent = Edges::new(config).unwrap();
    spent.play(&EdgesMove::place(0)).unwrap();
    spent.play(&EdgesMove::place(50)).unwrap();
    assert_eq!(refused(&spent, EdgesMove::place(1)), "no_supply");
    assert!(spent.is_legal(&EdgesMove::shift(0, 1)));
    assert!(spent.legal_moves().iter().all(|mv| !matches!(mv, EdgesMove::Place { .. })));
}

#[test]
fn a_finished_game_refuses_actions_and_can_still_be_undone() {
    // Seat one closes cell 0 (edges 0, 8, 64, 65) with cells_to_win 1 while seat two passes.
    let config = EdgesConfig { cells_to_win: 1, ..EdgesConfig::default() };
    let mut game = Edges::new(config).unwrap();
    for mv in [0, 8, 64, 65].map(EdgesMove::place).into_iter().flat_map(|mv| [mv, EdgesMove::PASS]).take(7) {
        game.play(&mv).unwrap();
    }
    let outcome = game.status().outcome().cloned().expect("four own edges capture cell 0 and win");
    assert_eq!(outcome.winner, Some(Seat::One));
    assert_eq!(game.owner(0), Some(Seat::One));
    assert!(game.legal_moves().is_empty());
    assert_eq!(refused(&game, EdgesMove::PASS), "game_over");
    assert_eq!(refused(&game, EdgesMove::place(1)), "game_over");
    // The vectors' convention: the side to move still switches on the winning action.
    assert_eq!(state(&game)["to_move"], 1);
    assert_eq!(state(&game)["result"], 0);
    game.undo().unwrap();
    assert_eq!(game.status(), Status::ToMove(Seat::One));
    assert_eq!(game.owner(0), None);
}

#[test]
fn options_are_checked_and_change_the_board() {
    for bad in [
        json!({"size": 2}),
        json!({"size": 13}),
        json!({"cells_to_win": 0}),
        json!({"size": 3, "cells_to_win": 10}),
        json!({"supply": [0, 6]}),
        json!({"supply": [6, 100]}),
        json!({"colour": "blue"}),
    ] {
        assert!(GameKind::Edges.new_game(&bad).is_err(), "{bad}");
    }
    let small = GameKind::Edges.new_game(&json!({"size": 3, "cells_to_win": 2, "supply": [4, 9]})).unwrap();
    assert_eq!(small.state()["edges"], ".".repeat(18));
    assert_eq!(small.state()["supply"], json!([4, 9]));
    assert_eq!(small.config(), json!({"size": 3, "cells_to_win": 2, "supply": [4, 9]}));
    assert_eq!(
        GameKind::Edges.new_game(&Value::Null).unwrap().config(),
        json!({"size": 8, "cells_to_win": 5, "supply": [6, 6]})
    );
    // 12x12 has 288 edges: the largest id is on the board, the next is not.
    let big = Edges::new(EdgesConfig { size: 12, ..EdgesConfig::default() }).unwrap();
    assert!(big.is_legal(&EdgesMove::place(287)));
    assert_eq!(refused(&big, EdgesMove::place(288)), "off_board");
}

#[test]
fn moves_read_the_vector_shape_and_store_without_the_player() {
    let mv: EdgesMove = serde_json::from_value(json!({"type": "move", "player": 1, "from": 3, "to": 4})).unwrap();
    assert_eq!(serde_json::to_value(mv).unwrap(), json!({"type": "move", "from": 3, "to": 4}));
    for (read, stored) in [
        (json!({"type": "pass", "player": 0}), json!({"type": "pass"})),
        (json!({"edge": 7, "type": "place"}), json!({"type": "place", "edge": 7})),
    ] {
        let mv: EdgesMove = serde_json::from_value(read).unwrap();
        assert_eq!(serde_json::to_value(mv).unwrap(), stored);
    }
    for bad in [
        json!({"type": "place"}),
        json!({"type": "jump", "edge": 1}),
        json!({"type": "place", "edge": -1}),
        json!({"type": "place", "edge": 1, "player": 2}),
        json!({"type": "pass", "extra": true}),
        json!({"type": "pass", "edge": 1}),
        json!({"type": "place", "edge": 1, "to": 2}),
        json!({"type": "move", "from": 1}),
        json!([1, 2]),
    ] {
        assert!(serde_json::from_value::<EdgesMove>(bad.clone()).is_err(), "{bad}");
    }
}

#[test]
fn a_state_reads_back_only_if_it_is_consistent() {
    let game = after(&[EdgesMove::place(0), EdgesMove::place(9), EdgesMove::place(8)]);
    let json = state(&game);
    let back: Edges = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(state(&back), json);
    let corrupt = |field: &str, value: Value| {
        let mut bad = json.clone();
        bad[field] = value;
        serde_json::from_value::<Edges>(bad).is_err()
    };
    assert!(corrupt("edges", json!(".".repeat(127))), "too short");
    assert!(corrupt("edges", json!(format!("2{}", ".".repeat(127)))), "bad mark");
    assert!(corrupt("result", json!(0)), "nobody has won");
    assert!(corrupt("to_move", json!(2)));
    // Cell 0 owned by seat two while seat one's edge 0 touches it.
    assert!(corrupt("cells", json!(format!("1{}", ".".repeat(63)))));
    assert!(!corrupt("cells", json!(format!(".{}", ".".repeat(63)))), "an unowned cell is fine");
}

#[test]
fn out_of_range_numbers_are_errors_not_panics() {
    for bad in [json!({"type": "pass", "player": 255}), json!({"type": "place", "edge": 1u64 << 63})] {
        let parsed = serde_json::from_value::<EdgesMove>(bad.clone());
        if let Ok(mv) = parsed {
            assert_eq!(refused(&start(), mv), "off_board", "{bad}");
        }
    }
    let mut state = state(&start());
    state["to_move"] = json!(255);
    assert!(serde_json::from_value::<Edges>(state.clone()).is_err());
    // A loaded supply at the top of its range: a refill saturates instead of overflowing.
    state["to_move"] = json!(1);
    state["supply"] = json!([u32::MAX, 6]);
    let mut edges = vec!['.'; 128];
    edges[0] = '0';
    edges[8] = '1';
    edges[64] = '1';
    state["edges"] = json!(edges.iter().collect::<String>());
    let mut game: Edges = serde_json::from_value(state).unwrap();
    game.play(&EdgesMove::place(65)).unwrap();
    assert_eq!((game.edge(0), game.supply(Seat::One)), (Some(Seat::Two), u32::MAX), "seat two ate edge 0");
}

/// The ordered changes a screen animates: walked from the position before the action, they lead
/// to the vector's next state, and they hold the eats, captures and destructions its `ev` counts.
#[test]
fn the_last_changes_of_every_reference_action_lead_from_one_recorded_state_to_the_next() {
    use tabula_core::edges::{Changed, Target};
    let text = std::fs::read_to_string(shared::vectors_dir().join("edges-public.jsonl")).expect("reference vectors");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).unwrap();
        let actions: Vec<EdgesMove> = serde_json::from_value(record["actions"].clone()).unwrap();
        let steps = record["steps"].as_array().unwrap();
        let mut game = start();
        for (action, step) in actions.iter().zip(steps) {
            let mut edges: Vec<Option<Seat>> = (0..128).map(|e| game.edge(e)).collect();
            let mut cells: Vec<Option<Seat>> = (0..64).map(|c| game.owner(c)).collect();
            let mover = game.status().to_move().unwrap();
            game.play(action).unwrap();
            let changes: Vec<Changed> = game.last_changes();
            let raw = match action {
                EdgesMove::Pass { .. } => 0,
                EdgesMove::Place { .. } => 1,
                EdgesMove::Move { .. } => 2,
            };
            for change in &changes {
                let slot = match change.target {
                    Target::Edge(edge) => &mut edges[edge],
                    Target::Cell(cell) => &mut cells[cell],
                };
                assert_eq!(*slot, change.before, "seed {}: each change starts where the last one left", record["seed"]);
                *slot = change.after;
            }
            let text = |values: &[Option<Seat>]| -> String {
                values.iter().map(|v| v.map_or('.', |s| if s == Seat::One { '0' } else { '1' })).collect()
            };
            assert_eq!(text(&edges), step["edges"], "seed {}", record["seed"]);
            assert_eq!(text(&cells), step["cells"], "seed {}", record["seed"]);
            let ev: Vec<u64> = serde_json::from_value(step["ev"].clone()).unwrap();
            let resolution = &changes[raw.min(changes.len())..];
            let count = |f: &dyn Fn(&Changed) -> bool| resolution.iter().filter(|c| f(c)).count() as u64;
            let is_cell = |c: &Changed| matches!(c.target, Target::Cell(_));
            assert_eq!(count(&|c| is_cell(c) && c.before.is_none() && c.after.is_some()), ev[0], "captured");
            assert_eq!(count(&|c| is_cell(c) && c.before.is_some() && c.after.is_none()), ev[1], "destroyed");
            assert_eq!(count(&|c| !is_cell(c) && c.after == Some(mover)), ev[2], "eaten by the mover");
            assert_eq!(count(&|c| !is_cell(c) && c.after == Some(mover.other())), ev[3], "eaten by the opponent");
            checked += 1;
        }
    }
    assert!(checked > 30_000, "{checked} actions");
}
