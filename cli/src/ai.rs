//! `tabula ai` (a computer player over JSON Lines, for any harness), `tabula review` (games reviewed
//! the same way) and `tabula arena` (two players
//! against each other over many games, alternating colours, with a 95% interval on the score).

use std::io::{BufRead, Write};
use std::str::FromStr;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use tabula_core::ai::{error_reply, AiRequest, AnyPlayer};
use tabula_core::{GameKind, Seat};

use crate::jsonl_engine::JsonLinesEngine;
use crate::uci_engine::{UciEngine, UciSpec};

/// Reads one request per line and writes one answer per line; a bad line gets
/// `{"error": {"code", "message"}}` and the player goes on with the next.
pub fn serve(kind: GameKind, level: u8, seed: u64, input: impl BufRead, output: impl Write) -> Result<()> {
    let mut player = AnyPlayer::new(kind, level, seed)?;
    answer_lines(input, output, |request| {
        let start = Instant::now();
        player.reply(request, || start.elapsed().as_secs_f64() * 1000.0)
    })
}

/// Reviews one game per line (`tabula review`), bad lines answered as [`serve`] answers them.
pub fn review(kind: GameKind, level: u8, seed: u64, input: impl BufRead, output: impl Write) -> Result<()> {
    answer_lines(input, output, |request| {
        tabula_core::ai::review_game(kind, request, level, seed, &mut |_| {})
            .unwrap_or_else(|error| error_reply(error.code(), &error.to_string()))
    })
}

/// One JSON line out for each request line in (blank lines skipped); a line that is no request
/// gets `{"error": {"code": "bad_request", ...}}`.
fn answer_lines(
    input: impl BufRead,
    mut output: impl Write,
    mut answer: impl FnMut(&AiRequest) -> Value,
) -> Result<()> {
    for line in input.lines() {
        let line = line.context("reading a request")?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<AiRequest>(&line) {
            Err(error) => error_reply("bad_request", &error.to_string()),
            Ok(request) => answer(&request),
        };
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// A player of the arena: a level of ours, the plain UCT yardstick with a playout budget, an
/// outside UCI engine (chess variants), or an outside program speaking `tabula ai`'s JSON Lines.
#[derive(Clone, Debug, PartialEq)]
pub enum Contender {
    /// A level, its budget divided by the second number (`level:5/50`; 1 without the slash).
    Level(u8, u32),
    PlainUct(u32),
    Uci(UciSpec),
    /// The program and its arguments.
    JsonLines(Vec<String>),
}

impl FromStr for Contender {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        const EXPECTED: &str = "level:N, uct:PLAYOUTS, uci:PROGRAM or jsonl:PROGRAM";
        let (kind, number) = text.split_once(':').ok_or(format!("expected {EXPECTED}"))?;
        match kind {
            "level" => {
                let (level, divisor) = number.split_once('/').unwrap_or((number, "1"));
                match (level.parse(), divisor.parse()) {
                    (Ok(level), Ok(divisor)) if divisor > 0 => Ok(Contender::Level(level, divisor)),
                    _ => Err(format!("not a level: {number} (expected N or N/DIVISOR)")),
                }
            }
            "uct" => number.parse().map(Contender::PlainUct).map_err(|_| format!("not a playout count: {number}")),
            "uci" => UciSpec::parse(number).map(Contender::Uci),
            "jsonl" => match number.split_whitespace().map(str::to_owned).collect::<Vec<_>>() {
                command if command.is_empty() => Err("jsonl: needs the player's program".into()),
                command => Ok(Contender::JsonLines(command)),
            },
            _ => Err(format!("unknown player kind {kind:?}: expected {EXPECTED}")),
        }
    }
}

/// As it is written on the command line (`level:5/50`, `uct:200000`, `uci:PROGRAM`, `jsonl:PROGRAM`).
impl std::fmt::Display for Contender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contender::Level(level, 1) => write!(f, "level:{level}"),
            Contender::Level(level, divisor) => write!(f, "level:{level}/{divisor}"),
            Contender::PlainUct(playouts) => write!(f, "uct:{playouts}"),
            Contender::Uci(spec) => {
                write!(
                    f,
                    "uci:{}",
                    std::iter::once(&spec.program).chain(&spec.args).cloned().collect::<Vec<_>>().join(" ")
                )
            }
            Contender::JsonLines(command) => write!(f, "jsonl:{}", command.join(" ")),
        }
    }
}

impl Contender {
    fn player(&self, kind: GameKind, config: &Value, seed: u64) -> Result<ArenaPlayer> {
        Ok(match self {
            Contender::Level(level, divisor) => {
                ArenaPlayer::Ours(Box::new(AnyPlayer::scaled(kind, *level, *divisor, seed)?))
            }
            Contender::PlainUct(playouts) => ArenaPlayer::Ours(Box::new(AnyPlayer::plain_uct(kind, *playouts, seed)?)),
            Contender::Uci(spec) if kind == GameKind::Chess => ArenaPlayer::Uci(UciEngine::start(spec, config)?),
            Contender::Uci(_) => bail!("a UCI engine plays only the chess variants"),
            Contender::JsonLines(command) => ArenaPlayer::JsonLines(JsonLinesEngine::start(command, seed)?),
        })
    }
}

/// A contender during one game.
enum ArenaPlayer {
    /// Boxed: a player holds its search tree's arrays, many times a UCI engine's handle.
    Ours(Box<AnyPlayer>),
    Uci(UciEngine),
    JsonLines(JsonLinesEngine),
}

