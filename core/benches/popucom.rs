//! POPUCOM engine speed: one move, and a whole uniform random playout from the empty board.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tabula_core::popucom::Popucom;
use tabula_core::Game;

fn playout(rng: &mut SmallRng) -> Popucom {
    let mut game = Popucom::default();
    while let Some(cell) = game.random_move(rng) {
        game.play_unchecked(&cell);
    }
    game
}

fn benches(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(1);
    // A mid-game position with stones of both colours and some territory.
    let mut midgame = Popucom::default();
    for _ in 0..20 {
        let cell = midgame.random_move(&mut rng).expect("20 moves fit in a game");
        midgame.play_unchecked(&cell);
    }
    let cell = midgame.random_move(&mut rng).unwrap();
    c.bench_function("popucom/play_checked", |b| {
        b.iter(|| {
            let mut game = midgame.clone();
            game.play(black_box(&cell)).unwrap();
            game
        })
    });
    c.bench_function("popucom/legal_moves", |b| b.iter(|| black_box(&midgame).legal_moves()));
    c.bench_function("popucom/random_playout", |b| b.iter(|| playout(&mut rng)));
}

criterion_group!(popucom, benches);
criterion_main!(popucom);
