//! Fairy chess as a game: results, refusals, FEN and state round trips.

use serde_json::json;
use tabula_core::fairy::{Chess, ChessConfig, Position, UciMove, Variant};
use tabula_core::{Game, GameKind, Rejection, Seat, Status};

mod shared;

fn play(game: &mut Chess, moves: &[&str]) {
    for mv in moves {
        game.play(&UciMove(mv.to_string())).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

#[test]
fn checkmate_wins_and_stalemate_draws() {
    let mut game = Chess::new(ChessConfig::default()).unwrap();
    play(&mut game, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(game.status().outcome().map(|o| (o.winner, o.reason)), Some((Some(Seat::Two), "checkmate")));
    assert_eq!(game.play(&UciMove("a2a3".into())).unwrap_err().code(), "game_over");

    let stalemate = ChessConfig { fen: Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".into()), ..ChessConfig::default() };
    let game = Chess::new(stalemate).unwrap();
    assert_eq!(game.status().outcome().map(|o| (o.winner, o.reason)), Some((None, "stalemate")));
    let fifty = ChessConfig { fen: Some("7k/8/6K1/8/8/8/8/R7 w - - 100 80".into()), ..ChessConfig::default() };
    assert_eq!(Chess::new(fifty).unwrap().status().outcome().map(|o| o.reason), Some("fifty_moves"));
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let game = Chess::new(ChessConfig { variant: "capablanca".into(), ..ChessConfig::default() }).unwrap();
    for bad in ["e2e5", "a1a2", "x9y9", "", "e7e5"] {
        let mut copy = game.clone();
        assert_eq!(copy.play(&UciMove(bad.into())).unwrap_err().code(), "illegal", "{bad}");
        assert_eq!(copy.fen(), game.fen());
    }
    assert_eq!(game.legal_moves().len(), 28);
    assert_eq!(game.status(), Status::ToMove(Seat::One));
    for bad in [json!({"variant": "nonesuch"}), json!({"fen": "8/8 w"}), json!({"colour": 1})] {
        assert!(GameKind::Chess.new_game(&bad).is_err(), "{bad}");
    }
}

#[test]
fn fen_and_state_round_trip() {
    let text =
        std::fs::read_to_string(shared::vectors_dir().join("fairy-perft-public.jsonl")).expect("reference vectors");
    let mut checked = 0;
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let variant = &Variant::builtin()[case["variant"].as_str().unwrap()];
        let fen = case["fen"].as_str().unwrap();
        let position = Position::from_fen(variant, fen, case["chess960"].as_bool().unwrap_or(false)).unwrap();
        let ours = position.fen(variant);
        let (a, b): (Vec<&str>, Vec<&str>) = (ours.split(' ').collect(), fen.split(' ').collect());
        if a != b {
            // Only an en passant square no pawn can capture on is left out, as Fairy-Stockfish does.
            let (mut a_rest, mut b_rest) = (a.clone(), b.clone());
            a_rest.remove(3);
            b_rest.remove(3);
            // (Which squares count is checked against Fairy-Stockfish by `cli/tests/fairy_stockfish.rs`.)
            assert_eq!((a_rest, a[3]), (b_rest, "-"), "{}", case["id"]);
        }
        checked += 1;
    }
    assert!(checked > 30);
    let mut game = Chess::new(ChessConfig { variant: "grand".into(), ..ChessConfig::default() }).unwrap();
    play(&mut game, &["e3e5", "e8e6"]);
    let state = serde_json::to_value(&game).unwrap();
    assert_eq!(state["to_move"], 1);
    let back: Chess = serde_json::from_value(state.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), state);
}

#[test]
fn the_seed_s_own_field_names_are_read() {
    let data: serde_json::Value = serde_json::from_str(include_str!("../data/fairy-variants.json")).unwrap();
    let pieces = data["chess"]["pieces"].clone();
    let seed = json!({
        "boardSize": 8, "withCastling": true, "promotionCandidates": ["Q", "R", "B", "N"],
        "initialPiecePositions": {"0": ["R", "N", "B", "Q", "K", "B", "N", "R"], "1": ["P", "P", "P", "P", "P", "P", "P", "P"]},
        "pieces": pieces,
    });
    let def: tabula_core::fairy::VariantDef = serde_json::from_value(seed).unwrap();
    let variant = Variant::from_def("seed-chess", &def).unwrap();
    assert_eq!(variant.start.as_deref(), Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    let start = Position::from_fen(&variant, variant.start.as_deref().unwrap(), false).unwrap();
    assert_eq!(start.perft(&variant, 3), 8902);

    let asymmetric = json!({
        "boardSize": [6, 6], "isAsymmetric": true,
        "initialPiecePositions": {"0": ["WK", null, "WQ"], "5": [null, null, null, "BK"]},
        "pieces": pieces,
    });
    let def: tabula_core::fairy::VariantDef = serde_json::from_value(asymmetric).unwrap();
    let variant = Variant::from_def("asym", &def).unwrap();
    assert_eq!(variant.start.as_deref(), Some("3k2/6/6/6/6/K1Q3 w - - 0 1"));
    let bad = json!({"boardSize": 8, "isAsymmetric": true, "initialPiecePositions": {"0": ["K"]}, "pieces": pieces});
    let def: tabula_core::fairy::VariantDef = serde_json::from_value(bad).unwrap();
    assert!(Variant::from_def("bad", &def).is_err(), "asymmetric pieces need W or B");
}

#[test]
fn the_imitator_cycles_through_its_pieces_by_move_count() {
    let config = ChessConfig {
        variant: "imitator".into(),
        fen: Some("4k3/8/8/8/3I4/8/8/4K3 w - - 0 1".into()),
        ..ChessConfig::default()
    };
    let mut game = Chess::new(config).unwrap();
    let from = |game: &Chess, square: &str| -> Vec<String> {
        game.legal_moves().into_iter().map(|m| m.0).filter(|m| m.starts_with(square)).collect()
    };
    assert_eq!(from(&game, "d4").len(), 8, "first move: a knight");
    play(&mut game, &["d4f5", "e8d8"]);
    assert!(from(&game, "f5").contains(&"f5c8".to_string()), "second move: a bishop");
    assert!(!from(&game, "f5").contains(&"f5f1".to_string()));
    play(&mut game, &["f5c8", "d8e7"]);
    assert!(from(&game, "c8").contains(&"c8c1".to_string()), "third move: a rook");
    play(&mut game, &["c8c1", "e7e8"]);
    assert!(from(&game, "c1").contains(&"c1d3".to_string()), "fourth move: a knight again");
}

#[test]
fn threefold_repetition_and_dead_material_draw() {
    // Knights out and back twice: the start position stands a third time.
    let mut game = Chess::new(ChessConfig::default()).unwrap();
    play(&mut game, &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]);
    assert_eq!(game.status(), Status::ToMove(Seat::Two), "the start position has stood twice so far");
    play(&mut game, &["f6g8"]);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.status().outcome().map(|o| (o.winner, o.reason)), Some((None, "repetition")));
    assert_eq!(game.play(&UciMove("e2e4".into())).unwrap_err().code(), "game_over");

    let status = |variant: &str, fen: &str| {
        let config = ChessConfig { variant: variant.into(), fen: Some(fen.into()), ..ChessConfig::default() };
        Chess::new(config).unwrap().status().outcome().map(|o| o.reason)
    };
    for dead in ["8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3KN3/8/8 w - - 0 1", "8/8/4k3/8/8/3KB3/8/8 b - - 0 1"] {
        assert_eq!(status("chess", dead), Some("insufficient_material"), "{dead}");
    }
    // Bishops all on light squares (c4, e2 and d5 are light) cannot mate; on both colours they can.
    assert_eq!(status("chess", "8/8/4k3/3b4/2B5/8/4B3/3K4 w - - 0 1"), Some("insufficient_material"));
    assert_eq!(status("chess", "8/8/4k3/4b3/2B5/8/4B3/3K4 w - - 0 1"), None);
    for alive in
        ["8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", "8/8/4k3/8/8/3KR3/8/8 w - - 0 1", "8/4p3/4k3/8/8/3K4/8/8 w - - 0 1"]
    {
        assert_eq!(status("chess", alive), None, "{alive}");
    }
    // Fairy pieces are never judged dead: a lone archbishop (bishop + knight) can mate.
    assert_eq!(status("capablanca", "10/10/5k4/10/10/4KA4/10/10 w - - 0 1"), None);
}

#[test]
fn castling_squares_come_from_the_variant_and_fens_have_rights_only_where_castling_exists() {
    let legal = |variant: &str, fen: &str| {
        let config = ChessConfig { variant: variant.into(), fen: Some(fen.into()), ..ChessConfig::default() };
        Chess::new(config).unwrap().legal_moves().into_iter().map(|m| m.0).collect::<Vec<_>>()
    };
    // Chancellor chess (9 files, Fairy-Stockfish's "chancellor"): the king castles to g or c.
    let chancellor = legal("chancellor", "4k4/9/9/9/9/9/9/9/R3K3R w KQ - 0 1");
    assert!(chancellor.contains(&"e1g1".into()) && chancellor.contains(&"e1c1".into()), "{chancellor:?}");
    assert!(!chancellor.contains(&"e1h1".into()));
    let mut game = Chess::new(ChessConfig {
        variant: "chancellor9".into(),
        fen: Some("4k4/9/9/9/9/9/9/9/R3K3R w KQ - 0 1".into()),
        ..ChessConfig::default()
    })
    .unwrap();
    play(&mut game, &["e1g1"]);
    assert_eq!(game.fen(), "4k4/9/9/9/9/9/9/9/R4RK2 b - - 1 1", "the rook lands on f1");
    // Janus chess castles to b or i.
    let janus = legal("janus", "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1");
    assert!(janus.contains(&"e1i1".into()) && janus.contains(&"e1b1".into()), "{janus:?}");
    // No castling, no rights: shatranj's start, and any FEN given to it.
    let shatranj = Chess::new(ChessConfig { variant: "shatranj".into(), ..ChessConfig::default() }).unwrap();
    assert_eq!(shatranj.fen().split(' ').nth(2), Some("-"));
    for (name, variant) in Variant::builtin() {
        let game = Chess::new(ChessConfig { variant: name.clone(), ..ChessConfig::default() }).unwrap();
        let rights = game.fen().split(' ').nth(2).unwrap().to_owned();
        let castles = variant.start.as_deref().is_some_and(|s| s.split(' ').nth(2) != Some("-"));
        assert_eq!(rights != "-", castles, "{name}: {}", game.fen());
    }
    assert!(Chess::new(ChessConfig { variant: "losalamos".into(), ..ChessConfig::default() }).is_ok(), "an alias");
}

#[test]
fn shatranj_stalemate_and_bare_king_lose() {
    let outcome = |fen: &str| {
        let config = ChessConfig { variant: "shatranj".into(), fen: Some(fen.into()), ..ChessConfig::default() };
        Chess::new(config).unwrap().status().outcome().map(|o| (o.winner, o.reason))
    };
    // Black, stalemated by a rook, loses.
    assert_eq!(outcome("7k/5R2/6K1/8/8/8/8/8 b - - 0 1"), None, "black can still move");
    assert_eq!(outcome("5K1k/R7/8/8/8/8/8/8 b - - 0 1"), Some((Some(Seat::One), "stalemate")));
    // Black's king is bare: black to move may still bare White's king back; then White wins.
    assert_eq!(outcome("8/8/4k3/8/8/3KR3/8/8 b - - 0 1"), None);
    assert_eq!(outcome("8/8/4k3/8/8/3KR3/8/8 w - - 0 1"), Some((Some(Seat::One), "bare_king")));
    // Two bare kings play on, and a lone knight is not a dead draw here.
    assert_eq!(outcome("8/8/4k3/8/8/3K4/8/8 w - - 0 1"), None);
    assert_eq!(outcome("8/8/4k3/8/8/3KN3/8/8 b - - 0 1"), None);
    // Chess keeps its stalemate draw.
    let chess = Chess::new(ChessConfig { fen: Some("5K1k/R7/8/8/8/8/8/8 b - - 0 1".into()), ..ChessConfig::default() });
    assert_eq!(chess.unwrap().status().outcome().map(|o| (o.winner, o.reason)), Some((None, "stalemate")));
}

/// The chess config is read and written by hand (page sizes): it must read what serde's derived
/// reader reads from an object, refuse what it refuses, and write what reads back the same. (Serde
/// also reads a struct from an array of its fields; no config is written so.)
#[test]
fn the_hand_written_config_reader_agrees_with_serde() {
    use serde_json::json;
    use tabula_core::Game;
    let readable = [
        json!({}),
        json!({"variant": "capablanca"}),
        json!({"variant": "chess", "fen": null, "chess960": true}),
        json!({"fen": "7k/8/6K1/8/8/8/8/R7 w - - 100 80"}),
        json!({"variant": "mine", "definition": {"board": [8, 8]}, "compiled": "0563"}),
        json!({"definition": null, "compiled": null}),
    ];
    for json in readable {
        let by_serde: ChessConfig = serde_json::from_value(json.clone()).unwrap();
        let by_hand = Chess::config_from_json(&json).unwrap_or_else(|e| panic!("{json}: {}", e.0));
        assert_eq!(by_hand, by_serde, "{json}");
        assert_eq!(by_hand.definition, by_serde.definition, "{json}");
        let written = Chess::config_to_json(&by_hand);
        assert_eq!(written, serde_json::to_value(&by_serde).unwrap(), "{json}");
        assert_eq!(Chess::config_from_json(&written).unwrap(), by_hand, "{json} written back");
    }
    let refused = [
        json!({"variant": 3}),
        json!({"variant": null}),
        json!({"fen": 1}),
        json!({"chess960": "yes"}),
        json!({"colour": "white"}),
        json!("chess"),
    ];
    for json in refused {
        assert!(serde_json::from_value::<ChessConfig>(json.clone()).is_err(), "serde reads {json}");
        assert!(Chess::config_from_json(&json).is_err(), "read by hand: {json}");
    }
    assert_eq!(Chess::config_from_json(&serde_json::Value::Null).unwrap(), ChessConfig::default());
}
