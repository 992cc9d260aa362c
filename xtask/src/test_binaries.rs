//! Runs the workspace's test binaries as `cargo test --no-fail-fast` would (each from its package's
//! folder, every one even when one fails), but not one after another: the binaries that only
//! compute (perft, the engine matches) run at the lowest CPU priority beside the ones that mostly
//! wait on browsers, servers and timers; the tests that time the CPU (the computer's replies) and
//! Lighthouse, whose performance score reads how fast the CPU is, run last with the machine to
//! themselves.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::{timings::Timings, workspace_root, Tally};

/// Binaries that only use the CPU: they run beside the others, under `nice -n 19`, so what they take
/// is the time the waiting binaries leave (the browser tests' timing bounds see an idle core).
const SIDE_LANE: &[&str] =
    &["core/tests/fairy.rs", "cli/tests/go_gtp.rs", "cli/tests/fairy_stockfish.rs", "cli/tests/levels.rs"];

/// Binaries that run alone once everything else has finished.
const ALONE_LAST: &[&str] = &["cli/tests/lighthouse.rs"];

/// Tests that time what the CPU does (the computer's reply, against a bound measured natively), by
/// binary and name filter: beside the side lane they timed its load (an Edges reply took 2.35 s
/// against a bound of 2.12; the two vCPUs may share one core). They run alone before the binaries
/// above, and the rest of their binary in its lane without them, printing what they timed (the
/// replies, the worker's speed) into their log under `<target>/test-output/` even when they pass,
/// so a slow hour shows there before it fails a bound.
const ALONE_TESTS: &[(&str, &str)] = &[("cli/tests/e2e/main.rs", "computer::")];

/// One run of a test binary: its arguments (test filters), and its name in the logs.
struct Run<'a> {
    binary: &'a TestBinary,
    args: Vec<String>,
    name: String,
}

impl<'a> Run<'a> {
    /// The whole binary, but the tests that run alone.
    fn whole(binary: &'a TestBinary) -> Run<'a> {
        let mut args = Vec::new();
        for (_, filter) in ALONE_TESTS.iter().filter(|(name, _)| *name == binary.name) {
            args.extend(["--skip".to_owned(), (*filter).to_owned()]);
        }
        Run { binary, args, name: binary.name.clone() }
    }
}

/// One test binary `cargo test --all-targets` would run.
pub struct TestBinary {
    /// Its source file from the workspace root (`cli/tests/e2e/main.rs`): its name in the logs.
    name: String,
    executable: PathBuf,
    package_dir: PathBuf,
}

/// What one binary did.
pub struct Outcome {
    name: String,
    took: Duration,
    succeeded: bool,
    output: String,
}

/// The workspace's packages whose tests compile in a path of their checkout (`env!
/// ("CARGO_MANIFEST_DIR")`, to find `../shared` and their data files).
const PACKAGES_WITH_PATHS: &[&str] = &["tabula-core", "tabula-api", "tabula-cli", "tabula-site"];

/// When the shared target directory (`~/.cargo/config.toml`) was last used by another checkout (CI's
/// clone, a worktree), cargo can take that checkout's test binaries as fresh here (its fingerprints
/// compare file times, and this checkout's files are older), and their compiled-in paths point
/// into the other checkout: cleans this workspace's packages then, so they are built from here.
pub fn forget_other_checkouts_binaries() -> Result<()> {
    let marker = crate::site::target_dir().join("xtask-last-checkout");
    let here = workspace_root().display().to_string();
    let last = std::fs::read_to_string(&marker).unwrap_or_default();
    if !last.is_empty() && last != here {
        eprintln!("xtask: the target directory was last used by {last}: cleaning this workspace's packages");
        // The debug profile only: the release builds (the Vercel copy's) and wasm32's are not tests.
        let mut args = vec!["clean", "--profile", "dev"];
        for package in PACKAGES_WITH_PATHS {
            args.extend(["-p", package]);
        }
        crate::run("cargo", &args)?;
    }
    std::fs::create_dir_all(crate::site::target_dir())?;
    std::fs::write(&marker, here).with_context(|| format!("could not write {}", marker.display()))
}

/// Compiles every target of the workspace in test mode (`cargo test --no-run`) and lists the
/// binaries that `cargo test` would then run, in its order.
pub fn build(envs: &[(&str, &std::ffi::OsStr)]) -> Result<Vec<TestBinary>> {
    let args = ["test", "--workspace", "--all-targets", "--no-run", "--message-format=json-render-diagnostics"];
    eprintln!("xtask: cargo {}", args.join(" "));
    let output = Command::new("cargo")
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(workspace_root())
        .stderr(Stdio::inherit())
        .output()
        .context("could not start cargo test --no-run")?;
    if !output.status.success() {
        bail!("compiling the tests failed ({})", output.status);
    }
    let root = workspace_root();
    let mut binaries = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else { continue };
        if message["reason"] != "compiler-artifact" || message["profile"]["test"] != true {
            continue;
        }
        let (Some(executable), Some(manifest), Some(source)) =
            (message["executable"].as_str(), message["manifest_path"].as_str(), message["target"]["src_path"].as_str())
        else {
            continue;
        };
        let package_dir = Path::new(manifest).parent().context("a manifest path has a folder")?.to_path_buf();
        let name = Path::new(source).strip_prefix(&root).unwrap_or(Path::new(source)).display().to_string();
        binaries.push(TestBinary { name, executable: executable.into(), package_dir });
    }
    for named in SIDE_LANE.iter().chain(ALONE_LAST).chain(ALONE_TESTS.iter().map(|(name, _)| name)) {
        if !binaries.iter().any(|binary| binary.name == *named) {
            bail!("xtask's test lanes name {named}, which no test target has: update test_binaries.rs");
        }
    }
    Ok(binaries)
}