impl ArenaPlayer {
    /// The move for `seat` after `moves`, or `None` if this player has none to make.
    fn choose(&mut self, config: &Value, moves: &[Value], seat: Seat) -> Result<Option<Value>> {
        match self {
            ArenaPlayer::Ours(player) => Ok(player.choose(config, moves, Some(seat))?.map(|choice| choice.mv)),
            ArenaPlayer::Uci(engine) => engine.choose(moves),
            ArenaPlayer::JsonLines(engine) => engine.choose(config, moves, seat),
        }
    }
}

/// The arena's tally from A's side.
#[derive(Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Games stopped at the move limit: judged by count where the game has one (Edges & Blocks'
    /// cells), else counted as draws.
    pub unfinished: u32,
}

impl Tally {
    fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// A's mean score (win 1, draw 1/2) and the half-width of its 95% interval (normal
    /// approximation over the games' scores).
    pub fn score(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let mean = (self.wins as f64 + self.draws as f64 / 2.0) / n;
        let squares = self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2);
        (mean, 1.96 * (squares / n / n).sqrt())
    }
}

/// What `tabula arena` plays: `games` games of A against B at `seed`, each stopped after `limit`
/// moves if it has not ended.
pub struct Match {
    pub kind: GameKind,
    pub config: Value,
    pub contenders: [Contender; 2],
    pub games: u32,
    pub seed: u64,
    pub limit: usize,
}

/// Plays the match (A has seat one in even games), each move checked by the engine; writes one
/// line per game and the tally.
pub fn arena(matchup: &Match, mut output: impl Write) -> Result<Tally> {
    let Match { kind, ref config, ref contenders, games, seed, limit } = *matchup;
    let mut tally = Tally::default();
    for index in 0..games {
        let a_seat = if index % 2 == 0 { Seat::One } else { Seat::Two };
        let base = seed.wrapping_mul(1_000_003).wrapping_add(index as u64 * 2);
        let mut a = contenders[0].player(kind, config, base)?;
        let mut b = contenders[1].player(kind, config, base + 1)?;
        let mut game = kind.new_game(config)?;
        let mut moves: Vec<Value> = Vec::new();
        let start = Instant::now();
        while moves.len() < limit {
            let Some(to_move) = game.status().to_move() else { break };
            let player = if to_move == a_seat { &mut a } else { &mut b };
            // In Go's scoring phase the side "to move" may have accepted: let the other answer.
            let mv = match player.choose(config, &moves, to_move)? {
                Some(mv) => mv,
                None => {
                    let other = if to_move == a_seat { &mut b } else { &mut a };
                    match other.choose(config, &moves, to_move.other())? {
                        Some(mv) => mv,
                        None => bail!("game {index}: neither player has a move at move {}", moves.len()),
                    }
                }
            };
            game.play(&mv).with_context(|| format!("game {index}: move {} {mv}", moves.len()))?;
            moves.push(mv);
        }
        let result = game.status().outcome().cloned();
        // A stopped game goes to the leader where the game counts one (Edges & Blocks' cells).
        let judged = if result.is_none() { game.leader_by_count() } else { None };
        let winner = result.as_ref().map(|o| o.winner).or(judged);
        let a_score = match winner {
            Some(Some(winner)) if winner == a_seat => {
                tally.wins += 1;
                1.0
            }
            Some(Some(_)) => {
                tally.losses += 1;
                0.0
            }
            _ => {
                tally.draws += 1;
                0.5
            }
        };
        tally.unfinished += u32::from(result.is_none());
        let line = json!({
            "game": index,
            "a_seat": a_seat.number(),
            "moves": moves.len(),
            "reason": match (&result, judged) {
                (Some(outcome), _) => outcome.reason,
                (None, Some(_)) => "move_limit_judged_by_count",
                (None, None) => "move_limit",
            },
            "a_score": a_score,
            "seconds": start.elapsed().as_secs_f64(),
        });
        writeln!(output, "{line}")?;
        output.flush()?;
    }
    let (mean, interval) = tally.score();
    writeln!(
        output,
        "A {} vs B {}: {}-{}-{} (W-L-D, {} unfinished), A scores {:.3} ± {:.3} (95%)",
        contenders[0], contenders[1], tally.wins, tally.losses, tally.draws, tally.unfinished, mean, interval
    )?;
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_narrows_with_more_games_and_is_zero_for_a_sweep() {
        let few = Tally { wins: 7, losses: 3, draws: 0, unfinished: 0 };
        let many = Tally { wins: 70, losses: 30, draws: 0, unfinished: 0 };
        assert_eq!(few.score().0, 0.7);
        // Bernoulli with p = 0.7: 1.96 * sqrt(0.21 / n).
        assert!((few.score().1 - 1.96 * (0.21f64 / 10.0).sqrt()).abs() < 1e-12);
        assert!((many.score().1 - 1.96 * (0.21f64 / 100.0).sqrt()).abs() < 1e-12);
        assert_eq!(Tally { wins: 5, ..Tally::default() }.score(), (1.0, 0.0));
    }

    #[test]
    fn contenders_read_from_their_names() {
        assert_eq!("level:3".parse(), Ok(Contender::Level(3, 1)));
        assert_eq!("level:5/50".parse(), Ok(Contender::Level(5, 50)));
        assert!("level:5/0".parse::<Contender>().is_err());
        assert_eq!("uct:200000".parse(), Ok(Contender::PlainUct(200_000)));
        assert!(matches!("uci:/opt/fs?UCI_Elo=1500".parse(), Ok(Contender::Uci(spec)) if spec.program == "/opt/fs"));
        assert_eq!(
            "jsonl:./player --seed {seed}".parse(),
            Ok(Contender::JsonLines(vec!["./player".into(), "--seed".into(), "{seed}".into()]))
        );
        assert!("jsonl: ".parse::<Contender>().is_err());
        assert!("gnugo:10".parse::<Contender>().is_err());
        assert!("level:x".parse::<Contender>().is_err());
    }
}
