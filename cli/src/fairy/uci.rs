//! `tabula uci`: the chess variants' computer player over UCI on stdin/stdout, so chess GUIs and
//! match tools can use it. `UCI_Variant` names one of our built-in variants (or Fairy-Stockfish's
//! name for it), `UCI_Chess960` plays the position as Chess960; `position startpos|fen ... moves
//! ...`; `go movetime|nodes|depth|wtime/btime/winc/binc|infinite`. The search runs on the reading
//! thread: `stop` is read after it answers (a `go infinite` searches the top level's nodes).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use tabula_core::ai::{ChessLevel, ChessSearcher, Limits};
use tabula_core::fairy::{Chess, ChessConfig, UciMove, Variant};
use tabula_core::{Game, Seat};

/// The engine's state between commands.
struct Session {
    variant: String,
    chess960: bool,
    level: u8,
    game: Option<Chess>,
    searcher: ChessSearcher,
}

impl Session {
    fn new(level: u8) -> Session {
        Session {
            variant: "chess".into(),
            chess960: false,
            level,
            game: None,
            searcher: ChessSearcher::new(ChessLevel::of(level), 1),
        }
    }

    /// `position startpos|fen <fen> [moves ...]`: the game, or why it cannot be set up.
    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|a| *a == "moves").unwrap_or(args.len());
        let fen = match args.first() {
            Some(&"startpos") => None,
            Some(&"fen") => Some(args[1..moves_at].join(" ")),
            _ => return Err("position: startpos or fen expected".into()),
        };
        let config =
            ChessConfig { variant: self.variant.clone(), fen, chess960: self.chess960, ..ChessConfig::default() };
        let mut game = Chess::new(config).map_err(|e| format!("position: {e}"))?;
        for mv in args.iter().skip(moves_at + 1) {
            game.play(&UciMove(mv.to_ascii_lowercase())).map_err(|e| format!("position: move {mv}: {e}"))?;
        }
        self.game = Some(game);
        Ok(())
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        let value_at = args.iter().position(|a| *a == "value").unwrap_or(args.len());
        let name = args.get(1..value_at).unwrap_or_default().join(" ");
        let value = args.get(value_at + 1..).unwrap_or_default().join(" ");
        match name.as_str() {
            "UCI_Variant" => {
                let variant = Variant::named(&value).ok_or_else(|| format!("no variant {value:?}"))?;
                self.variant = variant.name.clone();
            }
            "UCI_Chess960" => self.chess960 = value == "true",
            "Level" => {
                self.level = value.parse::<u8>().map_err(|_| format!("Level: {value:?}"))?.clamp(1, 5);
                self.searcher = ChessSearcher::new(ChessLevel::of(self.level), 1);
            }
            _ => return Err(format!("no option {name:?}")),
        }
        Ok(())
    }

    /// `go ...`: searches and returns the `info` and `bestmove` lines.
    fn go(&mut self, args: &[&str]) -> Vec<String> {
        let number = |key: &str| {
            args.iter().position(|a| *a == key).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<u64>().ok())
        };
        let game = match &self.game {
            Some(game) => game.clone(),
            None => Chess::new(ChessConfig {
                variant: self.variant.clone(),
                chess960: self.chess960,
                ..ChessConfig::default()
            })
            .expect("a built-in variant starts"),
        };
        let level = ChessLevel::of(self.level);
        let white = game.status().to_move() != Some(Seat::Two);
        let clock = if white { (number("wtime"), number("winc")) } else { (number("btime"), number("binc")) };
        // A clock game spends a thirtieth of what is left, plus half the increment.
        let time = number("movetime").or(clock.0.map(|left| left / 30 + clock.1.unwrap_or(0) / 2));
        let deadline = time.map(|ms| Instant::now() + Duration::from_millis(ms));
        let stop = move || deadline.is_some_and(|d| Instant::now() >= d);
        let timed = deadline.is_some();
        let limits = Limits {
            depth: number("depth").map_or(if timed { 64 } else { level.depth }, |d| d.clamp(1, 64) as u8),
            nodes: number("nodes").unwrap_or(if timed || number("depth").is_some() { u64::MAX } else { level.nodes }),
            stop: timed.then_some(&stop as &dyn Fn() -> bool),
        };
        let start = Instant::now();
        let Some(search) = self.searcher.search(&game, &limits) else {
            return vec!["bestmove (none)".into()];
        };
        let ms = start.elapsed().as_millis().max(1) as u64;
        let nodes = u64::from(search.choice.stats.nodes);
        let score = if search.score.abs() >= 999_000 {
            let plies = 1_000_000 - search.score.abs();
            format!("mate {}", search.score.signum() * (plies + 1) / 2)
        } else {
            format!("cp {}", search.score)
        };
        vec![
            format!("info depth {} score {score} nodes {nodes} time {ms} nps {}", search.depth, nodes * 1000 / ms),
            format!("bestmove {}", search.choice.mv.0),
        ]
    }
}

/// Reads UCI commands until `quit` or the end of input.
pub fn run(level: u8, input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut session = Session::new(level);
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else { continue };
        let mut replies = Vec::new();
        match command {
            "uci" => {
                replies.push("id name Tabula".to_owned());
                replies.push("id author the Tabula team".to_owned());
                let names: Vec<&str> = Variant::builtin().keys().map(String::as_str).collect();
                let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
                replies.push(format!("option name UCI_Variant type combo default chess{vars}"));
                replies.push("option name UCI_Chess960 type check default false".to_owned());
                replies.push(format!("option name Level type spin default {} min 1 max 5", session.level));
                replies.push("uciok".to_owned());
            }
            "isready" => replies.push("readyok".to_owned()),
            "ucinewgame" => session.game = None,
            "setoption" => {
                if let Err(error) = session.set_option(args) {
                    replies.push(format!("info string {error}"));
                }
            }
            "position" => {
                if let Err(error) = session.position(args) {
                    replies.push(format!("info string {error}"));
                }
            }
            "go" => replies.extend(session.go(args)),
            "stop" | "ponderhit" => {}
            "quit" => break,
            other => replies.push(format!("info string unknown command {other}")),
        }
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
    }
    Ok(())
}
