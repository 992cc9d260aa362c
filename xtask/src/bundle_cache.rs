//! The site's bundles kept by what they are built from. Cargo keeps one fingerprint per profile for
//! the site's `cdylib`, so building the 15 bundles one after another, each with its own features,
//! compiled the site crate and ran its link-time optimisation for every bundle on every build
//! (about 20 s each), also when nothing had changed, and again in the Vercel copy. A bundle's WASM
//! depends only on the files of `site/` and `core/` (not the engine's tests, benchmarks and
//! examples; of their Rust sources, only those its build read: a game's engine and screens are
//! compiled only into that game's bundles), the workspace's manifests, lock file and cargo config,
//! the toolchain, and the arguments, rustflags and environment of its build: their hash names a
//! copy of the WASM cargo built, which a later build with the same inputs takes instead of calling
//! cargo. Binaryen's pass over the bundle (about 10 s each with npm's `wasm-opt`) is kept the same
//! way, by the hash of its input and settings, and so are the gzip and brotli copies of the site's
//! files.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

use crate::site::target_dir;
use crate::workspace_root;

/// The workspace's files a bundle can be built from (`core/`, `site/`, the manifests, the lock file
/// and cargo's config), each with the hash of its bytes: read once per site build, before any
/// bundle is compiled, so a bundle is kept under the files as they were when its build started.
pub struct Sources(BTreeMap<PathBuf, [u8; 32]>);

impl Sources {
    pub fn read() -> Result<Sources> {
        let root = workspace_root();
        let mut files: Vec<PathBuf> =
            ["Cargo.toml", "Cargo.lock", ".cargo/config.toml"].into_iter().map(PathBuf::from).collect();
        for folder in ["core", "site"] {
            walk(&root, Path::new(folder), &mut files)?;
        }
        let mut hashes = BTreeMap::new();
        for file in files {
            // A missing file (no `.cargo/config.toml`) counts as empty, as it did for cargo.
            let bytes = std::fs::read(root.join(&file)).unwrap_or_default();
            hashes.insert(file, Sha256::digest(&bytes).into());
        }
        Ok(Sources(hashes))
    }
}

/// Whether `file` is Rust source of the engine or the site, which a bundle's key counts only if
/// its build read it (a game's engine is compiled only into the bundles with that game).
/// Everything else (manifests, build scripts, locale files, stylesheets, data) always counts.
fn counted_if_read(file: &Path) -> bool {
    (file.starts_with("core/src") || file.starts_with("site/src")) && file.extension().is_some_and(|e| e == "rs")
}

/// The hash of everything a bundle's WASM is built from: the toolchain, the arguments of its
/// `cargo build` (the profile, features, settings), its rustflags, the variables its build reads
/// (`envs`; a value that names a file counts with the file's bytes), and of `sources` every file
/// but the Rust sources its build did not read (`read`, from its last build's dep-info). Whatever
/// makes a build read another file changes a file it read (a `mod` line, a feature in a manifest).
pub fn key(
    cargo_args: &str,
    rustflags: &str,
    envs: &[(&str, &OsStr)],
    sources: &Sources,
    read: &[PathBuf],
) -> Result<String> {
    let mut hash = Sha256::new();
    let mut add = |part: &[u8]| {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    };
    for tool in ["rustc", "cargo"] {
        let version = Command::new(tool).arg("-vV").output().with_context(|| format!("{tool} -vV"))?;
        add(&version.stdout);
    }
    for part in [cargo_args, rustflags] {
        add(part.as_bytes());
    }
    for (name, value) in envs {
        add(name.as_bytes());
        add(value.as_encoded_bytes());
        if let Ok(bytes) = std::fs::read(value) {
            add(&bytes);
        }
    }
    for (file, digest) in sources.0.iter().filter(|(file, _)| !counted_if_read(file)) {
        add(file.as_os_str().as_encoded_bytes());
        add(digest);
    }
    for file in read {
        add(file.as_os_str().as_encoded_bytes());
        // A file read before and gone now counts as absent: the key changes.
        add(sources.0.get(file).map_or(&b"absent"[..], |digest| &digest[..]));
    }
    Ok(hex(&hash.finalize(), 16))
}

/// The Rust sources of `core/src` and `site/src` the last kept build of `bundle` read, or every one
/// of them when there is none (a first build: its key then names them all).
pub fn sources_read(bundle: &str, sources: &Sources) -> Vec<PathBuf> {
    match std::fs::read_to_string(folder(bundle).join(SOURCES_READ)) {
        Ok(list) => list.lines().map(PathBuf::from).collect(),
        Err(_) => sources.0.keys().filter(|file| counted_if_read(file)).cloned().collect(),
    }
}

