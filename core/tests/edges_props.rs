//! Property tests for Edges & Blocks: random games on random boards. Invariants are re-derived from
//! the serialised state (the `edges`/`cells` strings) with the spec's own id formulas.

use proptest::prelude::*;
use tabula_core::edges::{Edges, EdgesConfig, EdgesMove};
use tabula_core::{Game, Seat};

#[derive(Clone, Debug)]
enum Step {
    /// One of the legal actions; moves of edges are preferred, so chains and eats happen.
    Legal(prop::sample::Index, bool),
    /// Any place or move ids, often illegal or off the board.
    Anywhere(usize, usize),
    Undo,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        12 => (any::<prop::sample::Index>(), any::<bool>()).prop_map(|(i, prefer)| Step::Legal(i, prefer)),
        2 => (0usize..300, 0usize..300).prop_map(|(a, b)| Step::Anywhere(a, b)),
        1 => Just(Step::Undo),
    ];
    prop::collection::vec(step, 0..250)
}

fn configs() -> impl Strategy<Value = EdgesConfig> {
    (3usize..=12, 1usize..=9, 1u32..=12, 1u32..=12).prop_map(|(size, cells_to_win, a, b)| EdgesConfig {
        size,
        cells_to_win,
        supply: [a, b],
    })
}

/// The state's boards as the spec defines them: edges and cells by id, players '0' and '1'.
struct Boards {
    n: usize,
    edges: Vec<char>,
    cells: Vec<char>,
    supply: [u64; 2],
}

fn boards(game: &Edges) -> Boards {
    let state = serde_json::to_value(game).unwrap();
    let chars = |key: &str| state[key].as_str().unwrap().chars().collect::<Vec<_>>();
    let supply = |i: usize| state["supply"][i].as_u64().unwrap();
    Boards { n: game.config().size, edges: chars("edges"), cells: chars("cells"), supply: [supply(0), supply(1)] }
}

impl Boards {
    /// §2: H(x,y), H(x,y+1), V(x,y), V(x+1,y) of cell B(x,y).
    fn cell_edges(&self, cell: usize) -> [usize; 4] {
        let n = self.n;
        let (x, y) = (cell % n, cell / n);
        [n * y + x, n * ((y + 1) % n) + x, n * n + n * y + x, n * n + n * y + (x + 1) % n]
    }

    fn held(&self, player: char) -> u64 {
        let index = if player == '0' { 0 } else { 1 };
        self.edges.iter().filter(|&&c| c == player).count() as u64 + self.supply[index]
    }
}

fn enemy(player: char) -> char {
    if player == '0' {
        '1'
    } else {
        '0'
    }
}

fn pick(game: &Edges, index: &prop::sample::Index, prefer_moves: bool) -> Option<EdgesMove> {
    let legal = game.legal_moves();
    let shifts: Vec<_> = legal.iter().filter(|mv| matches!(mv, EdgesMove::Move { .. })).cloned().collect();
    let pool = if prefer_moves && !shifts.is_empty() { shifts } else { legal };
    (!pool.is_empty()).then(|| *index.get(&pool))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_keep_the_invariants(config in configs(), steps in steps()) {
        let mut game = Edges::new(config.clone()).unwrap();
        let mut moves = Vec::new();
        for step in &steps {
            let before = game.clone();
            let mv = match step {
                Step::Legal(index, prefer) => match pick(&game, index, *prefer) {
                    Some(mv) => mv,
                    None => continue,
                },
                Step::Anywhere(a, b) if a % 2 == 0 => EdgesMove::place(*b),
                Step::Anywhere(a, b) => EdgesMove::shift(*a, *b),
                Step::Undo => {
                    if game.undo().is_ok() {
                        prop_assert_eq!(game.undoable() + 1, before.undoable());
                        moves.pop();
                    }
                    continue;
                }
            };
            match game.play(&mv) {
                Err(_) => prop_assert_eq!(&game, &before, "a refused action changed the state"),
                Ok(()) => {
                    moves.push(mv);
                    let (was, now) = (boards(&before), boards(&game));
                    for player in ['0', '1'] {
                        prop_assert!(now.held(player) >= was.held(player), "player {} lost held edges on {:?}", player, mv);
                    }
                    for (cell, &owner) in now.cells.iter().enumerate() {
                        if owner != '.' {
                            let touching = now.cell_edges(cell).iter().any(|&e| now.edges[e] == enemy(owner));
                            prop_assert!(!touching, "cell {} owned by {} touches an enemy edge after {:?}", cell, owner, mv);
                        }
                    }
                    // The kept counts are the board's, and a forward-only copy plays the same.
                    for (seat, player) in [(Seat::One, '0'), (Seat::Two, '1')] {
                        prop_assert_eq!(game.cells_of(seat) as usize, now.cells.iter().filter(|&&c| c == player).count());
                        prop_assert_eq!(game.edges_of(seat) as usize, now.edges.iter().filter(|&&c| c == player).count());
                    }
                    let mut forward = before.forward_only();
                    forward.play(&mv).unwrap();
                    prop_assert_eq!(serde_json::to_value(&forward).unwrap(), serde_json::to_value(&game).unwrap());
                    prop_assert_eq!(forward.undoable(), 0);
                    // Undo restores exactly, and the state reads back from its JSON.
                    let mut undone = game.clone();
                    undone.undo().unwrap();
                    prop_assert_eq!(&undone, &before);
                    let json = serde_json::to_value(&game).unwrap();
                    let back: Edges = serde_json::from_value(json.clone()).unwrap();
                    prop_assert_eq!(serde_json::to_value(&back).unwrap(), json);
                }
            }
        }
        // Replaying the moves that stand (what rooms do) reaches the same state.
        let replayed = Edges::replay(config, &moves).unwrap();
        prop_assert_eq!(serde_json::to_value(&replayed).unwrap(), serde_json::to_value(&game).unwrap());
    }
}
