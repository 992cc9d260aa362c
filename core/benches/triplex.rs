//! Triplex speed: generating the largest sizes up to area 36, and solving the hardest levels.

use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tabula_core::triplex::{generate, Board, Level};

fn shipped() -> Vec<Level> {
    include_str!("../data/triplex-levels.jsonl").lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn benches(c: &mut Criterion) {
    let levels = shipped();
    // The slowest single solve of the shipped list (placements built per level, as a site would).
    let (slowest, level) = levels
        .iter()
        .map(|level| {
            let start = Instant::now();
            let puzzle = level.puzzle();
            let search = puzzle.solve(&puzzle.placements(), 2);
            assert_eq!(search.tilings, 1);
            (start.elapsed(), level)
        })
        .max_by_key(|(time, _)| *time)
        .unwrap();
    eprintln!("slowest level to solve: {}x{} ({} nodes) in {slowest:?}", level.w, level.h, level.difficulty);

    let hardest = levels.iter().max_by_key(|l| l.difficulty).unwrap();
    let puzzle = hardest.puzzle();
    let placements = puzzle.placements();
    c.bench_function("triplex/solve_hardest_level", |b| b.iter(|| puzzle.solve(black_box(&placements), 2)));

    let mut group = c.benchmark_group("triplex/generate");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for (w, h) in [(12, 3), (9, 4), (7, 5), (6, 6)] {
        group.bench_function(format!("{w}x{h}"), |b| b.iter(|| generate(black_box(Board { w, h }))));
    }
    group.finish();
}

criterion_group!(triplex, benches);
criterion_main!(triplex);
