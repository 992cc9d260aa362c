//! `tabula gtp`: the Go engine over GTP v2 on stdin/stdout (plus GNU Go's `is_legal`,
//! `list_stones`, `captures`, `final_score`), so GNU Go's tools can check it.

use std::io::{BufRead, Write};

use anyhow::Result;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tabula_core::ai::{Level, Searcher};
use tabula_core::go::{Go, GoConfig, GoMove, KoRule, Vertex};
use tabula_core::{ConfigError, Game, Seat};

const COMMANDS: [&str; 17] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "quit",
    "is_legal",
    "list_stones",
    "captures",
    "final_score",
];

struct Engine {
    config: GoConfig,
    game: Go,
    /// The game and its history before each move, for `undo`.
    undo: Vec<(Go, Option<Vec<GoMove>>)>,
    /// The moves from the empty board, while every move was played in turn (the computer player
    /// then keeps its tree from move to move); `None` once one was not.
    history: Option<Vec<GoMove>>,
    /// The computer player that answers `genmove`, when a level was asked for.
    searcher: Option<Searcher<Go>>,
}

fn colour(arg: Option<&str>) -> Result<Seat, String> {
    match arg.map(str::to_ascii_lowercase).as_deref() {
        Some("b" | "black") => Ok(Seat::One),
        Some("w" | "white") => Ok(Seat::Two),
        _ => Err("invalid color".into()),
    }
}

fn vertex(arg: Option<&str>) -> Result<Option<Vertex>, String> {
    match arg {
        Some(text) if text.eq_ignore_ascii_case("pass") => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| "invalid vertex".into()),
        None => Err("missing vertex".into()),
    }
}

fn score_text(black: f64, white: f64) -> String {
    match black - white {
        d if d > 0.0 => format!("B+{d:.1}"),
        d if d < 0.0 => format!("W+{:.1}", -d),
        _ => "0".into(),
    }
}

impl Engine {
    fn new(config: GoConfig) -> Engine {
        let game = Go::new(config.clone()).expect("a valid config");
        Engine { config, game, undo: Vec::new(), history: Some(Vec::new()), searcher: None }
    }

    fn reset(&mut self) -> Result<(), String> {
        self.game = Go::new(self.config.clone()).map_err(|e| e.to_string())?;
        self.undo.clear();
        self.history = Some(Vec::new());
        Ok(())
    }

    fn point(&self, at: Vertex) -> Result<usize, String> {
        self.game.point_of(at).ok_or_else(|| "invalid vertex".into())
    }

    /// Plays for `seat` whatever the turn (GTP allows it); refused moves change nothing.
    fn play(&mut self, seat: Seat, at: Option<Vertex>) -> Result<(), String> {
        let mut next = self.game.clone();
        next.set_turn(seat);
        let mv = match at {
            Some(at) => GoMove::Play { at, colour: Some(seat) },
            None => GoMove::Pass { colour: Some(seat) },
        };
        next.play(&mv).map_err(|_| "illegal move".to_string())?;
        let in_turn = self.game.to_move() == seat.number();
        let history = self.history.clone().filter(|_| in_turn).map(|mut moves| {
            moves.push(match at {
                Some(at) => GoMove::Play { at, colour: None },
                None => GoMove::Pass { colour: None },
            });
            moves
        });
        let previous = std::mem::replace(&mut self.game, next);
        self.undo.push((previous, std::mem::replace(&mut self.history, history)));
        Ok(())
    }

    fn showboard(&self) -> String {
        let board = self.game.board();
        let size = board.size();
        let letters: String = "ABCDEFGHJKLMNOPQRST".chars().take(size).map(|c| format!(" {c}")).collect();
        let mut out = format!("\n  {letters}\n");
        for row in 0..size {
            let number = size - row;
            out += &format!("{number:2}");
            for col in 0..size {
                out += match board.colour(board.point(row, col)) {
                    1 => " X",
                    2 => " O",
                    _ => " .",
                };
            }
            out += &format!(" {number}\n");
        }
        out += &format!("  {letters}");
        out
    }

