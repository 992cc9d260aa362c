//! Fairy chess's part of the command line: `tabula fairy perft` (perft counts and legal moves of
//! positions, in the reference format, `shared/vectors/fairy-*.jsonl`), the UCI engine (`tabula
//! uci`, `uci.rs`), its `tabula bench` playout and `tabula bench fairy` (perft, timed).

pub mod uci;

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use serde_json::Value;
use tabula_core::fairy::{Position, Variant, VariantDef};

use crate::jsonl;

/// Each input line `{"variant", "fen", "chess960"?, "perft": [...]}` comes out with `perft` (one
/// count per depth, as many depths as the input lists) and `legal_moves` (sorted) computed here.
/// A line may carry its own variant definition (`pieces`, `board`, ...), as the reference model's
/// lines do; otherwise `variant` names a built-in one.
pub fn perft(input: impl BufRead, output: impl Write) -> Result<()> {
    jsonl::transform(input, output, |record| {
        let name = record.get("variant").and_then(Value::as_str).unwrap_or("chess").to_owned();
        let own;
        let variant = if record.contains_key("pieces") {
            let def: VariantDef = serde_json::from_value(Value::Object(record.clone())).context("variant")?;
            own = Variant::from_def(&name, &def).map_err(anyhow::Error::msg)?;
            &own
        } else {
            Variant::named(&name).with_context(|| format!("unknown variant {name:?}"))?
        };
        let fen = record.get("fen").and_then(Value::as_str).context("no fen")?;
        let chess960 = record.get("chess960").and_then(Value::as_bool).unwrap_or(false);
        let position = Position::from_fen(variant, fen, chess960).map_err(anyhow::Error::msg)?;
        let depth = record.get("perft").and_then(Value::as_array).map_or(1, Vec::len) as u32;
        let counts: Vec<u64> = (1..=depth).map(|d| position.perft(variant, d)).collect();
        let mut moves: Vec<String> =
            position.legal_moves(variant).into_iter().map(|mv| position.uci(variant, mv)).collect();
        moves.sort();
        record.insert("perft".into(), counts.into());
        record.insert("legal_moves".into(), moves.into());
        Ok(())
    })
}

/// Random legal moves of orthodox chess to the end (or 300 plies).
pub fn bench_playout(rng: &mut rand::rngs::SmallRng, tally: &mut crate::bench::Tally) {
    use tabula_core::fairy::{Chess, ChessConfig};
    use tabula_core::Game;
    let game = Chess::new(ChessConfig::default()).expect("chess is built in");
    crate::bench::legal_playout(game, 300, rng, tally);
}

/// `tabula bench fairy`: perft to `depth` from `fen` (the variant's start by default), `rounds`
/// times, one thread; a line per round and last `nodes_per_sec=<median>`. Perft, the reference
/// counts' measure, is how fairy engines are compared (Fairy-Stockfish's `go perft`).
pub fn bench_perft(name: &str, fen: Option<&str>, depth: u32, rounds: u32) -> Result<()> {
    anyhow::ensure!(rounds > 0, "--rounds must be at least 1");
    anyhow::ensure!((1..=12).contains(&depth), "--depth must be 1 to 12");
    let variant = Variant::named(name).with_context(|| format!("unknown variant {name:?}"))?;
    let fen = fen.or(variant.start.as_deref()).context("the variant has no start position: give --fen")?;
    let position = Position::from_fen(variant, fen, false).map_err(anyhow::Error::msg)?;
    let mut rates = Vec::new();
    for round in 1..=rounds {
        let start = std::time::Instant::now();
        let nodes = position.perft(variant, depth);
        let seconds = start.elapsed().as_secs_f64();
        let rate = nodes as f64 / seconds;
        println!("round {round}: perft {depth} = {nodes} nodes in {seconds:.3} s, {rate:.0} nodes/s");
        rates.push(rate);
    }
    println!("nodes_per_sec={:.0}", crate::bench::median(rates));
    Ok(())
}
