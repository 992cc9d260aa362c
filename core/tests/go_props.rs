//! Property tests for Go: random games (random legal points, passes, scoring-phase toggles,
//! acceptances and resumptions). Checked after every move: no group on the JSON board is without
//! a liberty, the state reads back from its JSON, replaying the moves reproduces it, and undoing
//! (replaying all but the last move) restores the previous state. Finished games with no dead
//! stones score exactly as a Tromp-Taylor area count made here from the JSON board.

use proptest::prelude::*;
use serde_json::Value;
use tabula_core::go::{Go, GoConfig, GoMove, KoRule};
use tabula_core::{Game, Seat};

type Grid = Vec<Vec<u8>>;

fn grid(state: &Value) -> Grid {
    serde_json::from_value(state["board"].clone()).unwrap()
}

fn neighbours(size: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if r > 0 {
        out.push((r - 1, c));
    }
    if c > 0 {
        out.push((r, c - 1));
    }
    if r + 1 < size {
        out.push((r + 1, c));
    }
    if c + 1 < size {
        out.push((r, c + 1));
    }
    out
}

/// The flood fill of (r, c)'s connected set of the same value; and the values bordering it.
fn region(board: &Grid, r: usize, c: usize) -> (Vec<(usize, usize)>, Vec<u8>) {
    let size = board.len();
    let value = board[r][c];
    let (mut seen, mut stack, mut border) = (vec![(r, c)], vec![(r, c)], Vec::new());
    while let Some((r, c)) = stack.pop() {
        for (nr, nc) in neighbours(size, r, c) {
            if board[nr][nc] == value {
                if !seen.contains(&(nr, nc)) {
                    seen.push((nr, nc));
                    stack.push((nr, nc));
                }
            } else {
                border.push(board[nr][nc]);
            }
        }
    }
    (seen, border)
}

fn tromp_taylor(board: &Grid, komi: f64) -> (f64, f64) {
    let (mut black, mut white) = (0.0, 0.0);
    for (r, row) in board.iter().enumerate() {
        for (c, &value) in row.iter().enumerate() {
            match value {
                1 => black += 1.0,
                2 => white += 1.0,
                _ => {
                    let (_, border) = region(board, r, c);
                    let (b, w) = (border.contains(&1), border.contains(&2));
                    if b && !w {
                        black += 1.0;
                    } else if w && !b {
                        white += 1.0;
                    }
                }
            }
        }
    }
    (black, white + komi)
}

#[derive(Clone, Debug)]
enum Step {
    Legal(prop::sample::Index),
    Pass,
    Scoring(prop::sample::Index),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        20 => any::<prop::sample::Index>().prop_map(Step::Legal),
        1 => Just(Step::Pass),
        2 => any::<prop::sample::Index>().prop_map(Step::Scoring),
    ];
    prop::collection::vec(step, 0..160)
}

fn configs() -> impl Strategy<Value = GoConfig> {
    (5usize..=9, prop_oneof![Just(KoRule::Psk), Just(KoRule::Simple)], 0usize..=1).prop_map(|(size, ko, h)| GoConfig {
        size,
        komi: 6.5,
        ko,
        handicap: if h == 1 && size >= 7 { 2 } else { 0 },
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn random_games_keep_every_invariant(config in configs(), steps in steps()) {
        let mut game = Go::new(config.clone()).unwrap();
        let mut moves: Vec<GoMove> = Vec::new();
        let mut before = serde_json::to_value(&game).unwrap();
        for step in &steps {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = match step {
                Step::Legal(index) => {
                    let points: Vec<GoMove> = legal.iter().copied().filter(|m| matches!(m, GoMove::Play { .. })).collect();
                    if points.is_empty() { *index.get(&legal) } else { *index.get(&points) }
                }
                Step::Pass => *legal.iter().find(|m| matches!(m, GoMove::Pass { .. })).unwrap_or(&legal[0]),
                Step::Scoring(index) => *index.get(&legal),
            };
            game.play(&mv).unwrap();
            moves.push(mv);
            let state = serde_json::to_value(&game).unwrap();
            let board = grid(&state);
            for (r, row) in board.iter().enumerate() {
                for (c, &value) in row.iter().enumerate() {
                    if value != 0 {
                        let (_, border) = region(&board, r, c);
                        prop_assert!(border.contains(&0), "a group without liberty at ({}, {})", r, c);
                    }
                }
            }
            let back: Go = serde_json::from_value(state.clone()).unwrap();
            prop_assert_eq!(serde_json::to_value(&back).unwrap(), state.clone());
            let replayed = Go::replay(config.clone(), &moves).unwrap();
            prop_assert_eq!(serde_json::to_value(&replayed).unwrap(), state.clone());
            let undone = Go::replay(config.clone(), &moves[..moves.len() - 1]).unwrap();
            prop_assert_eq!(serde_json::to_value(&undone).unwrap(), before);
            before = state;
        }
    }

    #[test]
    fn finished_games_without_dead_stones_score_as_tromp_taylor(seed in any::<u64>(), size in 5usize..=9) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut game = Go::new(GoConfig { size, ..GoConfig::default() }).unwrap();
        // Random points until the board is settled, then two passes.
        for _ in 0..size * size * 2 {
            let points: Vec<GoMove> = game.legal_moves().into_iter().filter(|m| matches!(m, GoMove::Play { .. })).collect();
            if points.is_empty() {
                break;
            }
            game.play(&points[rng.random_range(0..points.len())]).unwrap();
        }
        while serde_json::to_value(&game).unwrap()["phase"] == "play" {
            game.play(&GoMove::Pass { colour: None }).unwrap();
        }
        let marked: Vec<String> = serde_json::from_value(serde_json::to_value(&game).unwrap()["dead"].clone()).unwrap();
        for stone in &marked {
            let still: Vec<String> = serde_json::from_value(serde_json::to_value(&game).unwrap()["dead"].clone()).unwrap();
            if still.contains(stone) {
                game.play(&GoMove::Toggle { at: stone.parse().unwrap(), colour: Some(Seat::Two) }).unwrap();
            }
        }
        game.play(&GoMove::Accept { colour: Some(Seat::One) }).unwrap();
        game.play(&GoMove::Accept { colour: Some(Seat::Two) }).unwrap();
        let state = serde_json::to_value(&game).unwrap();
        let (black, white) = tromp_taylor(&grid(&state), 7.5);
        prop_assert_eq!(&state["score"], &serde_json::json!({"black": black, "white": white}));
    }
}
