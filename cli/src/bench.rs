//! `tabula bench <game>`: uniform random legal playouts from the start to the end, one thread,
//! seeded, timed over several rounds; the last line is `playouts_per_sec=<median>`.

use std::time::{Duration, Instant};

use anyhow::{ensure, Result};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::edges::{Edges, EdgesConfig};
use tabula_core::fairy::{Chess, ChessConfig};
use tabula_core::go::{Go, GoConfig};
use tabula_core::popucom::Popucom;
use tabula_core::{Game, GameKind, Seat, Status};

/// Wins per seat and draws, so the playouts' results are used (and shown as a sanity check).
#[derive(Default)]
struct Tally {
    playouts: u64,
    wins: [u64; 2],
    /// Playouts cut off before the game ended.
    unfinished: u64,
    /// Moves played in all playouts (counted where the playout reports them).
    moves: u64,
}

impl Tally {
    fn record(&mut self, status: Status) {
        self.playouts += 1;
        match status.outcome() {
            None => self.unfinished += 1,
            Some(outcome) => {
                if let Some(winner) = outcome.winner {
                    self.wins[winner.index()] += 1;
                }
            }
        }
    }
}

fn popucom_playout(rng: &mut SmallRng, tally: &mut Tally) {
    let mut game = Popucom::default();
    while let Some(cell) = game.random_move(rng) {
        game.play_unchecked(&cell);
    }
    tally.record(game.status());
}

/// Uniform random legal moves through the common interface, to the end or `limit` moves.
fn legal_playout<G: Game>(mut game: G, limit: u32, rng: &mut SmallRng, tally: &mut Tally) {
    for _ in 0..limit {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play_unchecked(&legal[rng.random_range(0..legal.len())]);
        tally.moves += 1;
    }
    tally.record(game.status());
}

/// Edges & Blocks games need not end: like the reference vectors, a playout stops after 200 actions.
fn edges_playout(rng: &mut SmallRng, tally: &mut Tally) {
    legal_playout(Edges::new(EdgesConfig::default()).expect("the default config is valid"), 200, rng, tally);
}

/// Light Go playouts on an empty 9x9: random legal points that fill no own eye, simple ko, to two
/// passes; scored by area (Tromp-Taylor) with the default komi.
fn go_playout(rng: &mut SmallRng, tally: &mut Tally) {
    let game = Go::new(GoConfig::default()).expect("the default config is valid");
    let (board, moves) = game.playout(rng);
    tally.moves += moves as u64;
    tally.playouts += 1;
    let score = tabula_core::go::tromp_taylor(&board, game.config().komi);
    tally.wins[if score.black > score.white { 0 } else { 1 }] += 1;
}

/// Random legal moves of orthodox chess to the end (or 300 plies).
fn chess_playout(rng: &mut SmallRng, tally: &mut Tally) {
    legal_playout(Chess::new(ChessConfig::default()).expect("chess is built in"), 300, rng, tally);
}

pub fn run(kind: GameKind, seconds: f64, seed: u64, rounds: u32) -> Result<()> {
    ensure!(seconds > 0.0 && seconds.is_finite(), "--seconds must be a positive number");
    ensure!(rounds > 0, "--rounds must be at least 1");
    let playout = match kind {
        GameKind::Popucom => popucom_playout,
        GameKind::Edges => edges_playout,
        GameKind::Go => go_playout,
        GameKind::Chess => chess_playout,
    };
    let round_time = Duration::from_secs_f64(seconds / rounds as f64);
    let mut rates = Vec::new();
    let mut move_rates = Vec::new();
    for round in 1..=rounds {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut tally = Tally::default();
        let start = Instant::now();
        // Read the clock only every 64 playouts: it costs about as much as a move.
        while start.elapsed() < round_time {
            for _ in 0..64 {
                playout(&mut rng, &mut tally);
            }
        }
        let rate = tally.playouts as f64 / start.elapsed().as_secs_f64();
        let share = |n: u64| 100.0 * n as f64 / tally.playouts as f64;
        let draws = tally.playouts - tally.wins.iter().sum::<u64>() - tally.unfinished;
        println!(
            "round {round}: {} playouts, {rate:.0}/s (seat 1 wins {:.1}%, seat 2 {:.1}%, draws {:.1}%, cut off {:.1}%)",
            tally.playouts,
            share(tally.wins[Seat::One.index()]),
            share(tally.wins[Seat::Two.index()]),
            share(draws),
            share(tally.unfinished),
        );
        rates.push(rate);
        move_rates.push(tally.moves as f64 / start.elapsed().as_secs_f64());
    }
    if kind == GameKind::Go {
        move_rates.sort_by(f64::total_cmp);
        println!("moves_per_sec={:.0}", move_rates[move_rates.len() / 2]);
    }
    rates.sort_by(f64::total_cmp);
    println!("playouts_per_sec={:.0}", rates[rates.len() / 2]);
    Ok(())
}
