//! Builds the web app into `site/dist`: the WASM (size profile), its JS glue (wasm-bindgen as a
//! library, no separately installed tool), `wasm-opt` when a recent binaryen is present, the static
//! files; then reports the first load's gzipped size against the 250 KB budget.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::{ensure_wasm_target, run, workspace_root};

/// The first load (HTML, CSS, JS, WASM), gzipped, must stay under this.
const BUDGET_BYTES: usize = 250_000;

pub fn dist_dir() -> PathBuf {
    workspace_root().join("site/dist")
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target"))
}

fn gzipped_len(bytes: &[u8]) -> Result<usize> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len())
}

pub fn build_site() -> Result<()> {
    ensure_wasm_target()?;
    run(
        "cargo",
        &[
            "build",
            "--package",
            "tabula-site",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "site-release",
        ],
    )?;
    let wasm = target_dir().join("wasm32-unknown-unknown/site-release/tabula_site.wasm");
    let dist = dist_dir();
    if dist.exists() {
        std::fs::remove_dir_all(&dist).with_context(|| format!("clearing {}", dist.display()))?;
    }
    std::fs::create_dir_all(&dist)?;
    eprintln!("xtask: wasm-bindgen {}", wasm.display());
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)?
        .remove_name_section(true)
        .remove_producers_section(true)
        .generate(&dist)
        .context("wasm-bindgen")?;
    let output = dist.join("tabula_site_bg.wasm");
    optimize(&output)?;
    let statics = workspace_root().join("site/static");
    for entry in std::fs::read_dir(&statics).with_context(|| format!("reading {}", statics.display()))? {
        let entry = entry?;
        std::fs::copy(entry.path(), dist.join(entry.file_name()))?;
    }
    report_size(&dist)
}

/// The oldest binaryen that handles what rustc emits for wasm32 by default (reference types,
/// multivalue). Debian 12's binaryen 108 breaks the externref table (the app fails to load) and its
/// output was larger than the input anyway (docs/PERFORMANCE.md).
const MIN_WASM_OPT_VERSION: u32 = 116;

/// `wasm-opt -Oz` when a recent enough binaryen is installed; otherwise the WASM as rustc and
/// wasm-bindgen left it (already size-optimised: opt-level "z", fat LTO, one codegen unit).
fn optimize(wasm: &Path) -> Result<()> {
    let version = Command::new("wasm-opt")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().nth(2)?.parse::<u32>().ok());
    match version {
        Some(version) if version >= MIN_WASM_OPT_VERSION => {}
        Some(version) => {
            eprintln!("xtask: wasm-opt {version} is older than {MIN_WASM_OPT_VERSION}; skipping it");
            return Ok(());
        }
        None => {
            eprintln!("xtask: no wasm-opt; skipping it");
            return Ok(());
        }
    }
    let path = wasm.to_string_lossy().into_owned();
    run(
        "wasm-opt",
        &[
            "-Oz",
            "--enable-reference-types",
            "--enable-multivalue",
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            &path,
            "-o",
            &path,
        ],
    )
}

fn report_size(dist: &Path) -> Result<()> {
    let mut total = 0;
    let mut lines = Vec::new();
    for name in ["index.html", "style.css", "tabula_site.js", "tabula_site_bg.wasm"] {
        let bytes =
            std::fs::read(dist.join(name)).with_context(|| format!("{name} missing from {}", dist.display()))?;
        let gz = gzipped_len(&bytes)?;
        total += gz;
        lines.push(format!("  {name}: {} bytes, {gz} gzipped", bytes.len()));
    }
    eprintln!(
        "xtask: site built in {}\n{}\n  first load: {total} bytes gzipped (budget {BUDGET_BYTES})",
        dist.display(),
        lines.join("\n")
    );
    if total > BUDGET_BYTES {
        bail!("the first load is {total} bytes gzipped, over the {BUDGET_BYTES}-byte budget");
    }
    Ok(())
}
