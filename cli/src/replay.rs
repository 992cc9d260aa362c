//! `tabula replay <game>`: recompute the `steps` of recorded games (the reference vector format).

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use serde_json::Value;
use tabula_core::GameKind;

use crate::jsonl;

/// Streams games through: each input line `{"moves": [...], ...}` (Edges & Blocks files call the list
/// `actions`) comes out with `steps` replaced by ours, and every other field as it was. Malformed input
/// (not JSON, not an object, no `moves` or `actions` list, bad config) stops with an error
/// naming the line; an illegal move is not malformed input, it ends that game's steps with an error.
pub fn run(kind: GameKind, input: impl BufRead, output: impl Write) -> Result<()> {
    jsonl::transform(input, output, |record| {
        let moves = record
            .get("moves")
            .or(record.get("actions"))
            .and_then(Value::as_array)
            .context("expected a \"moves\" (or \"actions\") list")?;
        let config = record.get("config").cloned().unwrap_or(Value::Null);
        let steps = kind.replay_steps(&config, moves)?;
        record.insert("steps".into(), Value::Array(steps));
        Ok(())
    })
}
