//! SAN and PGN: our notation against Fairy-Stockfish's, a published game read move by move, and
//! random games of every built-in variant written to PGN and read back.

use serde_json::Value;
use tabula_core::fairy::pgn::{PgnError, Record};
use tabula_core::fairy::{Chess, ChessConfig, UciMove, Variant};
use tabula_core::Game;

fn config(variant: &str, fen: Option<&str>, chess960: bool) -> ChessConfig {
    ChessConfig { variant: variant.into(), fen: fen.map(str::to_owned), chess960, ..ChessConfig::default() }
}

/// `data/san-pyffish.jsonl` (see `make_san_vectors.py`): moves of seeded random games in the
/// variants both engines have, with the SAN Fairy-Stockfish writes for each.
#[test]
fn san_is_written_and_read_as_fairy_stockfish_writes_it() {
    let text = include_str!("data/san-pyffish.jsonl");
    let mut wrong = Vec::new();
    let mut count = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let field = |k: &str| case[k].as_str().unwrap().to_owned();
        let game = Chess::new(config(&field("variant"), Some(&field("fen")), case["chess960"].as_bool().unwrap()))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let uci = UciMove(field("uci"));
        let ours = game.san(&uci);
        if ours.as_deref() != Some(field("san").as_str()) {
            wrong.push(format!("{line}: ours {ours:?}"));
        }
        assert_eq!(game.read_move(&field("san")), Some(uci), "{line}: reading the SAN back");
        count += 1;
    }
    assert!(count > 1000, "{count} cases");
    assert!(wrong.is_empty(), "{} of {count} differ:\n{}", wrong.len(), wrong[..wrong.len().min(10)].join("\n"));
}

/// Morphy against the Duke of Brunswick and Count Isouard, Paris 1858, as it is usually printed.
const OPERA_GAME: &str = r#"[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 {This is a weak move already.} 4. dxe5 Bxf3 5. Qxf3 dxe5
6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8
13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 (15... Qxd7 16. Qb8+ Ke7) 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;