/// The Rust sources of `core/src` and `site/src` in cargo's dep-info of a build (`artifact.d`:
/// `target: dependency dependency ...`, spaces in paths escaped), relative to the workspace.
pub fn read_by_build(dep_info: &Path) -> Result<Vec<PathBuf>> {
    let text = std::fs::read_to_string(dep_info).with_context(|| format!("reading {}", dep_info.display()))?;
    let first_line = text.lines().next().unwrap_or_default();
    let (_, dependencies) =
        first_line.split_once(": ").with_context(|| format!("{}: no dependencies", dep_info.display()))?;
    let root = std::path::absolute(workspace_root())?;
    let mut files = Vec::new();
    let mut current = String::new();
    let mut chars = dependencies.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => current.extend(chars.next()),
            ' ' => files.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    files.push(current);
    let mut read: Vec<PathBuf> = files
        .iter()
        .filter_map(|file| Path::new(file).strip_prefix(&root).ok().map(Path::to_path_buf))
        .filter(|file| counted_if_read(file))
        .collect();
    read.sort();
    read.dedup();
    Ok(read)
}

/// The list beside a kept bundle of the sources its build read.
const SOURCES_READ: &str = "sources-read.txt";

/// The first `bytes` bytes of a digest in hexadecimal: cache keys and asset names.
pub fn hex(digest: &[u8], bytes: usize) -> String {
    digest.iter().take(bytes).map(|b| format!("{b:02x}")).collect()
}

/// What no bundle is built from: the built site, and the engine's tests, benchmarks and examples,
/// which `cargo build --lib` never compiles (a change to a test rebuilt all 15 bundles).
const NOT_BUNDLED: &[&str] = &["site/dist", "core/tests", "core/benches", "core/examples"];

