//! The computer players: legal, deterministic for a seed, stronger than chance, reusing their tree,
//! blundering only where a level says so, and finishing Go's scoring phase.

use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::ai::{AiRng, AnyPlayer, Level, Mcts, Searchable, Searcher};
use tabula_core::edges::Edges;
use tabula_core::go::{Go, GoMove};
use tabula_core::popucom::Popucom;
use tabula_core::{Game, GameKind, Seat, Status};

/// Plays a whole game between two computer players through the JSON layer (each move is checked
/// by the engine on the way); returns the moves and the final status.
fn match_game(kind: GameKind, players: &mut [AnyPlayer; 2], config: &Value, limit: usize) -> (Vec<Value>, Status) {
    let mut game = kind.new_game(config).unwrap();
    let mut moves = Vec::new();
    while moves.len() < limit {
        let Some(seat) = game.status().to_move() else { break };
        let choice = players[seat.index()].choose(config, &moves, Some(seat)).unwrap().expect("a move while in play");
        game.play(&choice.mv).unwrap_or_else(|e| panic!("move {} {} refused: {e}", moves.len(), choice.mv));
        moves.push(choice.mv);
    }
    (moves, game.status())
}

/// A game of a searcher against uniformly random moves, until the search has nothing to consider
/// (the end, or Go's scoring phase); the searcher's reward (1 win, 0.5 draw) as its game judges it.
fn against_random<G: Searchable>(game: G, level: Level, searcher_seat: Seat, seed: u64, limit: usize) -> f32 {
    let mut searcher = Searcher::new(level, seed);
    let mut rng = AiRng::seed_from_u64(seed ^ 0x5eed);
    let mut game = game;
    let mut history = Vec::new();
    while history.len() < limit && !game.candidate_moves().is_empty() {
        let seat = game.status().to_move().expect("in play");
        let mv = if seat == searcher_seat {
            searcher.choose(&game, &history).expect("a move while in play").mv
        } else {
            let legal = game.candidate_moves();
            legal[rng.random_range(0..legal.len())].clone()
        };
        game.play(&mv).expect("legal");
        history.push(mv);
    }
    let seat_one = game.playout(&mut rng, true, &mut |_, _| {});
    if searcher_seat == Seat::One {
        seat_one
    } else {
        1.0 - seat_one
    }
}

fn score_against_random<G: Searchable>(new: impl Fn() -> G, level: Level, games: u64, limit: usize) -> f32 {
    (0..games).map(|i| against_random(new(), level, if i % 2 == 0 { Seat::One } else { Seat::Two }, i, limit)).sum()
}

#[test]
fn the_same_seed_plays_the_same_game_and_another_seed_another() {
    let config = json!({});
    let game_with = |seeds: [u64; 2]| {
        let mut players = seeds.map(|seed| AnyPlayer::new(GameKind::Popucom, 3, seed).unwrap());
        match_game(GameKind::Popucom, &mut players, &config, 50)
    };
    let (first, status) = game_with([1, 2]);
    assert!(status.is_over(), "a POPUCOM game between computers ends: {status:?}");
    assert_eq!(first.len(), 50);
    assert_eq!(game_with([1, 2]).0, first);
    assert_ne!(game_with([3, 4]).0, first);
}

#[test]
fn a_search_beats_random_moves_in_popucom_edges_and_go() {
    let popucom = score_against_random(Popucom::default, Level { playouts: 1_000, ..Level::of::<Popucom>(5) }, 10, 50);
    assert!(popucom >= 9.0, "POPUCOM: {popucom} of 10 against random moves");
    let edges = score_against_random(
        || Edges::new(tabula_core::edges::EdgesConfig { size: 4, cells_to_win: 2, ..Default::default() }).unwrap(),
        Level { playouts: 1_000, ..Level::of::<Edges>(5) },
        6,
        200,
    );
    assert!(edges >= 5.0, "Edges & Blocks 4x4: {edges} of 6 against random moves");
    let go = score_against_random(
        || Go::new(tabula_core::go::GoConfig { size: 7, komi: 0.5, ..Default::default() }).unwrap(),
        Level { playouts: 400, ..Level::of::<Go>(5) },
        6,
        200,
    );
    assert!(go >= 5.0, "Go 7x7: {go} of 6 against random moves");
}

