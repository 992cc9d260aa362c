//! Property tests for POPUCOM: random games, with every invariant re-derived from the serialised
//! state (the JSON grids), not from the engine's own bitboards.

use proptest::prelude::*;
use serde_json::Value;
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::{Game, Seat};

/// What a test game does at each step: pick among the legal moves, or try an arbitrary cell
/// (often illegal, sometimes off the board).
#[derive(Clone, Debug)]
enum Action {
    Legal(prop::sample::Index),
    Anywhere(u8, u8),
}

fn actions() -> impl Strategy<Value = Vec<Action>> {
    let action = prop_oneof![
        4 => any::<prop::sample::Index>().prop_map(Action::Legal),
        1 => (0u8..11, 0u8..11).prop_map(|(r, c)| Action::Anywhere(r, c)),
    ];
    prop::collection::vec(action, 0..90)
}

type Grid = Vec<Vec<u8>>;

fn grids(game: &Popucom) -> (Grid, Grid, Value) {
    let state = serde_json::to_value(game).unwrap();
    let grid = |key: &str| serde_json::from_value::<Grid>(state[key].clone()).unwrap();
    (grid("board"), grid("territory"), state)
}

/// Length of the longest run of `colour` stones in any of the four line directions.
fn longest_run(board: &Grid, colour: u8) -> usize {
    let mut longest = 0;
    for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
        for r in 0..9i32 {
            for c in 0..9i32 {
                let mut len = 0;
                let (mut rr, mut cc) = (r, c);
                while (0..9).contains(&rr) && (0..9).contains(&cc) && board[rr as usize][cc as usize] == colour {
                    len += 1;
                    rr += dr;
                    cc += dc;
                }
                longest = longest.max(len);
            }
        }
    }
    longest
}

/// Plays the actions and checks every invariant after every step. Returns the game and its moves.
fn play_checked(actions: &[Action]) -> Result<(Popucom, Vec<Cell>), TestCaseError> {
    let mut game = Popucom::default();
    let mut moves = Vec::new();
    for action in actions {
        let legal = game.legal_moves();
        let cell = match action {
            Action::Legal(_) if legal.is_empty() => continue,
            Action::Legal(index) => legal[index.index(legal.len())],
            Action::Anywhere(r, c) => Cell::new(*r, *c),
        };
        let before = game.clone();
        let mover = game.status().to_move();
        match game.play(&cell) {
            Err(_) => {
                prop_assert_eq!(&game, &before, "a refused move changed the state");
                prop_assert!(!legal.contains(&cell));
                continue;
            }
            Ok(()) => prop_assert!(legal.contains(&cell), "{:?} was played but not listed as legal", cell),
        }
        moves.push(cell);
        let (board, territory, state) = grids(&game);
        let mover = mover.expect("a move was accepted, so someone was to move").number();
        prop_assert!(longest_run(&board, mover) < 3, "a run of 3 of the mover's colour remains");
        let count = |grid: &Grid, v: u8| grid.iter().flatten().filter(|&&x| x == v).count() as u32;
        let view = serde_json::to_value(game.view()).unwrap();
        for seat in Seat::ALL {
            prop_assert_eq!(game.score(seat), count(&territory, seat.number()));
            prop_assert_eq!(&view["scores"][seat.number().to_string()], &Value::from(count(&territory, seat.number())));
        }
        prop_assert_eq!(state["moves_played"].as_u64(), Some(moves.len() as u64));
        prop_assert!(moves.len() <= 50, "the game went past move 50");
        // The legal set is exactly the empty cells not painted by the opponent of the side to move.
        let expected_legal: Vec<Cell> = match game.status().to_move() {
            None => vec![],
            Some(seat) => (0..9u8)
                .flat_map(|r| (0..9u8).map(move |c| Cell::new(r, c)))
                .filter(|c| board[c.row as usize][c.col as usize] == 0)
                .filter(|c| territory[c.row as usize][c.col as usize] != seat.other().number())
                .collect(),
        };
        prop_assert_eq!(game.legal_moves(), expected_legal);
    }
    Ok((game, moves))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_keep_every_invariant(actions in actions()) {
        play_checked(&actions)?;
    }

    #[test]
    fn replaying_the_moves_reproduces_the_state(actions in actions()) {
        let (game, moves) = play_checked(&actions)?;
        prop_assert_eq!(Popucom::replay(Default::default(), &moves).unwrap(), game);
    }

    #[test]
    fn state_and_view_round_trip_through_json(actions in actions()) {
        let (game, moves) = play_checked(&actions)?;
        let state: Popucom = serde_json::from_value(serde_json::to_value(&game).unwrap()).unwrap();
        prop_assert_eq!(&state, &game);
        let view: Popucom = serde_json::from_value(serde_json::to_value(game.view()).unwrap()).unwrap();
        prop_assert_eq!(&view, &game);
        let moves_json = serde_json::to_value(&moves).unwrap();
        prop_assert_eq!(serde_json::from_value::<Vec<Cell>>(moves_json).unwrap(), moves);
    }

    #[test]
    fn every_game_ends_by_move_fifty(picks in prop::collection::vec(any::<prop::sample::Index>(), 50)) {
        let actions: Vec<Action> = picks.into_iter().map(Action::Legal).collect();
        let (game, moves) = play_checked(&actions)?;
        prop_assert!(game.status().is_over(), "still running after {} moves", moves.len());
        prop_assert!(moves.len() <= 50);
    }
}

#[test]
fn a_tampered_state_is_refused_when_read_back() {
    let mut game = Popucom::default();
    game.play(&Cell::new(4, 4)).unwrap();
    let mut state = serde_json::to_value(&game).unwrap();
    state["to_move"] = Value::from(1);
    assert!(serde_json::from_value::<Popucom>(state.clone()).is_err(), "to_move must follow moves_played");
    state["to_move"] = Value::from(2);
    assert!(serde_json::from_value::<Popucom>(state.clone()).is_ok());
    let mut bad_value = state.clone();
    bad_value["board"][0][0] = Value::from(3);
    assert!(serde_json::from_value::<Popucom>(bad_value).is_err(), "stone values are 0, 1 or 2");
    let mut line = state;
    for col in 0..3 {
        line["board"][8][col] = Value::from(2);
    }
    assert!(serde_json::from_value::<Popucom>(line).is_err(), "no run of three survives a move");
}
