//! The project's dev tasks, so every machine (a developer's, CI's) runs the same steps:
//! `cargo xtask test` installs what the tests need and runs every test the project has;
//! `cargo xtask run` builds and serves Tabula on this machine; `cargo xtask soak` is the long run of
//! the load tests (docs/RELIABILITY.md); `cargo xtask capacity` counts what a game-hour costs the
//! deployed form (docs/CAPACITY.md); `cargo xtask ai-matches` plays the strength table's matches
//! (docs/AI.md); `cargo xtask popucom-reference` measures POPUCOM playouts beside the public C++
//! engine (docs/PERFORMANCE.md).

mod ai_matches;
mod bundle_cache;
mod float_formatting;
mod popucom_reference;
mod services;
mod site;
mod test_binaries;
mod timings;
mod vercel;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

const USAGE: &str =
    "usage: cargo xtask test | cargo xtask run [tabula serve options] | cargo xtask build-site | cargo xtask soak | cargo xtask capacity | cargo xtask load | cargo xtask ai-matches [--list | NAME ...] | cargo xtask popucom-reference [--seconds S] [--rounds N] [--uct-player] | cargo xtask vercel-build";

fn main() -> Result<()> {
    workspace_root();
    forget_cargo_run_variables();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("run") => run_locally(&args[1..]),
        Some("build-site") => site::build_site(),
        Some("soak") => soak(),
        Some("capacity") => capacity(),
        Some("ai-matches") => ai_matches::ai_matches(&args[1..]),
        Some("load") => load(),
        Some("popucom-reference") => popucom_reference::popucom_reference(&args[1..]),
        Some("vercel-build") => vercel::vercel_build(&services::vercel_cli()?).map(|_| ()),
        _ => bail!("{USAGE}"),
    }
}

/// Builds the site and Tabula, then serves both on one port (`tabula serve`).
fn run_locally(serve_args: &[String]) -> Result<()> {
    site::build_site()?;
    let mut args = vec!["run", "--release", "--bin", "tabula", "--", "serve"];
    args.extend(serve_args.iter().map(String::as_str));
    run("cargo", &args)
}

/// The soak of `cli/tests/load.rs` at full length, release build: 200 games for 10 minutes on each
/// store (`TABULA_SOAK_GAMES` and `TABULA_SOAK_SECONDS` change them). The test suite runs it short.
fn soak() -> Result<()> {
    let services = services::ensure_test_services()?;
    let setting = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_owned());
    let (games, seconds) = (setting("TABULA_SOAK_GAMES", "200"), setting("TABULA_SOAK_SECONDS", "600"));
    let envs = [
        ("TABULA_POSTGREST", services.postgrest.as_os_str()),
        ("TABULA_SOAK_GAMES", games.as_ref()),
        ("TABULA_SOAK_SECONDS", seconds.as_ref()),
    ];
    let args = ["--release", "-p", "tabula-cli", "--test", "load", "soak", "--", "--nocapture", "--test-threads", "1"];
    let mut tally = Tally::default();
    cargo_test(&args, &envs, &mut tally, &mut timings::Timings::new())?;
    println!("{}", tally.closing_line());
    if !tally.failed_runs.is_empty() {
        bail!("the soak failed");
    }
    Ok(())
}

/// The capacity bench (`cli/benches/capacity`), release build: what a game-hour costs each
/// quota, and game-hours a month per plan (docs/CAPACITY.md). `CAPACITY_GAMES`, `CAPACITY_SECONDS`,
/// `CAPACITY_MOVE_SECONDS` and `CAPACITY_PUSH=off` change the run. The test suite runs it short.
fn capacity() -> Result<()> {
    bench_with_services("tabula-cli", "capacity")
}

/// The API's load bench (`api/_benches/load.rs`), release build, against its own PostgreSQL and
/// PostgREST: latencies through the API and on bare PostgREST, failing if a move's p50 passes 1.5
/// times the bare PATCH's (docs/PERFORMANCE.md). `LOAD_GAMES` and `LOAD_SECONDS` change the run.
fn load() -> Result<()> {
    bench_with_services("tabula-api", "load")
}

/// `cargo bench -p PACKAGE --bench BENCH` with the test services installed (PostgREST's path).
fn bench_with_services(package: &str, bench: &str) -> Result<()> {
    let services = services::ensure_test_services()?;
    let status = Command::new("cargo")
        .args(["bench", "-p", package, "--bench", bench])
        .env("TABULA_POSTGREST", &services.postgrest)
        .current_dir(workspace_root())
        .status()
        .context("could not start cargo")?;
    if !status.success() {
        bail!("the {bench} bench failed ({status})");
    }
    Ok(())
}

