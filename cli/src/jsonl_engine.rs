//! An outside program speaking `tabula ai`'s JSON Lines as an arena player, for any game: `tabula
//! arena popucom --b 'jsonl:/path/to/player --seed {seed}'` (arguments follow the program,
//! separated by spaces; `{seed}` becomes the arena's seed for that game). It gets one request
//! `{"config", "moves", "seat"}` per move and answers `{"move": ...}` (`null`: nothing to do) or
//! `{"error": {...}}`; our engine referees every move it answers.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use tabula_core::Seat;

/// A running player, started for one game.
pub struct JsonLinesEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl JsonLinesEngine {
    /// Starts `command` (the program, then its arguments) with `{seed}` in them replaced by `seed`.
    pub fn start(command: &[String], seed: u64) -> Result<JsonLinesEngine> {
        let mut words = command.iter().map(|word| word.replace("{seed}", &seed.to_string()));
        let program = words.next().context("jsonl: needs the player's program")?;
        let mut child = Command::new(&program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting {program}"))?;
        let input = child.stdin.take().context("the player's stdin")?;
        let output = BufReader::new(child.stdout.take().context("the player's stdout")?);
        Ok(JsonLinesEngine { child, input, output })
    }

    /// The player's move for `seat` after `moves`, or `None` if it has nothing to do.
    pub fn choose(&mut self, config: &Value, moves: &[Value], seat: Seat) -> Result<Option<Value>> {
        let request = json!({"config": config, "moves": moves, "seat": seat.number()});
        writeln!(self.input, "{request}").and_then(|_| self.input.flush()).context("writing to the player")?;
        let mut line = String::new();
        if self.output.read_line(&mut line).context("reading from the player")? == 0 {
            bail!("the player closed its output without answering move {}", moves.len());
        }
        let answer: Value =
            serde_json::from_str(&line).with_context(|| format!("the player's answer is not JSON: {line:?}"))?;
        if let Some(error) = answer.get("error") {
            bail!("the player refused move {}: {error}", moves.len());
        }
        match answer.get("move") {
            None => bail!("the player's answer has no \"move\": {line:?}"),
            Some(Value::Null) => Ok(None),
            Some(mv) => Ok(Some(mv.clone())),
        }
    }
}

impl Drop for JsonLinesEngine {
    fn drop(&mut self) {
        // Its input closed, a player ends; one that does not is not waited for.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
