//! The `tabula` command: one binary for the project's tools (replay reference games, benchmark the
//! engines, serve the site and the API on one machine).

mod ai;
mod bench;
mod edges;
mod fairy;
mod go;
mod headers;
mod jsonl;
mod jsonl_engine;
mod popucom;
mod replay;
mod serve;
mod site;
mod triplex;
mod uci_engine;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tabula_core::GameKind;

#[derive(Parser)]
#[command(name = "tabula", version, about = "Tabula: board games on the web, and the tools behind them")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read JSON Lines games ({"moves": [...]} or {"actions": [...]}) on stdin; write each with the `steps`
    /// our engine computes.
    Replay {
        /// The game the lines are for (popucom, edges).
        game: GameKind,
    },
    /// Time uniform random playouts from the start to the end on one thread; `fairy`: the fairy
    /// chess engine's perft from a position instead.
    Bench {
        /// A game (popucom, edges, go, chess), or `fairy`.
        #[arg(value_parser = bench::parse_target)]
        game: bench::Target,
        /// Total time to spend, split evenly over the rounds (playouts).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Seed of the random generator; every round starts from it (playouts).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How many timed rounds; the median is reported last.
        #[arg(long, default_value_t = 5)]
        rounds: u32,
        /// `fairy`: a built-in variant.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// `fairy`: the position (the variant's start when absent).
        #[arg(long)]
        fen: Option<String>,
        /// `fairy`: the perft depth.
        #[arg(long, default_value_t = 5)]
        depth: u32,
    },
    /// A computer player over JSON Lines: each line `{"config", "moves", "seat"?}` on stdin gets
    /// `{"move", "ms", "playouts", ...}` on stdout (`"move": null` when it has nothing to do).
    Ai {
        /// The game (popucom, edges, go).
        game: GameKind,
        /// 1 (weakest) to 5.
        #[arg(long, default_value_t = 3)]
        level: u8,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Review games with the computer: each line `{"config", "moves"}` on stdin gets `{"values",
    /// "marks", "mistakes", "accuracy"}` on stdout (`values[i]`: the first player's chance of
    /// winning after `i` moves; `mistakes`: each side's marked moves, biggest first).
    Review {
        /// The game (popucom, edges, go, chess).
        game: GameKind,
        /// Whose search budget judges each position: 1 (weakest) to 5.
        #[arg(long, default_value_t = 4)]
        level: u8,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Two computer players against each other, alternating colours: one JSON line per game, then
    /// W-L-D from A's side with a 95% interval on its score.
    Arena {
        game: GameKind,
        /// Player A: `level:N` (or `level:N/D`, its budget divided by D), `uct:PLAYOUTS` (plain UCT,
        /// uniform playouts, no RAVE), in the chess variants an outside engine
        /// (`uci:PROGRAM?OPTION=VALUE&...&movetime=MS`), or an outside program speaking `tabula
        /// ai`'s JSON Lines (`jsonl:PROGRAM ARGS`, `{seed}` in them the game's seed).
        #[arg(long)]
        a: ai::Contender,
        /// Player B, likewise.
        #[arg(long)]
        b: ai::Contender,
        #[arg(long, default_value_t = 10)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The game's config as JSON (default: the game's defaults).
        #[arg(long, default_value = "null")]
        config: String,
        /// Moves (actions) after which a game is stopped: Go games can wander (ko fights) and
        /// Edges & Blocks need not end. A stopped Edges & Blocks game is judged by cells.
        #[arg(long, default_value_t = 1_000)]
        limit: usize,
    },
    /// Fairy chess tools.
    Fairy {
        #[command(subcommand)]
        command: FairyCommand,
    },
    /// Speak GTP v2 (Go) on stdin/stdout.
    Gtp {
        /// The ko rule: positional superko or simple ko.
        #[arg(long, value_enum, default_value = "psk")]
        ko: KoArg,
        /// Answer `genmove` with the computer player of this level (1 to 5) instead of the quick
        /// heuristic move.
        #[arg(long)]
        level: Option<u8>,
        /// The computer player's seed: matches run side by side need different ones, or they
        /// play the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Speak UCI for the chess variants on stdin/stdout (`UCI_Variant` names a built-in variant).
    Uci {
        /// The computer player's level (1 to 5) when `go` gives no limit of its own.
        #[arg(long, default_value_t = 5)]
        level: u8,
    },
    /// Triplex puzzles.
    Triplex {
        #[command(subcommand)]
        command: TriplexCommand,
    },
    /// Print a fresh VAPID key pair for Web Push, as the lines `.env` takes (`VAPID_PUBLIC_KEY`,
    /// `VAPID_PRIVATE_KEY`); keep the private one secret.
    VapidKeys,
    /// Serve the API (/api/game) and the built site on one port.
    Serve {
        /// Address to listen on; 0.0.0.0 lets other devices on the network play.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        #[arg(long, default_value_t = 3000)]
        port: u16,
        /// The SQLite file rooms are kept in (created if missing), unless Supabase is configured.
        #[arg(long, default_value = "tabula-rooms.db")]
        data: std::path::PathBuf,
        /// The built site (index.html and its assets).
        #[arg(long, default_value = "site/dist")]
        site: std::path::PathBuf,
    },
}

#[derive(Subcommand)]
enum FairyCommand {
    /// Read JSON Lines positions ({"variant", "fen", "perft": [...]}) on stdin; write each with the
    /// perft counts (as many depths as given) and the sorted legal moves computed here.
    Perft,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum KoArg {
    Psk,
    Simple,
}

#[derive(Subcommand)]
enum TriplexCommand {
    /// Generate every level (unique solution, no straight cut, one per symmetry class) of the sizes
    /// asked for, as JSON lines, easiest first; per-size counts and the time go to stderr.
    Levels {
        #[arg(long, default_value_t = 1)]
        min_area: usize,
        #[arg(long, default_value_t = 36)]
        max_area: usize,
        /// One size only, `WxH` with W >= H (overrides the areas).
        #[arg(long, value_parser = triplex::parse_size)]
        size: Option<tabula_core::triplex::Board>,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Replay { game } => replay::run(game, std::io::stdin().lock(), std::io::stdout().lock()),
        Command::Bench { game: bench::Target::Playouts(game), seconds, seed, rounds, .. } => {
            bench::run(game, seconds, seed, rounds)
        }
        Command::Bench { game: bench::Target::FairyPerft, rounds, variant, fen, depth, .. } => {
            fairy::bench_perft(&variant, fen.as_deref(), depth, rounds)
        }
        Command::Ai { game, level, seed } => {
            ai::serve(game, level, seed, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Review { game, level, seed } => {
            ai::review(game, level, seed, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Arena { game, a, b, games, seed, config, limit } => {
            serde_json::from_str(&config).map_err(anyhow::Error::from).and_then(|config| {
                let matchup = ai::Match { kind: game, config, contenders: [a, b], games, seed, limit };
                ai::arena(&matchup, std::io::stdout().lock()).map(|_| ())
            })
        }
        Command::Fairy { command: FairyCommand::Perft } => {
            fairy::perft(std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Gtp { ko, level, seed } => {
            let rule = match ko {
                KoArg::Psk => tabula_core::go::KoRule::Psk,
                KoArg::Simple => tabula_core::go::KoRule::Simple,
            };
            go::gtp::run(rule, level, seed, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Uci { level } => fairy::uci::run(level, std::io::stdin().lock(), std::io::stdout().lock()),
        Command::Triplex { command: TriplexCommand::Levels { min_area, max_area, size } } => {
            let sizes = match size {
                Some(board) => tabula_core::triplex::Sizes::One(board),
                None => tabula_core::triplex::Sizes::Areas { min: min_area, max: max_area },
            };
            triplex::levels(sizes, std::io::stdout().lock())
        }
        Command::VapidKeys => {
            tabula_api::webpush::VapidKeys::generate().map_err(anyhow::Error::msg).map(|(public, private)| {
                println!("VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}");
            })
        }
        Command::Serve { host, port, data, site } => serve::run(serve::ServeOptions { host, port, data, site }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("tabula: {error:#}");
            ExitCode::FAILURE
        }
    }
}
