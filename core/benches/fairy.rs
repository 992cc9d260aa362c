//! Fairy chess speed: perft from the start positions (leaf nodes per second, one thread).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tabula_core::fairy::{Position, Variant};

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("fairy/perft");
    group.sample_size(10);
    for (name, depth) in [("chess", 5), ("capablanca", 4), ("griffin-laser", 4), ("hoppers", 4)] {
        let variant = &Variant::builtin()[name];
        let position = Position::from_fen(variant, variant.start.as_deref().unwrap(), false).unwrap();
        let nodes = position.perft(variant, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}_depth{depth}"), |b| b.iter(|| position.perft(black_box(variant), depth)));
    }
    group.finish();
}

criterion_group!(fairy, benches);
criterion_main!(fairy);