#[test]
fn a_published_game_reads_to_its_final_position_and_writes_back_the_same_moves() {
    let record = Record::from_pgn(OPERA_GAME).unwrap();
    assert_eq!(record.moves.len(), 33);
    assert_eq!(record.result, "1-0");
    assert_eq!(record.white.as_deref(), Some("Paul Morphy"));
    let mut game = Chess::new(record.config.clone()).unwrap();
    for mv in &record.moves {
        game.play(mv).unwrap();
    }
    assert_eq!(game.fen(), "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    assert_eq!(game.status().outcome().map(|o| o.reason), Some("checkmate"));
    let written = record.to_pgn().unwrap();
    let movetext = |pgn: &str| -> Vec<String> {
        let body = pgn.split("\n\n").nth(1).unwrap();
        let without_comments: String =
            body.split('{').map(|part| part.split_once('}').map_or(part, |(_, rest)| rest)).collect();
        let without_variation: String =
            without_comments.split('(').map(|p| p.split_once(')').map_or(p, |(_, r)| r)).collect();
        without_variation.split_whitespace().map(str::to_owned).collect()
    };
    assert_eq!(movetext(&written), movetext(OPERA_GAME), "{written}");
    assert!(written.contains("[Variant \"chess\"]") && written.contains("[FEN \"rnbqkbnr/"), "{written}");
}

/// A small seeded generator (xorshift), so the games are the same on every run.
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn random_games_of_every_variant_read_back_from_pgn_to_the_same_position() {
    let mut random = Seeded(0x7ab1a);
    let mut games = 0;
    for (name, variant) in Variant::builtin() {
        let starts: Vec<ChessConfig> = match name.as_str() {
            "chess" => vec![
                config("chess", None, false),
                config("chess", Some("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"), true),
                config("chess", Some("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"), false),
            ],
            _ => vec![config(name, None, false)],
        };
        assert!(variant.start.is_some(), "{name} has a start position");
        for start in starts {
            for _ in 0..3 {
                let mut game = Chess::new(start.clone()).unwrap();
                let mut moves = Vec::new();
                while moves.len() < 120 {
                    let legal = game.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = legal[random.below(legal.len())].clone();
                    game.play(&mv).unwrap();
                    moves.push(mv);
                }
                let record = Record {
                    config: start.clone(),
                    moves,
                    white: None,
                    black: Some("B \"quoted\"".into()),
                    result: "*".into(),
                };
                let pgn = record.to_pgn().unwrap();
                let back = Record::from_pgn(&pgn).unwrap_or_else(|e| panic!("{name}: {e}\n{pgn}"));
                assert_eq!(back.moves, record.moves, "{name}\n{pgn}");
                assert_eq!(back.black, record.black);
                let mut replayed = Chess::new(back.config.clone()).unwrap();
                for mv in &back.moves {
                    replayed.play(mv).unwrap();
                }
                assert_eq!(replayed.fen(), game.fen(), "{name}");
                games += 1;
            }
        }
    }
    assert!(games >= 26 * 3);
}

#[test]
fn moves_are_read_in_san_or_uci_with_or_without_marks() {
    let game = Chess::new(config("chess", Some("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"), false)).unwrap();
    let read = |text: &str| game.read_move(text).map(|m| m.0);
    assert_eq!(read("O-O"), Some("e1g1".into()));
    assert_eq!(read("0-0-0"), Some("e1c1".into()));
    assert_eq!(read("bxa8=Q+"), Some("b7a8q".into()));
    assert_eq!(read("bxa8Q"), Some("b7a8q".into()));
    assert_eq!(read("B7A8N"), Some("b7a8n".into()));
    assert_eq!(read("Rb1"), Some("a1b1".into()));
    assert_eq!(read("Rxa8"), Some("a1a8".into()));
    assert_eq!(read("Ra2"), Some("a1a2".into()));
    assert_eq!(read("Rg1"), Some("h1g1".into()));
    assert_eq!(read("Rf3"), None);
    assert_eq!(read("Kd1"), Some("e1d1".into()));
    assert_eq!(read("Rd1"), Some("a1d1".into()));
    assert_eq!(read("Rf1+"), Some("h1f1".into()));
    assert_eq!(game.san(&UciMove("b7a8q".into())).as_deref(), Some("bxa8=Q+"));
}

#[test]
fn files_that_cannot_be_played_say_why() {
    assert_eq!(Record::from_pgn("[Variant \"xiangqi\"]\n\n1. e4 *"), Err(PgnError::Variant("xiangqi".into())));
    assert_eq!(Record::from_pgn("1. e4 e5 2. Ke3 *"), Err(PgnError::Illegal { number: 3, text: "Ke3".into() }));
    assert!(matches!(Record::from_pgn("[Event \"x\n\n1. e4"), Err(PgnError::Malformed(_))));
    assert!(matches!(Record::from_pgn("1. e4 (1. d4 d5 2. c4 *"), Err(PgnError::Malformed(_))));
    assert!(matches!(Record::from_pgn("[FEN \"8/8/8 w - - 0 1\"]\n\n*"), Err(PgnError::Config(_))));
    // Fairy-Stockfish's names and Chess960 read as ours.
    let capablanca = Record::from_pgn("[Variant \"Capablanca\"]\n\n1. Nc3 *").unwrap();
    assert_eq!((capablanca.config.variant.as_str(), capablanca.moves.len()), ("capablanca", 1));
    let fischer = "[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n9. f5 *";
    let record = Record::from_pgn(fischer).unwrap();
    assert!(record.config.chess960);
    assert_eq!(record.moves, vec![UciMove("f4f5".into())]);
}

/// A custom variant's game (the griffin-seed rules under a name of its own) reads back where that
/// variant is played, and nowhere else.
#[test]
fn a_custom_variants_game_reads_back_where_it_is_played() {
    let definition = Variant::builtin_definition("griffin-seed").unwrap().clone();
    let playing = ChessConfig { variant: "my-griffin".into(), definition: Some(definition), ..ChessConfig::default() };
    let mut game = Chess::new(playing.clone()).unwrap();
    let moves: Vec<UciMove> = ["g2g4", "a7a6", "g4g5", "a6a5", "g5g6", "a5a4", "g6h7", "a4a3", "h7g8g"]
        .into_iter()
        .map(|m| UciMove(m.into()))
        .collect();
    for mv in &moves {
        game.play(mv).unwrap();
    }
    let record = Record { config: playing.clone(), moves: moves.clone(), white: None, black: None, result: "*".into() };
    let text = record.to_pgn().unwrap();
    assert!(text.contains("[Variant \"my-griffin\"]") && text.contains("=G"), "{text}");
    let back = Record::from_pgn_playing(&text, &playing).unwrap();
    assert_eq!(back.moves, moves);
    let mut replayed = Chess::new(back.config).unwrap();
    for mv in &back.moves {
        replayed.play(mv).unwrap();
    }
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(Record::from_pgn(&text), Err(PgnError::Variant("my-griffin".into())));
}

/// A reviewed game writes lichess's marks and evaluations, which every PGN reader skips.
#[test]
fn a_reviewed_game_writes_glyphs_and_evaluations_and_reads_back_the_same_moves() {
    use tabula_core::annotation::{Annotation, Mark};
    let moves: Vec<UciMove> = ["e2e4", "e7e5", "g1f3", "d8h4"].iter().map(|m| UciMove((*m).into())).collect();
    let record = Record { config: config("chess", None, false), moves, white: None, black: None, result: "*".into() };
    let note =
        |first_chance, mark, better: Option<&str>| Annotation { first_chance, mark, better: better.map(str::to_owned) };
    let notes = [
        note(0.6, None, None),
        note(0.5916, Some(Mark::Inaccuracy), Some("Nc6")),
        note(0.5, None, None),
        note(0.995, Some(Mark::Blunder), Some("Nc6")),
    ];
    let text = record.to_pgn_annotated(&notes).unwrap();
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "1. e4 { [%eval 1.10] } 1... e5 $6 { [%eval 1.01] Better: Nc6. }",
        "2. Nf3 { [%eval 0.00] } 2... Qh4 $4 { [%eval 14.38] Better: Nc6. } *",
    ] {
        assert!(words.contains(part), "{part:?} missing from\n{text}");
    }
    assert!(text.lines().all(|line| line.len() <= 80), "{text}");
    let back = Record::from_pgn(&text).unwrap();
    assert_eq!(back.moves, record.moves);
    assert_eq!(record.to_pgn_annotated(&[]).unwrap(), record.to_pgn().unwrap());
    assert!(!record.to_pgn().unwrap().contains('{'));
}
