//! `tabula fairy perft`: perft counts and legal moves of fairy chess positions, in the reference
//! format (`shared/vectors/fairy-*.jsonl`).

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use serde_json::Value;
use tabula_core::fairy::{Position, Variant, VariantDef};

/// Each input line `{"variant", "fen", "chess960"?, "perft": [...]}` comes out with `perft` (one
/// count per depth, as many depths as the input lists) and `legal_moves` (sorted) computed here.
/// A line may carry its own variant definition (`pieces`, `board`, ...), as the reference model's
/// lines do; otherwise `variant` names a built-in one.
pub fn perft(input: impl BufRead, mut output: impl Write) -> Result<()> {
    for (index, line) in input.lines().enumerate() {
        let line_no = index + 1;
        let line = line.with_context(|| format!("reading line {line_no}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let mut case: Value = serde_json::from_str(&line).with_context(|| format!("line {line_no} is not JSON"))?;
        let Some(record) = case.as_object_mut() else { bail!("line {line_no}: expected a JSON object") };
        let name = record.get("variant").and_then(Value::as_str).unwrap_or("chess").to_owned();
        let own;
        let variant = if record.contains_key("pieces") {
            let def: VariantDef = serde_json::from_value(Value::Object(record.clone()))
                .with_context(|| format!("line {line_no}: variant"))?;
            own = Variant::from_def(&name, &def)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("line {line_no}"))?;
            &own
        } else {
            Variant::builtin().get(&name).with_context(|| format!("line {line_no}: unknown variant {name:?}"))?
        };
        let fen = record.get("fen").and_then(Value::as_str).with_context(|| format!("line {line_no}: no fen"))?;
        let chess960 = record.get("chess960").and_then(Value::as_bool).unwrap_or(false);
        let position = Position::from_fen(variant, fen, chess960)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("line {line_no}"))?;
        let depth = record.get("perft").and_then(Value::as_array).map_or(1, Vec::len) as u32;
        let counts: Vec<u64> = (1..=depth).map(|d| position.perft(variant, d)).collect();
        let mut moves: Vec<String> =
            position.legal_moves(variant).into_iter().map(|mv| position.uci(variant, mv)).collect();
        moves.sort();
        record.insert("perft".into(), counts.into());
        record.insert("legal_moves".into(), moves.into());
        serde_json::to_writer(&mut output, &case)?;
        output.write_all(b"\n")?;
    }
    output.flush()?;
    Ok(())
}