/// Where each binary's output is kept (`<target>/test-output/`).
fn logs_dir() -> Result<PathBuf> {
    let logs = crate::site::target_dir().join("test-output");
    std::fs::create_dir_all(&logs).with_context(|| format!("could not create {}", logs.display()))?;
    Ok(logs)
}

/// One whole binary's output printed at a time, whichever lane it ran in.
static PRINTING: Mutex<()> = Mutex::new(());

/// The side lane, running: started as soon as the tests are compiled, so the binaries that only
/// compute take what the builds still running (the site's bundles, the Vercel build) leave of the
/// CPU, at the lowest priority.
pub struct SideLane<'scope> {
    running: std::thread::ScopedJoinHandle<'scope, Result<Vec<Outcome>>>,
    started: Instant,
}

/// Starts the side lane in `scope`. `envs` are what its binaries read at run time (none of them
/// reads the site or the Vercel build).
pub fn start_side_lane<'scope, 'env>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    binaries: &'env [TestBinary],
    envs: &'env [(&'env str, &'env std::ffi::OsStr)],
) -> SideLane<'scope> {
    let started = Instant::now();
    let running = scope.spawn(move || {
        let side: Vec<Run> = binaries.iter().filter(|b| SIDE_LANE.contains(&b.name.as_str())).map(Run::whole).collect();
        run_lane(&side, envs, true, &logs_dir()?)
    });
    SideLane { running, started }
}

/// Runs every other binary: the main lane beside the side lane, then, once both have ended, the
/// ones that run alone. Each binary's output is printed whole when it ends (and kept in
/// `<target>/test-output/`); its summaries go into `tally`, its time into `timings`.
pub fn run_all(
    binaries: &[TestBinary],
    side_lane: SideLane,
    envs: &[(&str, &std::ffi::OsStr)],
    tally: &mut Tally,
    timings: &mut Timings,
) -> Result<()> {
    let logs = logs_dir()?;
    let in_lane = |names: &[&str], binary: &TestBinary| names.contains(&binary.name.as_str());
    let main: Vec<Run> =
        binaries.iter().filter(|b| !in_lane(SIDE_LANE, b) && !in_lane(ALONE_LAST, b)).map(Run::whole).collect();
    let mut alone: Vec<Run> = Vec::new();
    for (name, filter) in ALONE_TESTS {
        let binary = binaries.iter().find(|b| b.name == *name).expect("checked when built");
        let args = vec![(*filter).to_owned(), "--nocapture".to_owned()];
        alone.push(Run { binary, args, name: format!("{name} {filter}") });
    }
    alone.extend(binaries.iter().filter(|b| in_lane(ALONE_LAST, b)).map(Run::whole));

    let started = Instant::now();
    let main_outcomes = run_lane(&main, envs, false, &logs);
    timings.add("test binaries: main lane", started.elapsed());
    let side_outcomes = side_lane.running.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the side lane panicked")));
    timings.add("test binaries: side lane (niced), from the end of the tests' compile", side_lane.started.elapsed());
    let alone_started = Instant::now();
    let alone_outcomes = run_lane(&alone, envs, false, &logs);
    timings.add("test binaries alone (the computer's timed replies, Lighthouse)", alone_started.elapsed());

    for (lane, outcomes) in [("main", main_outcomes?), ("side", side_outcomes?), ("alone", alone_outcomes?)] {
        for outcome in outcomes {
            timings.add(&format!("  {lane}: {}", outcome.name), outcome.took);
            outcome.output.lines().for_each(|line| tally.add_summary(line));
            if !outcome.succeeded {
                tally.failed_runs.push(outcome.name);
            }
        }
    }
    Ok(())
}

/// Runs `binaries` one after another (all of them, whatever fails).
fn run_lane(runs: &[Run], envs: &[(&str, &std::ffi::OsStr)], niced: bool, logs: &Path) -> Result<Vec<Outcome>> {
    let mut outcomes = Vec::new();
    for run in runs {
        let binary = run.binary;
        eprintln!("xtask: started {}", run.name);
        let log = logs.join(run.name.replace(['/', ' ', ':'], "_") + ".log");
        let file = std::fs::File::create(&log).with_context(|| format!("could not create {}", log.display()))?;
        let mut command = if niced {
            let mut nice = Command::new("nice");
            nice.args(["-n", "19"]).arg(&binary.executable).args(&run.args);
            nice
        } else {
            let mut command = Command::new(&binary.executable);
            command.args(&run.args);
            command
        };
        // What cargo test gives a test binary at run time: its package's folder, as the working
        // directory and in CARGO_MANIFEST_DIR.
        command
            .current_dir(&binary.package_dir)
            .env("CARGO_MANIFEST_DIR", &binary.package_dir)
            .envs(envs.iter().copied())
            .stdin(Stdio::null())
            .stdout(file.try_clone()?)
            .stderr(file);
        let started = Instant::now();
        let status = command.status();
        let took = started.elapsed();
        let output = std::fs::read_to_string(&log).unwrap_or_default();
        let succeeded = match &status {
            Ok(status) => status.success(),
            Err(error) => {
                eprintln!("xtask: could not start {}: {error}", binary.executable.display());
                false
            }
        };
        let verdict = if succeeded { "ok" } else { "FAILED" };
        {
            let _whole = PRINTING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            println!("\n     Running {} ({})\n{output}", run.name, binary.executable.display());
            eprintln!("xtask: {} {verdict} in {:.1} min", run.name, took.as_secs_f64() / 60.0);
        }
        outcomes.push(Outcome { name: run.name.clone(), took, succeeded, output });
    }
    Ok(outcomes)
}
