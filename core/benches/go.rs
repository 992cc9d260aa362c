//! Go speed: light random playouts on an empty 9x9 (the measure: moves per second), the
//! search's playouts (answers, shapes, no self-atari), and legality under positional superko.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tabula_core::go::{Go, GoConfig, GoMove};
use tabula_core::Game;

fn benches(c: &mut Criterion) {
    let game = Go::new(GoConfig::default()).unwrap();
    let mut rng = SmallRng::seed_from_u64(1);
    // Moves per playout, averaged, so the throughput is in moves.
    let sample = 1000;
    let moves: u64 = (0..sample).map(|_| game.playout(&mut rng).1 as u64).sum::<u64>() / sample;
    let mut group = c.benchmark_group("go");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("9x9_light_playout", |b| b.iter(|| black_box(game.playout(&mut rng))));
    group.finish();

    // The search's playouts from the empty board, with the knowledge the computer plays them with:
    // what a change to that knowledge costs.
    let mut seed = 0;
    c.bench_function("go/9x9_search_playout", |b| {
        b.iter(|| {
            seed += 1;
            black_box(tabula_core::ai::playout_reward_sum(&game, 1, seed))
        })
    });

    // A mid-game position: all legal moves under superko.
    let mut midgame = game.clone();
    for _ in 0..40 {
        let points: Vec<GoMove> =
            midgame.legal_moves().into_iter().filter(|m| matches!(m, GoMove::Play { .. })).collect();
        let pick = points[(rand::RngCore::next_u32(&mut rng) as usize) % points.len()];
        midgame.play(&pick).unwrap();
    }
    c.bench_function("go/legal_moves_psk_midgame", |b| b.iter(|| black_box(midgame.legal_moves())));
}

criterion_group!(go, benches);
criterion_main!(go);
