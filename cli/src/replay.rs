//! `tabula replay <game>`: recompute the `steps` of recorded games (the reference vector format).

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use serde_json::Value;
use tabula_core::GameKind;

/// Streams games through: each input line `{"moves": [...], ...}` (Edges & Blocks files call the list
/// `actions`) comes out with `steps` replaced by ours, and every other field as it was. Malformed input
/// (not JSON, not an object, no `moves` or `actions` list, bad config) stops with an error
/// naming the line; an illegal move is not malformed input, it ends that game's steps with an error.
pub fn run(kind: GameKind, input: impl BufRead, mut output: impl Write) -> Result<()> {
    for (index, line) in input.lines().enumerate() {
        let line_no = index + 1;
        let line = line.with_context(|| format!("reading line {line_no}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let mut game: Value = serde_json::from_str(&line).with_context(|| format!("line {line_no} is not JSON"))?;
        let Some(record) = game.as_object_mut() else { bail!("line {line_no}: expected a JSON object") };
        let Some(moves) = record.get("moves").or(record.get("actions")).and_then(Value::as_array) else {
            bail!("line {line_no}: expected a \"moves\" (or \"actions\") list")
        };
        let config = record.get("config").cloned().unwrap_or(Value::Null);
        let steps = kind.replay_steps(&config, moves).with_context(|| format!("line {line_no}"))?;
        record.insert("steps".into(), Value::Array(steps));
        serde_json::to_writer(&mut output, &game)?;
        output.write_all(b"\n")?;
    }
    output.flush()?;
    Ok(())
}
