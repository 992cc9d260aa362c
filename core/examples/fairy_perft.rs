fn main() {
    let text = std::fs::read_to_string("../shared/rules/fairy-variants.json").unwrap();
    let variants = tabula_core::fairy::Variant::all_from_json(&text).unwrap();
    let v = &variants["chess"];
    let p =
        tabula_core::fairy::Position::from_fen(v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false)
            .unwrap();
    let t = std::time::Instant::now();
    let n = p.perft(v, 5);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes in {s:.2}s = {:.0} nps", n as f64 / s);
}
