//! POPUCOM rules at the edges: every kind of illegal move is refused with its reason and leaves the
//! state exactly as it was; both endings.

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tabula_core::popucom::{Cell, Popucom, PopucomError};
use tabula_core::{Game, GameKind, Rejection, Seat, Status};

mod shared;

fn play_all(moves: &[(u8, u8)]) -> Popucom {
    let cells: Vec<Cell> = moves.iter().map(|&(r, c)| Cell::new(r, c)).collect();
    Popucom::replay(Default::default(), &cells).expect("scripted moves are legal")
}

fn assert_refused(game: &Popucom, cell: Cell, expected: PopucomError) {
    let mut after = game.clone();
    assert_eq!(after.play(&cell), Err(expected.clone()), "{cell:?}");
    assert_eq!(&after, game, "a refused move changed the state");
    assert!(!game.is_legal(&cell));
    assert!(!game.legal_moves().contains(&cell));
    assert!(!expected.code().is_empty());
}

/// Red makes a row-0 line (0,0)-(0,2); blue plays far away and never blocks.
fn red_painted_row_zero() -> Popucom {
    let game = play_all(&[(0, 0), (8, 8), (0, 1), (6, 6), (0, 2)]);
    assert_eq!(game.stones(Seat::One).len(), 0, "the line's stones are removed");
    assert_eq!(game.territory(Seat::One).len(), 9, "the whole row is painted red");
    game
}

#[test]
fn an_occupied_cell_is_refused() {
    let game = play_all(&[(4, 4)]);
    assert_refused(&game, Cell::new(4, 4), PopucomError::Occupied(Cell::new(4, 4)));
}

#[test]
fn opponent_territory_is_refused_but_own_territory_is_playable() {
    let game = red_painted_row_zero();
    assert_eq!(game.status(), Status::ToMove(Seat::Two));
    assert_refused(&game, Cell::new(0, 5), PopucomError::OpponentTerritory(Cell::new(0, 5)));
    let mut red_turn = game.clone();
    red_turn.play(&Cell::new(7, 0)).unwrap();
    assert!(red_turn.is_legal(&Cell::new(0, 5)), "red may play on red territory");
}

#[test]
fn off_board_cells_are_refused() {
    let game = Popucom::default();
    for cell in [Cell::new(9, 0), Cell::new(0, 9), Cell::new(255, 255)] {
        assert_refused(&game, cell, PopucomError::OffBoard(cell));
    }
}

#[test]
fn after_fifty_moves_the_game_is_over_and_refuses_moves() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut game = Popucom::default();
    while let Some(cell) = game.random_move(&mut rng) {
        game.play(&cell).unwrap();
    }
    let Status::Over(outcome) = game.status() else { panic!("no move left but not over") };
    assert_eq!((game.moves_played(), outcome.reason), (50, "moves_exhausted"));
    let (red, blue) = (game.score(Seat::One), game.score(Seat::Two));
    assert_eq!(outcome.winner, (red != blue).then_some(if red > blue { Seat::One } else { Seat::Two }));
    assert!(game.legal_moves().is_empty());
    let empty = game.stones(Seat::One).union(game.stones(Seat::Two)).complement().iter().next().unwrap();
    assert_refused(&game, empty, PopucomError::GameOver);
}

#[test]
fn a_player_without_a_legal_cell_loses_at_once() {
    // The crafted vectors hold such a game; rebuild it and check the ending independently.
    let path = shared::vectors_dir().join("popucom-crafted.jsonl");
    let text = std::fs::read_to_string(&path).expect("crafted vectors beside the repository");
    let line = text.lines().find(|l| l.contains("no_legal_move")).expect("a no_legal_move game");
    let record: serde_json::Value = serde_json::from_str(line).unwrap();
    let moves: Vec<Cell> = serde_json::from_value(record["moves"].clone()).unwrap();
    let game = Popucom::replay(Default::default(), &moves).unwrap();
    let last_mover = if moves.len() % 2 == 1 { Seat::One } else { Seat::Two };
    assert!(game.moves_played() < 50);
    // Independently of legal_cells: every cell is a stone or the stuck player's opponent's territory.
    let blocked = game.stones(Seat::One).union(game.stones(Seat::Two)).union(game.territory(last_mover));
    assert_eq!(blocked.len(), 81);
    assert_eq!(game.status().outcome().map(|o| (o.winner, o.reason)), Some((Some(last_mover), "no_legal_move")));
    assert_eq!(game.status().to_move(), None);
    assert_refused(&game, Cell::new(0, 0), PopucomError::GameOver);
}

#[test]
fn a_cross_removes_both_lines_and_paints_both_directions() {
    // Red builds (4,3) (4,5) (3,4) (5,4), then (4,4) completes a row and a column at once.
    let game = play_all(&[(4, 3), (0, 0), (4, 5), (0, 8), (3, 4), (8, 0), (5, 4), (8, 8), (4, 4)]);
    assert_eq!(game.stones(Seat::One).len(), 0);
    // Row 4 up to the edges, column 4 up to the edges, but the corners' blue stones are untouched.
    assert_eq!(game.territory(Seat::One).len(), 9 + 9 - 1);
    assert_eq!(game.stones(Seat::Two).len(), 4);
}

#[test]
fn the_erased_layer_tells_malformed_moves_from_illegal_ones() {
    let mut game = GameKind::Popucom.new_game(&serde_json::Value::Null).unwrap();
    game.play(&serde_json::json!({"row": 4, "col": 4})).unwrap();
    let before = game.state();
    for (mv, code) in [
        (serde_json::json!({"row": -1, "col": 0}), "malformed_move"),
        (serde_json::json!("e4"), "malformed_move"),
        (serde_json::json!([4, 4]), "occupied"),
        (serde_json::json!([4, 9]), "off_board"),
    ] {
        assert_eq!(game.play(&mv).unwrap_err().code(), code, "{mv}");
        assert_eq!(game.state(), before);
    }
    assert!(GameKind::Popucom.new_game(&serde_json::json!({"size": 7})).is_err(), "unknown options are refused");
}

/// `line_making_cells` is exactly the legal cells whose move removes stones (makes a line), in
/// positions of many random games.
#[test]
fn line_making_cells_are_the_moves_that_make_a_line() {
    let mut rng = SmallRng::seed_from_u64(17);
    let mut checked = 0;
    for _ in 0..200 {
        let mut game = Popucom::default();
        while let Some(cell) = game.random_move(&mut rng) {
            let mover = game.status().to_move().unwrap();
            let makes_line = |cell: Cell| {
                let mut after = game.clone();
                after.play(&cell).unwrap();
                after.stones(mover).len() < game.stones(mover).len() + 1
            };
            let expected: Vec<Cell> = game.legal_cells().iter().filter(|&c| makes_line(c)).collect();
            let found: Vec<Cell> = game.line_making_cells().iter().collect();
            assert_eq!(found, expected, "after {} moves", game.moves_played());
            checked += expected.len();
            game.play(&cell).unwrap();
        }
    }
    assert!(checked > 1000, "the games made lines to check ({checked})");
}
