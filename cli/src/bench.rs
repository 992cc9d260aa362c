//! `tabula bench <game>`: uniform random legal playouts from the start to the end, one thread,
//! seeded, timed over several rounds; the last line is `playouts_per_sec=<median>`. (`tabula bench
//! fairy`, perft's nodes a second: `fairy/mod.rs`.)

use std::time::{Duration, Instant};

use anyhow::{ensure, Result};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{Game, GameKind, Seat, Status};

/// What `tabula bench` times: a game's playouts, or (`fairy`) the fairy engine's perft.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    Playouts(GameKind),
    FairyPerft,
}

pub fn parse_target(name: &str) -> Result<Target, String> {
    match name {
        "fairy" => Ok(Target::FairyPerft),
        _ => name.parse().map(Target::Playouts).map_err(|e: tabula_core::UnknownGame| e.to_string()),
    }
}

/// The median of timed rounds' rates.
pub fn median(mut rates: Vec<f64>) -> f64 {
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

/// Wins per seat and draws, so the playouts' results are used (and shown as a sanity check).
#[derive(Default)]
pub struct Tally {
    pub playouts: u64,
    pub wins: [u64; 2],
    /// Playouts cut off before the game ended.
    pub unfinished: u64,
    /// Moves played in all playouts (counted where the playout reports them).
    pub moves: u64,
}

impl Tally {
    pub fn record(&mut self, status: Status) {
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

/// Uniform random legal moves through the common interface, to the end or `limit` moves.
pub fn legal_playout<G: Game>(mut game: G, limit: u32, rng: &mut SmallRng, tally: &mut Tally) {
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

pub fn run(kind: GameKind, seconds: f64, seed: u64, rounds: u32) -> Result<()> {
    ensure!(seconds > 0.0 && seconds.is_finite(), "--seconds must be a positive number");
    ensure!(rounds > 0, "--rounds must be at least 1");
    // Each game's playout is in its own module.
    let playout: fn(&mut SmallRng, &mut Tally) = match kind {
        GameKind::Popucom => crate::popucom::bench_playout,
        GameKind::Edges => crate::edges::bench_playout,
        GameKind::Go => crate::go::bench_playout,
        GameKind::Chess => crate::fairy::bench_playout,
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
        println!("moves_per_sec={:.0}", median(move_rates));
    }
    println!("playouts_per_sec={:.0}", median(rates));
    Ok(())
}
