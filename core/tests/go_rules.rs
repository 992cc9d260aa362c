//! Go rules that GNU Go's cases do not cover: the scoring phase (proposal, toggles, acceptance,
//! resuming), area scoring with seki and dead stones, handicap, and the refusal codes.

use serde_json::{json, Value};
use tabula_core::go::{Go, GoConfig, GoMove, KoRule, Vertex};
use tabula_core::{Game, GameKind, Rejection, Seat, Status};

fn v(text: &str) -> Vertex {
    text.parse().unwrap()
}

fn play(at: &str) -> GoMove {
    GoMove::Play { at: v(at), colour: None }
}

const PASS: GoMove = GoMove::Pass { colour: None };

fn by(seat: Seat, mv: fn(Option<Seat>) -> GoMove) -> GoMove {
    mv(Some(seat))
}

/// Black's and white's stones, placed alternately (the side that has run out passes).
fn position(size: usize, komi: f64, black: &[&str], white: &[&str]) -> Go {
    let mut game = Go::new(GoConfig { size, komi, ko: KoRule::Psk, handicap: 0 }).unwrap();
    for i in 0..black.len().max(white.len()) {
        for stones in [black, white] {
            let mv = stones.get(i).map_or(PASS, |at| play(at));
            game.play(&mv).unwrap_or_else(|e| panic!("{mv:?}: {e}"));
        }
    }
    game
}

fn state(game: &Go) -> Value {
    serde_json::to_value(game).unwrap()
}

/// Ends play with two passes, sets the dead stones to exactly `dead`, and has both accept.
fn score_with(mut game: Go, dead: &[&str]) -> Value {
    let mover = Seat::One;
    while state(&game)["phase"] == "play" {
        game.play(&PASS).unwrap();
    }
    assert_eq!(state(&game)["phase"], "scoring");
    let proposed: Vec<String> = serde_json::from_value(state(&game)["dead"].clone()).unwrap();
    for stone in proposed.iter().chain(dead.iter().map(|s| s.to_string()).collect::<Vec<_>>().iter()) {
        let marked: Vec<String> = serde_json::from_value(state(&game)["dead"].clone()).unwrap();
        let want = dead.contains(&stone.as_str());
        if marked.contains(stone) != want {
            game.play(&GoMove::Toggle { at: v(stone), colour: Some(mover) }).unwrap();
        }
    }
    let mut marked: Vec<String> = serde_json::from_value(state(&game)["dead"].clone()).unwrap();
    marked.sort();
    let mut wanted: Vec<String> = dead.iter().map(|s| s.to_string()).collect();
    wanted.sort();
    assert_eq!(marked, wanted, "the marking is what the test asked for");
    game.play(&GoMove::Accept { colour: Some(Seat::One) }).unwrap();
    assert!(!game.status().is_over(), "one acceptance is not enough");
    game.play(&GoMove::Accept { colour: Some(Seat::Two) }).unwrap();
    assert!(game.status().is_over());
    state(&game)
}

#[test]
fn a_wall_splits_the_board_and_the_area_count_is_exact() {
    // 5x5: black owns columns A-B (wall on B), white owns D-E (wall on D); column C is neutral.
    let black = ["B1", "B2", "B3", "B4", "B5"];
    let white = ["D1", "D2", "D3", "D4", "D5"];
    let result = score_with(position(5, 0.5, &black, &white), &[]);
    // Black: 5 stones + 5 points of column A; white: 5 + 5 of column E + 0.5; column C touches both.
    assert_eq!(result["score"], json!({"black": 10.0, "white": 10.5}));
    assert_eq!(result["result"], json!({"winner": 2, "reason": "score"}));
}

#[test]
fn a_dead_stone_counts_as_its_owner_s_loss_when_marked() {
    let black = ["B1", "B2", "B3", "B4", "B5"];
    let white = ["D1", "D2", "D3", "D4", "D5", "A3"];
    // Unmarked, the white stone in black's area makes column A nobody's but its own point.
    let alive = score_with(position(5, 0.5, &black, &white), &[]);
    assert_eq!(alive["score"], json!({"black": 5.0, "white": 11.5}));
    // Marked dead: the stone's point and the rest of column A are black's again.
    let dead = score_with(position(5, 0.5, &black, &white), &["A3"]);
    assert_eq!(dead["score"], json!({"black": 10.0, "white": 10.5}));
}

#[test]
fn seki_groups_live_and_their_shared_liberties_belong_to_nobody() {
    //   3 X X X X X . .
    //   2 O O O O O X .
    //   1 O . X . O X .
    // White's group and black's C1 share B1 and D1 and have no other liberty: whoever fills one
    // is captured at the other, so neither does (seki).
    let black = ["C1", "A3", "B3", "C3", "D3", "E3", "F2", "F1"];
    let white = ["A1", "A2", "B2", "C2", "D2", "E2", "E1"];
    let game = position(7, 0.0, &black, &white);
    let board = game.board();
    let vertices = |libs: Vec<usize>| libs.into_iter().map(|p| game.vertex_of(p).to_string()).collect::<Vec<_>>();
    let point = |at: &str| game.point_of(v(at)).unwrap();
    assert_eq!(vertices(board.liberties(point("C1"))), ["B1", "D1"]);
    assert_eq!(vertices(board.liberties(point("A1"))), ["B1", "D1"]);
    for (colour, filler) in [(Seat::One, "B1"), (Seat::Two, "D1"), (Seat::One, "D1"), (Seat::Two, "B1")] {
        let mut after = game.clone();
        after.set_turn(colour);
        after.play(&GoMove::Play { at: v(filler), colour: Some(colour) }).unwrap();
        assert_eq!(after.board().liberties(point(filler)).len(), 1, "{colour:?} at {filler} is self-atari");
    }
    // No dead stones: 8 black stones + the 32 points outside; 7 white stones; B1 and D1 neutral.
    let result = score_with(game, &[]);
    assert_eq!(result["score"], json!({"black": 40.0, "white": 7.0}));
}