#[test]
fn rave_beats_plain_uct_at_the_same_budget_in_popucom() {
    let mut points = 0.0;
    for game in 0..8u64 {
        let rave = AnyPlayer::of(Searcher::<Popucom>::new(Level { playouts: 2_000, ..Level::of::<Popucom>(5) }, game));
        let plain = AnyPlayer::plain_uct(GameKind::Popucom, 2_000, game + 100).unwrap();
        let rave_seat = if game % 2 == 0 { 0 } else { 1 };
        let mut players = if rave_seat == 0 { [rave, plain] } else { [plain, rave] };
        let (_, status) = match_game(GameKind::Popucom, &mut players, &json!({}), 50);
        points += match status.outcome().unwrap().winner {
            Some(seat) if seat.index() == rave_seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    assert!(points >= 5.0, "RAVE scored {points} of 8 against plain UCT at 2,000 playouts");
}

#[test]
fn the_tree_is_kept_across_the_opponents_reply() {
    let mut searcher = Searcher::new(Level { playouts: 3_000, blunder: 0.0, ..Level::of::<Popucom>(5) }, 9);
    let mut game = Popucom::default();
    // A fresh tree's first playout starts at its unvisited root and adds no node, each later one
    // adds one: n playouts make n nodes (up to 3,000: the search stops once its choice is made).
    // A kept tree's root was visited, so its search makes at least one more.
    let first = searcher.choose(&game, &[]).unwrap();
    assert!(first.stats.playouts <= 3_000, "{:?}", first.stats);
    assert_eq!(first.stats.nodes, first.stats.playouts, "a fresh tree: {:?}", first.stats);
    game.play(&first.mv).unwrap();
    let reply = game.legal_moves()[0];
    game.play(&reply).unwrap();
    let second = searcher.choose(&game, &[first.mv, reply]).unwrap();
    assert!(
        second.stats.nodes > second.stats.playouts,
        "the second search starts from the kept subtree: {:?}",
        second.stats
    );
    // A history the tree does not know starts afresh (and still answers legally).
    let other = Popucom::replay(Default::default(), &[reply]).unwrap();
    let fresh = searcher.choose(&other, &[reply]).unwrap();
    assert_eq!(fresh.stats.nodes, fresh.stats.playouts, "{:?}", fresh.stats);
    assert!(other.is_legal(&fresh.mv));
}

/// Stopping once the remaining playouts could not change the most visited move gives the choice
/// of the full search (the same playouts up to the stop), and does stop early somewhere.
fn stops_once_decided<G: Searchable + Clone>(positions: &[G], playouts: u32) -> usize {
    let mut stopped_early = 0;
    for (seed, position) in (0..).zip(positions) {
        let mut full = Mcts::new(position.search_copy(), false);
        let full_stats = full.search(playouts, &mut AiRng::seed_from_u64(seed));
        let mut early = Mcts::new(position.search_copy(), false);
        let early_stats = early.search_until_decided(playouts, &mut AiRng::seed_from_u64(seed));
        assert_eq!(full_stats.playouts, playouts);
        assert!(early_stats.playouts <= playouts, "{early_stats:?}");
        assert_eq!(early.best_move(), full.best_move(), "position {seed}: {early_stats:?} against {full_stats:?}");
        stopped_early += usize::from(early_stats.playouts < playouts);
    }
    stopped_early
}

#[test]
fn a_search_stops_once_no_playout_left_could_change_its_choice() {
    // Positions a few random moves into each game, where one move often stands out.
    let mut rng = AiRng::seed_from_u64(3);
    let mut walk = |mut game: Go, moves: usize| {
        for _ in 0..moves {
            let candidates = game.candidate_moves();
            game.play(&candidates[rng.random_range(0..candidates.len() - 1)]).unwrap();
        }
        game
    };
    let go: Vec<Go> = (0..6).map(|i| walk(Go::new(Default::default()).unwrap(), 10 + 6 * i)).collect();
    assert!(stops_once_decided(&go, 4_000) > 0, "no Go search of 4,000 playouts stopped early");
    let mut rng = AiRng::seed_from_u64(4);
    let popucom: Vec<Popucom> = (0..6)
        .map(|i| {
            let mut game = Popucom::default();
            for _ in 0..20 + 4 * i {
                let moves = game.legal_moves();
                game.play(&moves[rng.random_range(0..moves.len())]).unwrap();
            }
            game
        })
        .collect();
    assert!(stops_once_decided(&popucom, 4_000) > 0, "no POPUCOM search of 4,000 playouts stopped early");
}

#[test]
fn the_playouts_a_move_did_not_wait_for_give_the_same_game_whenever_they_are_played() {
    // One player plays them at once after each answer (as the browser's worker does while the
    // opponent thinks), the other only when asked for its next move; both play the moves of a
    // tree searched for the whole budget every time, as the player did before it stopped early.
    let level = Level { playouts: 4_000, ..Level::of::<Go>(5) };
    let (mut eager, mut lazy) = (Searcher::<Go>::new(level, 21), Searcher::<Go>::new(level, 21));
    let mut full_rng = AiRng::seed_from_u64(21);
    let mut full_tree: Option<Mcts<Go>> = None;
    let mut opponent = AiRng::seed_from_u64(22);
    let (mut game, mut history) = (Go::new(Default::default()).unwrap(), Vec::new());
    let mut owed_at_all = 0;
    for _ in 0..12 {
        let mine = eager.choose(&game, &history).unwrap();
        let owed = eager.think(0);
        assert_eq!(mine.stats.playouts + owed, level.playouts, "{:?}", mine.stats);
        owed_at_all += owed;
        assert_eq!(eager.think(u32::MAX), 0);
        assert_eq!(lazy.choose(&game, &history).unwrap().mv, mine.mv, "after {history:?}");
        let mut full = full_tree.take().unwrap_or_else(|| Mcts::new(game.search_copy(), false));
        full.search(level.playouts, &mut full_rng);
        assert_eq!(full.best_move(), Some(mine.mv), "after {history:?}");
        game.play(&mine.mv).unwrap();
        history.push(mine.mv);
        let candidates = game.candidate_moves();
        let reply = candidates[opponent.random_range(0..candidates.len() - 1)];
        game.play(&reply).unwrap();
        history.push(reply);
        full_tree = full.descend(&mine.mv).and_then(|tree| tree.descend(&reply));
    }
    assert!(owed_at_all > 0, "no answer came before its budget was spent");
}

#[test]
fn only_the_weak_levels_blunder() {
    let game = Popucom::default();
    let blunders = |level: u8| {
        let mut searcher = Searcher::new(Level { playouts: 16, ..Level::of::<Popucom>(level) }, 5);
        (0..200).filter(|_| searcher.choose(&game, &[]).unwrap().blundered).count()
    };
    let weakest = blunders(1);
    assert!((70..=130).contains(&weakest), "level 1 blundered {weakest} of 200 times");
    assert_eq!(blunders(5), 0);
    let budgets: Vec<u32> = (1..=5).map(|n| Level::of::<Popucom>(n).playouts).collect();
    assert!(budgets.windows(2).all(|w| w[0] < w[1]), "each level thinks longer: {budgets:?}");
}

#[test]
fn go_scoring_is_brought_to_the_engines_proposal_and_accepted() {
    let config = json!({"size": 5, "komi": 0.5});
    // Black walls off the lower rows; White's stone at D2 sits inside with no chance; both pass.
    let points = ["A3", "D2", "B3", "pass", "C3", "pass", "D3", "pass", "E3", "pass", "pass"];
    let moves: Vec<Value> = points
        .iter()
        .map(|v| if *v == "pass" { json!({"type": "pass"}) } else { json!({"type": "play", "at": v}) })
        .collect();
    let typed = |moves: &[Value]| {
        let moves: Vec<GoMove> = moves.iter().map(|m| serde_json::from_value(m.clone()).unwrap()).collect();
        Go::replay(serde_json::from_value(config.clone()).unwrap(), &moves).unwrap()
    };
    let start = typed(&moves);
    let scoring = start.scoring().expect("two passes start the scoring phase");
    // White toggles its own stone alive against the proposal: the computer must undo that.
    let proposal = tabula_core::go::Scoring::propose(start.board()).dead().to_vec();
    let d2 = start.point_of("D2".parse().unwrap()).unwrap();
    assert!(proposal.contains(&d2), "the engine calls D2 dead: {proposal:?}");
    assert!(scoring.dead().contains(&d2));
    let mut history = moves.clone();
    history.push(json!({"type": "toggle", "at": "D2", "colour": 2}));
    let mut player = AnyPlayer::new(GameKind::Go, 3, 1).unwrap();
    let mut answers = Vec::new();
    while let Some(choice) = player.choose(&config, &history, Some(Seat::One)).unwrap() {
        history.push(choice.mv.clone());
        answers.push(choice.mv);
        assert!(answers.len() < 10, "the scoring answers end: {answers:?}");
    }
    assert_eq!(answers, [json!({"type": "toggle", "at": "D2", "colour": 1}), json!({"type": "accept", "colour": 1})]);
    let end = typed(&history);
    assert_eq!(end.scoring().unwrap().dead(), proposal.as_slice());
    assert!(end.scoring().unwrap().accepted(1));
}

#[test]
fn the_chess_player_answers_in_json_for_any_variant() {
    let mut player = AnyPlayer::new(GameKind::Chess, 3, 1).unwrap();
    for config in [
        json!(null),
        json!({"variant": "capablanca"}),
        json!({"variant": "chess", "chess960": true, "fen": "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"}),
    ] {
        let moves = [json!("b2b3"), json!("b7b6")];
        let choice = player.choose(&config, &moves, None).unwrap().expect("a move");
        let mut game = GameKind::Chess.replay(&config, &moves).unwrap();
        game.play(&choice.mv).unwrap_or_else(|e| panic!("{config}: {} is not legal: {e:?}", choice.mv));
        assert!(choice.stats.nodes > 0);
    }
    // A finished game gets no move; moves that do not replay are refused with their code.
    let mate = [json!("f2f3"), json!("e7e5"), json!("g2g4"), json!("d8h4")];
    assert!(player.choose(&json!(null), &mate, None).unwrap().is_none());
    assert_eq!(player.choose(&json!(null), &[json!("e2e5")], None).unwrap_err().code(), "bad_moves");
}

/// `data/review-planted.jsonl`: games in which one side, at one move, gave away material that an
/// outside engine says loses the game's balance (a piece by Fairy-Stockfish's search; a group of
/// stones put in atari by GNU Go's score estimate), made by `xtask/measure/review_*_blunders.py`.
/// The review at the browser's level names each as its side's biggest mistake, and marks it.
#[test]
fn planted_blunders_are_their_sides_biggest_mistakes() {
    let mut games = std::collections::BTreeMap::<String, usize>::new();
    for line in include_str!("data/review-planted.jsonl").lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let kind: GameKind = case["game"].as_str().unwrap().parse().unwrap();
        let request = serde_json::from_value(json!({"config": case["config"], "moves": case["moves"]})).unwrap();
        let review = tabula_core::ai::review_game(kind, &request, 3, 1, &mut |_| {}).unwrap();
        let (ply, colour) = (case["ply"].as_u64().unwrap(), case["colour"].as_u64().unwrap());
        let biggest = review["mistakes"].as_array().unwrap().iter().find(|m| m["colour"] == colour);
        assert_eq!(biggest.map(|m| m["ply"].as_u64()), Some(Some(ply)), "{}: {review}", case["found"]);
        assert!(!review["marks"][ply as usize - 1].is_null(), "{}: {review}", case["found"]);
        *games.entry(kind.to_string()).or_default() += 1;
    }
    assert!(games.values().all(|&n| n >= 3) && games.len() == 2, "three cases of chess and of Go: {games:?}");
}
