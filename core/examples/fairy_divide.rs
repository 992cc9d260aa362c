//! `cargo run --example fairy_divide -- VARIANT "FEN" DEPTH [MOVES...]`: perft per legal move (a
//! debugging aid against another engine's divide).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = &tabula_core::fairy::Variant::builtin()[&args[1]];
    let mut position = tabula_core::fairy::Position::from_fen(variant, &args[2], false).unwrap();
    let depth: u32 = args[3].parse().unwrap();
    for played in &args[4..] {
        let mv = position.legal_moves(variant).into_iter().find(|&m| position.uci(variant, m) == *played).unwrap();
        position = position.after(variant, mv);
    }
    for mv in position.legal_moves(variant) {
        println!("{} {}", position.uci(variant, mv), position.after(variant, mv).perft(variant, depth - 1));
    }
}
