//! `cargo xtask popucom-reference [--seconds S] [--rounds N]`: POPUCOM playouts a second, ours
//! (`tabula bench popucom`, the release build) beside the public C++ engine's (`c/game.cpp` of
//! liemark/popucom_chess_c-python at `COMMIT`, under our driver `popucom_reference/driver.cpp`,
//! built both `-O2` and `-O3 -march=native`), taken in turns on this machine, and the ratio to the
//! faster C++ build (docs/PERFORMANCE.md). With `--uct-player` it builds instead a plain UCT over
//! the C++ engine speaking `tabula ai`'s JSON Lines (`popucom_reference/uct_player.cpp`) and prints
//! its path, for `tabula arena popucom --b 'jsonl:PATH PLAYOUTS {seed}'` (docs/AI.md). The C++ is
//! cloned from `POPUCOM_CPP_REPO` (default its GitHub address; a local mirror works); only its `c/`
//! folder is checked out. For measuring only: nothing in the test command needs it.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::{run, site::target_dir};

const REPOSITORY: &str = "https://github.com/liemark/popucom_chess_c-python";
const COMMIT: &str = "fea4db4";
const DRIVER: &str = include_str!("popucom_reference/driver.cpp");
const UCT_PLAYER: &str = include_str!("popucom_reference/uct_player.cpp");
const XORSHIFT: &str = include_str!("popucom_reference/xorshift.h");

/// The builds compared, by name, and the C++ compiler's flags for each (ours has none).
const CPP_BUILDS: [(&str, &[&str]); 2] = [("C++ -O2", &["-O2"]), ("C++ -O3 -march=native", &["-O3", "-march=native"])];

pub fn popucom_reference(args: &[String]) -> Result<()> {
    let mut seconds = 5.0;
    let mut rounds = 3;
    let mut uct_player = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--uct-player" {
            uct_player = true;
            continue;
        }
        let value = args.next().with_context(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--seconds" => seconds = value.parse().context("--seconds")?,
            "--rounds" => rounds = value.parse().context("--rounds")?,
            _ => bail!("usage: cargo xtask popucom-reference [--seconds S] [--rounds N] [--uct-player]"),
        }
    }
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let dir = target_dir().join("popucom-reference");
    let source = dir.join("src");
    if !source.join(".git").exists() {
        let repository = std::env::var("POPUCOM_CPP_REPO").unwrap_or_else(|_| REPOSITORY.to_owned());
        let _ = std::fs::remove_dir_all(&source);
        std::fs::create_dir_all(&dir)?;
        run("git", &["clone", "--quiet", "--no-checkout", &repository, &source.to_string_lossy()])?;
    }
    // Every time, so that a clone made for another commit measures this one.
    run("git", &["-C", &source.to_string_lossy(), "checkout", "--quiet", COMMIT, "--", "c"])?;
    std::fs::write(dir.join("xorshift.h"), XORSHIFT)?;
    if uct_player {
        std::fs::write(dir.join("uct_player.cpp"), UCT_PLAYER)?;
        let binary = dir.join("uct-player");
        compile(&source, &dir.join("uct_player.cpp"), &["-O3", "-march=native"], &binary)?;
        println!("{}", binary.display());
        return Ok(());
    }
    std::fs::write(dir.join("driver.cpp"), DRIVER)?;
    let mut programs: Vec<(String, Vec<String>)> = Vec::new();
    for (index, (name, flags)) in CPP_BUILDS.iter().enumerate() {
        let binary = dir.join(format!("driver-{index}"));
        compile(&source, &dir.join("driver.cpp"), flags, &binary)?;
        programs.push((name.to_string(), vec![binary.to_string_lossy().into_owned(), seconds.to_string()]));
    }
    run("cargo", &["build", "--release", "--bin", "tabula"])?;
    let tabula = target_dir().join("release/tabula").to_string_lossy().into_owned();
    let ours = vec![tabula, "bench".into(), "popucom".into(), "--seconds".into(), seconds.to_string()];
    programs.push(("Tabula (release, x86-64-v2)".into(), ours));

    // In turns, so that a slow moment of the machine falls on every program alike.
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); programs.len()];
    for round in 1..=rounds {
        for ((name, command), rates) in programs.iter().zip(&mut rates) {
            let rate = playouts_per_second(command)?;
            eprintln!("xtask: round {round}: {name}: {rate:.0} playouts a second");
            rates.push(rate);
        }
    }
    println!("\nCPU: {}; {rounds} rounds of {seconds} s each, in turns\n", cpu_model());
    println!("| program | playouts a second (lowest to highest) |\n| --- | --- |");
    for ((name, _), rates) in programs.iter().zip(&rates) {
        println!("| {name} | {} |", range(rates));
    }
    let median = |rates: &[f64]| {
        let mut sorted = rates.to_vec();
        sorted.sort_by(f64::total_cmp);
        sorted[sorted.len() / 2]
    };
    let faster_cpp = rates[..CPP_BUILDS.len()].iter().map(|r| median(r)).fold(0.0, f64::max);
    let ours = median(&rates[CPP_BUILDS.len()]);
    println!("\nOurs over the faster C++ build (medians): {:.2}x", ours / faster_cpp);
    Ok(())
}

/// Compiles `main` with the C++ engine in `source` into `binary`.
fn compile(source: &Path, main: &Path, flags: &[&str], binary: &Path) -> Result<()> {
    let mut arguments = vec!["-std=c++17", "-w"];
    arguments.extend(flags);
    let include = format!("-I{}", source.join("c").display());
    // xorshift.h sits beside `main`, where `#include "..."` looks first.
    let game = source.join("c/game.cpp");
    let (main, game, output) = (main.to_string_lossy(), game.to_string_lossy(), binary.to_string_lossy());
    arguments.extend([include.as_str(), &main, &game, "-o", &output]);
    run("g++", &arguments)
}

/// Runs `command` and reads the `playouts_per_sec=` line both programs end with.
fn playouts_per_second(command: &[String]) -> Result<f64> {
    let output = Command::new(&command[0]).args(&command[1..]).output().with_context(|| command[0].clone())?;
    if !output.status.success() {
        bail!("{} failed: {}", command.join(" "), String::from_utf8_lossy(&output.stderr));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let rate = text.lines().rev().find_map(|line| line.strip_prefix("playouts_per_sec="));
    rate.with_context(|| format!("{} printed no playouts_per_sec", command.join(" ")))?.trim().parse().context("rate")
}

fn range(rates: &[f64]) -> String {
    let low = rates.iter().copied().fold(f64::INFINITY, f64::min);
    let high = rates.iter().copied().fold(0.0, f64::max);
    format!("{low:.0} to {high:.0}")
}

fn cpu_model() -> String {
    let info = std::fs::read_to_string(Path::new("/proc/cpuinfo")).unwrap_or_default();
    let line = info.lines().find(|l| l.starts_with("model name")).unwrap_or("");
    line.split(':').nth(1).unwrap_or("unknown").trim().to_owned()
}
