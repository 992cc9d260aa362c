//! `tabula fairy perft`: perft counts and legal moves of fairy chess positions, in the reference
//! format (`shared/vectors/fairy-*.jsonl`).

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
