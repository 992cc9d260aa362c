//! An outside UCI engine as an arena player (the chess variants): `tabula arena chess --b
//! 'uci:/path/to/fairy-stockfish?UCI_LimitStrength=true&UCI_Elo=1500&movetime=200'` (arguments may
//! follow the program, separated by spaces). Every option
//! but `movetime` (milliseconds per move, default 100) is sent with `setoption`; the variant comes
//! from the arena's config. Our engine referees every move it answers.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{bail, Context, Result};
use serde_json::Value;

/// What `uci:` names: the program (with its arguments, split at spaces) and its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct UciSpec {
    pub program: String,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub movetime_ms: u64,
}

impl UciSpec {
    /// `PROGRAM[?NAME=VALUE&...]`.
    pub fn parse(text: &str) -> Result<UciSpec, String> {
        let (command, query) = text.split_once('?').unwrap_or((text, ""));
        let mut words = command.split_whitespace().map(str::to_owned);
        let program = words.next().ok_or("uci: needs the engine's program")?;
        let mut spec = UciSpec { program, args: words.collect(), options: Vec::new(), movetime_ms: 100 };
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) =
                pair.split_once('=').ok_or_else(|| format!("uci option {pair:?}: expected NAME=VALUE"))?;
            if name == "movetime" {
                spec.movetime_ms = value.parse().map_err(|_| format!("movetime {value:?}: not a number of ms"))?;
            } else {
                spec.options.push((name.into(), value.into()));
            }
        }
        Ok(spec)
    }
}

/// A running engine, set up for one game.
pub struct UciEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    movetime_ms: u64,
}

impl UciEngine {
    /// Starts the engine, sends its options and the config's variant, and waits until it is ready.
    pub fn start(spec: &UciSpec, config: &Value) -> Result<UciEngine> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", spec.program))?;
        let input = child.stdin.take().context("the engine's stdin")?;
        let output = BufReader::new(child.stdout.take().context("the engine's stdout")?);
        let mut engine = UciEngine { child, input, output, movetime_ms: spec.movetime_ms };
        engine.send("uci")?;
        engine.read_until("uciok")?;
        let variant = config.get("variant").and_then(Value::as_str).unwrap_or("chess");
        if variant != "chess" {
            engine.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        for (name, value) in &spec.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.send("ucinewgame")?;
        engine.send("isready")?;
        engine.read_until("readyok")?;
        Ok(engine)
    }

    /// The engine's move after `moves` (our UCI strings) from the start, or `None` if it has none.
    pub fn choose(&mut self, moves: &[Value]) -> Result<Option<Value>> {
        let list: Vec<&str> =
            moves.iter().map(|m| m.as_str().context("a chess move is a string")).collect::<Result<_>>()?;
        let position = if list.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", list.join(" "))
        };
        self.send(&position)?;
        self.send(&format!("go movetime {}", self.movetime_ms))?;
        let line = self.read_until("bestmove")?;
        match line.split_whitespace().nth(1) {
            None | Some("(none)") => Ok(None),
            Some(mv) => Ok(Some(Value::String(mv.to_owned()))),
        }
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.input, "{line}").and_then(|_| self.input.flush()).context("writing to the engine")
    }

    /// Reads lines until one starts with `word`, and returns it.
    fn read_until(&mut self, word: &str) -> Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line).context("reading from the engine")? == 0 {
                bail!("the engine closed its output before {word:?}");
            }
            if line.split_whitespace().next() == Some(word) {
                return Ok(line.trim().to_owned());
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // An engine that does not quit at once is not waited for.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_reads_its_program_options_and_move_time() {
        let spec = UciSpec::parse("/opt/fs?UCI_LimitStrength=true&UCI_Elo=1500&movetime=250").unwrap();
        assert_eq!(spec.program, "/opt/fs");
        assert_eq!(spec.options, vec![("UCI_LimitStrength".into(), "true".into()), ("UCI_Elo".into(), "1500".into())]);
        assert_eq!(spec.movetime_ms, 250);
        assert_eq!(UciSpec::parse("fs").unwrap().movetime_ms, 100);
        assert_eq!(UciSpec::parse("tabula uci?Level=2").unwrap().args, ["uci"]);
        assert!(UciSpec::parse("fs?Elo").is_err());
        assert!(UciSpec::parse("fs?movetime=soon").is_err());
        assert!(UciSpec::parse("?UCI_Elo=1").is_err());
    }
}