#[test]
fn the_scoring_phase_needs_both_and_play_can_resume() {
    let mut game = position(9, 7.5, &["E5"], &["C3"]);
    game.play(&PASS).unwrap();
    assert_eq!(game.play(&GoMove::Accept { colour: None }).unwrap_err().code(), "not_scoring");
    game.play(&PASS).unwrap();
    assert_eq!(game.play(&play("A1")).unwrap_err().code(), "scoring");
    assert_eq!(game.play(&GoMove::Accept { colour: None }).unwrap_err().code(), "no_colour");
    game.play(&by(Seat::One, |colour| GoMove::Accept { colour })).unwrap();
    assert_eq!(state(&game)["accepted"], json!({"1": true, "2": false}));
    game.play(&GoMove::Toggle { at: v("C3"), colour: Some(Seat::Two) }).unwrap();
    assert_eq!(state(&game)["accepted"], json!({"1": false, "2": false}), "a toggle voids acceptances");
    assert_eq!(game.play(&GoMove::Toggle { at: v("A1"), colour: Some(Seat::Two) }).unwrap_err().code(), "no_stone");
    let before = state(&game)["to_move"].clone();
    game.play(&by(Seat::Two, |colour| GoMove::Resume { colour })).unwrap();
    assert_eq!(state(&game)["phase"], "play");
    assert_eq!(state(&game)["dead"], json!([]));
    assert_eq!(before, Value::Null, "nobody is to move while scoring");
    assert_eq!(game.status(), Status::ToMove(Seat::One), "play goes on in turn");
    game.play(&play("A1")).unwrap();
}

#[test]
fn refusals_have_their_codes_and_change_nothing() {
    // Black A2, B1 around the corner; white to move at A1 is suicide.
    let mut game = position(9, 7.5, &["A2", "B1", "E5"], &["G7", "G8", "G9"]);
    game.play(&play("E6")).unwrap();
    let check = |mv: GoMove| {
        let mut copy = game.clone();
        let code = copy.play(&mv).unwrap_err().code();
        assert_eq!(copy, game, "{mv:?} was refused but changed the game");
        code
    };
    assert_eq!(game.status(), Status::ToMove(Seat::Two));
    assert_eq!(check(play("A1")), "suicide");
    assert_eq!(check(play("E5")), "occupied");
    assert_eq!(check(play("J10")), "off_board");
    assert_eq!(check(play("Z1")), "off_board");
    assert_eq!(check(GoMove::Play { at: v("C3"), colour: Some(Seat::One) }), "not_your_turn");
    let mut resigned = game.clone();
    resigned.play(&GoMove::Resign { colour: None }).unwrap();
    assert_eq!(resigned.status().outcome().unwrap().winner, Some(Seat::One));
    assert_eq!(resigned.play(&PASS).unwrap_err().code(), "game_over");
}

#[test]
fn handicap_stones_stand_on_the_star_points_and_white_moves_first() {
    let game = GameKind::Go.new_game(&json!({"size": 9, "handicap": 2, "komi": 0.5})).unwrap();
    let board = game.state()["board"].clone();
    assert_eq!(board[2][6], 1, "G7");
    assert_eq!(board[6][2], 1, "C3");
    assert_eq!(game.state()["to_move"], 2);
    for bad in [
        json!({"size": 4}),
        json!({"size": 20}),
        json!({"komi": 0.3}),
        json!({"handicap": 1}),
        json!({"handicap": 5, "size": 10}),
    ] {
        assert!(GameKind::Go.new_game(&bad).is_err(), "{bad}");
    }
}

#[test]
fn a_state_reads_back_only_if_it_is_consistent() {
    let game = position(5, 0.5, &["C3"], &["D4"]);
    let json = state(&game);
    let back: Go = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(state(&back), json);
    let corrupt = |edit: &dyn Fn(&mut Value)| {
        let mut bad = json.clone();
        edit(&mut bad);
        serde_json::from_value::<Go>(bad).is_err()
    };
    // A black stone in the corner with no liberty (white on both sides).
    assert!(corrupt(&|s| {
        s["board"][3] = json!([0, 0, 0, 0, 2]);
        s["board"][4] = json!([0, 0, 0, 2, 1]);
    }));
    assert!(corrupt(&|s| s["passes"] = json!(2)), "two passes mean scoring");
    assert!(corrupt(&|s| s["ko"] = json!("C3")), "the ko point is occupied");
    assert!(corrupt(&|s| s["ko"] = json!("H8")), "the ko point is off the board");
    assert!(corrupt(&|s| s["board"][0][0] = json!(3)));
    assert!(!corrupt(&|s| s["ko"] = json!("A1")), "an empty ko point reads back");

    let finished = score_with(position(5, 0.5, &["B1", "B2", "B3", "B4", "B5"], &["D1", "D2", "D3", "D4", "D5"]), &[]);
    let back: Go = serde_json::from_value(finished.clone()).unwrap();
    assert_eq!(state(&back), finished);
    let mut wrong_winner = finished.clone();
    wrong_winner["result"]["winner"] = json!(1);
    assert!(serde_json::from_value::<Go>(wrong_winner).is_err(), "white has more area");
}