/// The files under `folder` (relative to `root`), but those `NOT_BUNDLED`.
fn walk(root: &Path, folder: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(root.join(folder)).with_context(|| format!("reading {}", folder.display()))? {
        let entry = entry?;
        let path = folder.join(entry.file_name());
        if NOT_BUNDLED.iter().any(|skipped| path == Path::new(skipped)) {
            continue;
        }
        if entry.file_type()?.is_dir() {
            walk(root, &path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

fn folder(bundle: &str) -> PathBuf {
    target_dir().join("site-bundles").join(bundle)
}

/// The WASM built before from the same inputs, if there is one.
pub fn cached(bundle: &str, key: &str) -> Option<PathBuf> {
    let path = folder(bundle).join(format!("{key}.wasm"));
    path.is_file().then_some(path)
}

/// Keeps a copy of the WASM cargo built for `key`, and the sources its build `read` (the bundle's
/// older copies go); returns it.
pub fn keep(bundle: &str, key: &str, built: &Path, read: &[PathBuf]) -> Result<PathBuf> {
    let folder = folder(bundle);
    if folder.exists() {
        std::fs::remove_dir_all(&folder)?;
    }
    std::fs::create_dir_all(&folder)?;
    let list: String = read.iter().map(|file| format!("{}\n", file.display())).collect();
    std::fs::write(folder.join(SOURCES_READ), list)?;
    let kept = folder.join(format!("{key}.wasm"));
    // Written under another name first: a build stopped half-way leaves no bundle under the key.
    let partial = folder.join(format!("{key}.partial"));
    std::fs::copy(built, &partial).with_context(|| format!("copying {}", built.display()))?;
    std::fs::rename(&partial, &kept)?;
    Ok(kept)
}

/// Binaryen's output for `input` (the bundle's WASM after wasm-bindgen) with `settings` (the tool
/// and its arguments): kept from an earlier build, or made by `optimise` (input, output) and kept.
pub fn optimised(
    bundle: &str,
    input: &Path,
    settings: &str,
    optimise: impl FnOnce(&Path, &Path) -> Result<()>,
) -> Result<PathBuf> {
    let bytes = std::fs::read(input).with_context(|| format!("reading {}", input.display()))?;
    derived(&folder(bundle), "optimised-", &bytes, settings, |output| optimise(input, output))
}

/// The gzip or brotli copy (`settings` names which, and how) of a file of the built site: kept from
/// an earlier build, or made by `compress` and kept. Brotli at its best quality takes about a
/// minute over the site's 10 MB, most of them bundles that did not change.
pub fn compressed(bytes: &[u8], settings: &str, compress: impl FnOnce(&[u8]) -> Result<Vec<u8>>) -> Result<PathBuf> {
    let folder = target_dir().join("site-compressed");
    derived(&folder, "", bytes, settings, |output| Ok(std::fs::write(output, compress(bytes)?)?))
}

/// Removes the compressed copies no file of the last build used (`used`, as `compressed` returned them).
pub fn forget_compressed_but(used: &[PathBuf]) -> Result<()> {
    let folder = target_dir().join("site-compressed");
    for entry in std::fs::read_dir(&folder).into_iter().flatten() {
        let path = entry?.path();
        // A copy still being written is another build's, running now.
        let partial = path.extension().is_some_and(|e| e == "partial");
        if !partial && !used.contains(&path) {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// What `produce` writes from `input` with `settings`, kept in `folder` under `prefix` and the hash
/// of both: taken from there when an earlier build made it.
fn derived(
    folder: &Path,
    prefix: &str,
    input: &[u8],
    settings: &str,
    produce: impl FnOnce(&Path) -> Result<()>,
) -> Result<PathBuf> {
    let mut hash = Sha256::new();
    hash.update(input);
    hash.update(settings.as_bytes());
    let key = hex(&hash.finalize(), 16);
    let kept = folder.join(format!("{prefix}{key}"));
    if kept.is_file() {
        return Ok(kept);
    }
    std::fs::create_dir_all(folder)?;
    // Written under another name first: a build stopped half-way leaves nothing under the key.
    // The name is this call's own: two threads (identical files) or two builds sharing the target
    // directory may make the same key at once, and the last rename wins with the same bytes.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let partial = folder.join(format!("{prefix}{key}.{}-{call}.partial", std::process::id()));
    produce(&partial)?;
    std::fs::rename(&partial, &kept)?;
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_counts_the_workspace_sources_its_build_read() {
        let root = std::path::absolute(workspace_root()).unwrap();
        let dep_info = std::env::temp_dir().join(format!("tabula-dep-info-{}.d", std::process::id()));
        let text = format!(
            "{root}/t/tabula_site.wasm: {root}/core/src/go/a\\ b.rs {root}/site/build.rs /elsewhere/core/src/x.rs \
             {root}/site/src/lib.rs {root}/core/src/go/a\\ b.rs\n\n",
            root = root.display()
        );
        std::fs::write(&dep_info, text).unwrap();
        let read = read_by_build(&dep_info).unwrap();
        std::fs::remove_file(&dep_info).unwrap();
        assert_eq!(read, [PathBuf::from("core/src/go/a b.rs"), PathBuf::from("site/src/lib.rs")]);
    }

    #[test]
    fn the_sources_are_what_a_bundle_compiles_not_the_engine_s_tests() {
        let sources = Sources::read().unwrap();
        let has = |file: &str| sources.0.contains_key(Path::new(file));
        assert!(has("core/src/lib.rs") && has("site/src/lib.rs") && has("core/Cargo.toml") && has("Cargo.lock"));
        assert!(has("core/data/fairy-variants.json"), "data the engine includes");
        let left_out = ["core/tests", "core/benches", "site/dist"];
        assert_eq!(sources.0.keys().find(|f| left_out.iter().any(|folder| f.starts_with(folder))), None);
        assert!(Path::new(&workspace_root()).join("core/tests/vectors.rs").is_file(), "the tests exist, left out");
    }

    #[test]
    fn a_key_changes_with_the_sources_read_and_everything_else() {
        let sources = |go: u8, popucom: u8, style: u8| {
            Sources(BTreeMap::from([
                (PathBuf::from("core/src/go/mod.rs"), [go; 32]),
                (PathBuf::from("core/src/popucom/mod.rs"), [popucom; 32]),
                (PathBuf::from("site/static/style.css"), [style; 32]),
            ]))
        };
        let read = [PathBuf::from("core/src/go/mod.rs")];
        let key = |sources: &Sources| key("build --features go", "", &[], sources, &read).unwrap();
        let before = key(&sources(1, 1, 1));
        assert_eq!(key(&sources(1, 2, 1)), before, "a game the build did not read");
        assert_ne!(key(&sources(2, 1, 1)), before, "a source the build read");
        assert_ne!(key(&sources(1, 1, 2)), before, "a file that is not Rust source");
        let gone = Sources(sources(1, 1, 1).0.into_iter().filter(|(f, _)| !f.starts_with("core/src/go")).collect());
        assert_ne!(key(&gone), before, "a source read before and gone");
    }
}