/// Runs a command from the workspace root, echoing it; fails if it fails.
pub(crate) fn run(program: &str, args: &[&str]) -> Result<()> {
    eprintln!("xtask: {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(workspace_root())
        .status()
        .with_context(|| format!("could not start {program}"))?;
    if !status.success() {
        bail!("{program} {} failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Totals of every `cargo test` run, so the task ends with one line that covers all of them.
#[derive(Default)]
struct Tally {
    passed: u64,
    failed: u64,
    /// `cargo test` runs that failed (a test, or the build).
    failed_runs: Vec<String>,
}

impl Tally {
    /// Reads a libtest summary: `test result: ok. 12 passed; 0 failed; 0 ignored; ...`.
    fn add_summary(&mut self, line: &str) {
        let Some(rest) = line.strip_prefix("test result: ") else { return };
        let count = |word: &str| {
            rest.split(';')
                .find_map(|part| part.trim().trim_start_matches(|c: char| !c.is_ascii_digit()).strip_suffix(word))
                .and_then(|n| n.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        self.passed += count("passed");
        self.failed += count("failed");
    }

    /// The closing line: every test counted, a failed run that reported no failed test (a build
    /// error, a crash) counted as one.
    fn closing_line(&self) -> String {
        let failed = if self.failed_runs.is_empty() { self.failed } else { self.failed.max(1) };
        format!("tests: {} passed, {} failed", self.passed, failed)
    }
}

/// Runs `cargo test ...` with `--no-fail-fast` (every test binary runs even when one fails),
/// passing its output through, adding its summaries to `tally` and the time of each test binary
/// (from cargo's `Running` lines) to `timings`. A failure is recorded in `tally`, not returned.
fn cargo_test(
    args: &[&str],
    envs: &[(&str, &std::ffi::OsStr)],
    tally: &mut Tally,
    timings: &mut timings::Timings,
) -> Result<()> {
    eprintln!("xtask: cargo test --no-fail-fast {}", args.join(" "));
    let started = std::time::Instant::now();
    let mut child = Command::new("cargo")
        .args(["test", "--no-fail-fast"])
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(workspace_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("could not start cargo test")?;
    // Cargo names each test binary on stderr as it starts it; libtest reports on stdout.
    let stderr = child.stderr.take().expect("piped stderr");
    let starts = std::thread::spawn(move || {
        let mut starts = Vec::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("{line}");
            if let Some(binary) = timings::test_binary(&line) {
                starts.push((std::time::Instant::now(), binary));
            }
        }
        starts
    });
    for line in BufReader::new(child.stdout.take().expect("piped stdout")).lines() {
        let line = line?;
        println!("{line}");
        tally.add_summary(&line);
    }
    let status = child.wait()?;
    let starts = starts.join().unwrap_or_default();
    timings.add_test_run(&format!("cargo test {}", args.join(" ")), started, &starts);
    if !status.success() {
        eprintln!("xtask: cargo test {} failed ({status})", args.join(" "));
        tally.failed_runs.push(format!("cargo test {}", args.join(" ")));
    }
    Ok(())
}

/// The workspace root, from the environment `cargo run` sets at run time: a target directory shared
/// by two checkouts can leave one checkout running the other's xtask binary, whose compile-time path
/// would point at the wrong tree.
/// Asked once, before `forget_cargo_run_variables` removes the variable.
pub(crate) fn workspace_root() -> std::path::PathBuf {
    static ROOT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")));
        manifest_dir.parent().expect("xtask sits in the workspace").to_path_buf()
    })
    .clone()
}

/// Removes what `cargo run` told xtask about itself (`CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME`, ...),
/// so the cargo commands xtask runs see the environment a developer's would. Build scripts that
/// watch those names (ring's `rerun-if-env-changed=CARGO_MANIFEST_DIR`, read from cargo's own
/// environment) otherwise ran again whenever a build alternated between xtask and a shell, or
/// between two checkouts, and everything above them was compiled again (minutes on every run).
fn forget_cargo_run_variables() {
    let ours = |name: &str| {
        name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_MANIFEST_")
            || ["CARGO_CRATE_NAME", "CARGO_BIN_NAME", "CARGO_PRIMARY_PACKAGE"].contains(&name)
    };
    let names: Vec<String> =
        std::env::vars_os().filter_map(|(name, _)| name.into_string().ok()).filter(|n| ours(n)).collect();
    for name in names {
        std::env::remove_var(name);
    }
}

/// The wasm32 target, for the rule engine's browser build. rustup is how this project's machines get
/// Rust; without it the target must already be installed.
pub(crate) fn ensure_wasm_target() -> Result<()> {
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    match installed {
        Ok(out) if String::from_utf8_lossy(&out.stdout).lines().any(|t| t == "wasm32-unknown-unknown") => Ok(()),
        Ok(_) => run("rustup", &["target", "add", "wasm32-unknown-unknown"]),
        Err(_) => {
            eprintln!("xtask: rustup not found; assuming the wasm32-unknown-unknown target is installed");
            Ok(())
        }
    }
}

fn test() -> Result<()> {
    let mut timings = timings::Timings::new();
    let result = test_timed(&mut timings);
    // Where the time went, also when something failed (written to target/test-timings.md).
    timings.report(&site::target_dir().join("test-timings.md"));
    result
}

fn test_timed(timings: &mut timings::Timings) -> Result<()> {
    // First formatting, which takes a second: a slip is reported at once, counted, and everything
    // else still runs.
    let mut tally = Tally::default();
    if let Err(error) = timings.phase("cargo fmt --check", || run("cargo", &["fmt", "--all", "--check"])) {
        eprintln!("xtask: {error:#}");
        tally.failed_runs.push("cargo fmt --check".into());
    }
    let services =
        timings.phase("installs (rustup target, apt, npm, pip; another checkout's test builds cleaned)", || {
            ensure_wasm_target()?;
            test_binaries::forget_other_checkouts_binaries()?;
            services::ensure_test_services()
        })?;
    let dist = site::dist_dir();
    let pieces = std::ffi::OsString::from(site::pieces_url()?);
    let vercel_output = std::sync::OnceLock::new();
    // What the test binaries read at run time; the Vercel build's output is added once it exists.
    let mut envs = vec![
        ("TABULA_PIECES", pieces.as_os_str()),
        ("TABULA_POSTGREST", services.postgrest.as_os_str()),
        ("TABULA_LIGHTHOUSE_MODULES", services.lighthouse_modules.as_os_str()),
        ("TABULA_PYFFISH", services.pyffish.as_os_str()),
        ("TABULA_WEB_PUSH_TESTING", services.web_push_testing.as_os_str()),
        ("TABULA_SITE_DIST", dist.as_os_str()),
    ];
    let side_envs = envs.clone();
    let compiled = std::sync::OnceLock::new();
    std::thread::scope(|scope| -> Result<()> {
        // The site's bundles (the browser tests run against them) build beside the native builds:
        // each bundle's compile and link-time optimisation keeps one core busy, in a target
        // directory of their own (`site::bundle_target_dir`), so the lints and the tests' compile
        // use the other; then the binaries that only compute start, niced, beside the rest.
        let site = scope.spawn(|| {
            let started = std::time::Instant::now();
            (site::build_site(), started.elapsed())
        });
        let side_lane = match native_builds(timings, &mut tally, &pieces)? {
            Ok(binaries) => Some(test_binaries::start_side_lane(scope, compiled.get_or_init(|| binaries), &side_envs)),
            Err(error) => {
                eprintln!("xtask: {error:#}");
                tally.failed_runs.push("compiling the tests".into());
                None
            }
        };
        let (site_result, site_took) =
            site.join().unwrap_or_else(|_| (Err(anyhow::anyhow!("the site build panicked")), Default::default()));
        timings.add("site build (cargo xtask build-site), beside the three before", site_took);
        site_result?;
        // The deployed form: what `vercel build` makes of the repository (checked by cli/tests/vercel).
        let output = timings.phase("vercel build of the copy", || vercel::vercel_build(&services.vercel))?;
        envs.push(("TABULA_VERCEL_OUTPUT", vercel_output.get_or_init(|| output).as_os_str()));
        if let (Some(binaries), Some(side_lane)) = (compiled.get(), side_lane) {
            test_binaries::run_all(binaries, side_lane, &envs, &mut tally, timings)?;
        }
        Ok(())
    })?;
    cargo_test(&["--workspace", "--doc"], &envs, &mut tally, timings)?;
    println!("{}", tally.closing_line());
    if !tally.failed_runs.is_empty() {
        bail!("failed: {}", tally.failed_runs.join("; "));
    }
    if tally.passed == 0 {
        bail!("no test ran");
    }
    Ok(())
}

/// The native builds, beside the site's: the lints on every target (tests too, warnings as
/// errors; a failure is counted, not fatal), the rule engine for wasm32, and every test target
/// (unit, integration, benches run once as smoke tests; `test_binaries` runs them, some side by
/// side). The outer error stops the run; the inner one is a compile failure of the tests, counted.
fn native_builds(
    timings: &mut timings::Timings,
    tally: &mut Tally,
    pieces: &std::ffi::OsStr,
) -> Result<Result<Vec<test_binaries::TestBinary>>> {
    let clippy = ["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"];
    if let Err(error) = timings.phase("cargo clippy --all-targets", || run("cargo", &clippy)) {
        eprintln!("xtask: {error:#}");
        tally.failed_runs.push("cargo clippy --all-targets".into());
    }
    // The rule engine is shared with the browser: it must compile for wasm32 with every feature
    // (the bundles build it with their own features). Checked, not built: an rlib's build adds
    // only code generation (the engine at opt-level 3), which catches nothing more.
    timings.phase("tabula-core for wasm32", || {
        run("cargo", &["check", "--package", "tabula-core", "--target", "wasm32-unknown-unknown"])
    })?;
    // The site crate reads TABULA_PIECES when it compiles (the pre-renderer gets the same value).
    let compile_envs = [("TABULA_PIECES", pieces)];
    Ok(timings.phase("cargo test --workspace --all-targets: compiling", || test_binaries::build(&compile_envs)))
}
