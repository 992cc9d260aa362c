//! JSON Lines through a function: each input object is handed over to have fields added or
//! replaced, then written back with everything else as it was. Blank lines are skipped; anything
//! wrong stops with an error naming the line.

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use serde_json::{Map, Value};

pub fn transform(
    input: impl BufRead,
    mut output: impl Write,
    mut each: impl FnMut(&mut Map<String, Value>) -> Result<()>,
) -> Result<()> {
    for (index, line) in input.lines().enumerate() {
        let line_no = index + 1;
        let line = line.with_context(|| format!("reading line {line_no}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let mut value: Value = serde_json::from_str(&line).with_context(|| format!("line {line_no} is not JSON"))?;
        let Some(record) = value.as_object_mut() else { bail!("line {line_no}: expected a JSON object") };
        each(record).with_context(|| format!("line {line_no}"))?;
        serde_json::to_writer(&mut output, &value)?;
        output.write_all(b"\n")?;
    }
    output.flush()?;
    Ok(())
}