    /// One command's answer, or its error message; `None` for `quit`.
    fn run(&mut self, command: &str, args: &[&str]) -> Option<Result<String, String>> {
        let arg = |i: usize| args.get(i).copied();
        Some(match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("Tabula".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&arg(0).unwrap_or("")).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => return None,
            "boardsize" => match arg(0).and_then(|n| n.parse::<usize>().ok()) {
                Some(size) if (5..=19).contains(&size) => {
                    self.config.size = size;
                    self.reset()
                }
                _ => Err("unacceptable size".into()),
            }
            .map(|_| String::new()),
            "clear_board" => self.reset().map(|_| String::new()),
            "komi" => match arg(0).and_then(|k| k.parse::<f64>().ok()) {
                // The game in progress takes it at once; later games too.
                Some(komi) => self.game.set_komi(komi).map(|()| {
                    self.config.komi = komi;
                    String::new()
                }),
                None => Err(ConfigError("komi not a number".into())),
            }
            .map_err(|e| e.to_string()),
            "play" => (|| {
                let seat = colour(arg(0))?;
                self.play(seat, vertex(arg(1))?)?;
                Ok(String::new())
            })(),
            "genmove" => (|| {
                let seat = colour(arg(0))?;
                let mut game = self.game.clone();
                game.set_turn(seat);
                let mv = match &mut self.searcher {
                    Some(searcher) => {
                        // Its tree is kept only along moves played in turn from the empty board.
                        let history = self.history.as_deref().filter(|_| self.game.to_move() == seat.number());
                        if history.is_none() {
                            searcher.forget();
                        }
                        let choice = searcher.choose(&game, history.unwrap_or_default());
                        choice.map_or(GoMove::Pass { colour: None }, |c| c.mv)
                    }
                    None => {
                        let mut rng = SmallRng::seed_from_u64(game.board().hash() ^ game.moves_played() as u64);
                        game.suggest(&mut rng)
                    }
                };
                let at = match mv {
                    GoMove::Play { at, .. } => Some(at),
                    _ => None,
                };
                self.play(seat, at)?;
                Ok(at.map_or("pass".into(), |v| v.to_string()))
            })(),
            "undo" => match self.undo.pop() {
                Some((previous, history)) => {
                    (self.game, self.history) = (previous, history);
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            "showboard" => Ok(self.showboard()),
            "is_legal" => (|| {
                let seat = colour(arg(0))?;
                let legal = match vertex(arg(1))? {
                    None => true,
                    Some(at) => {
                        let point = self.point(at)?;
                        let mut game = self.game.clone();
                        game.set_turn(seat);
                        game.check_point(point, seat.number()).is_ok()
                    }
                };
                Ok(if legal { "1" } else { "0" }.into())
            })(),
            "list_stones" => colour(arg(0)).map(|seat| {
                let board = self.game.board();
                let stones: Vec<String> = board
                    .points()
                    .filter(|&p| board.colour(p) == seat.number())
                    .map(|p| self.game.vertex_of(p).to_string())
                    .collect();
                stones.join(" ")
            }),
            "captures" => colour(arg(0)).map(|seat| self.game.board().captures(seat.number()).to_string()),
            "final_score" => {
                let (_, score) = self.game.estimate();
                Ok(score_text(score.black, score.white))
            }
            _ => Err("unknown command".into()),
        })
    }
}

pub fn run(ko: KoRule, level: Option<u8>, seed: u64, input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut engine = Engine::new(GoConfig { ko, ..GoConfig::default() });
    engine.searcher = level.map(|level| Searcher::new(Level::of::<Go>(level), seed));
    for line in input.lines() {
        let line = line?;
        let line = line.split('#').next().unwrap_or("").trim().to_owned();
        if line.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let id = words[0].parse::<u64>().ok().map(|id| id.to_string());
        if id.is_some() {
            words.remove(0);
        }
        let Some((&command, args)) = words.split_first() else { continue };
        let id = id.unwrap_or_default();
        let answer = engine.run(command, args);
        let text = match &answer {
            None => format!("={id}\n\n"),
            Some(Ok(body)) if body.is_empty() => format!("={id}\n\n"),
            Some(Ok(body)) => format!("={id} {body}\n\n"),
            Some(Err(message)) => format!("?{id} {message}\n\n"),
        };
        output.write_all(text.as_bytes())?;
        output.flush()?;
        if answer.is_none() {
            break;
        }
    }
    Ok(())
}
