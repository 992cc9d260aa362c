//! The site's bundles kept by what they are built from. Cargo keeps one fingerprint per profile for
//! the site's `cdylib`, so building the 15 bundles one after another, each with its own features,
//! compiled the site crate and ran its link-time optimisation for every bundle on every build
//! (about 20 s each), also when nothing had changed, and again in the Vercel copy. A bundle's WASM
//! depends only on the files of `site/` and `core/`, the workspace's manifests, lock file and cargo
//! config, the toolchain, and the arguments, rustflags and environment of its build: their
//! hash names a copy of the WASM cargo built, which a later build with the same inputs takes
//! instead of calling cargo. Binaryen's pass over the bundle (about 10 s each with npm's
//! `wasm-opt`) is kept the same way, by the hash of its input and settings, and so are the gzip and
//! brotli copies of the site's files.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

use crate::site::target_dir;
use crate::workspace_root;

/// The hash of everything a bundle's WASM is built from: the arguments of its `cargo build` (the
/// profile, features, settings) and the files below. `envs` are the variables its build reads;
/// a value that names a file counts with the file's bytes.
pub fn key(cargo_args: &str, rustflags: &str, envs: &[(&str, &OsStr)]) -> Result<String> {
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
    let root = workspace_root();
    let mut files = Vec::new();
    for file in ["Cargo.toml", "Cargo.lock", ".cargo/config.toml"] {
        files.push(PathBuf::from(file));
    }
    for folder in ["core", "site"] {
        walk(&root, Path::new(folder), &mut files)?;
    }
    files.sort();
    for file in files {
        add(file.as_os_str().as_encoded_bytes());
        add(&std::fs::read(root.join(&file)).unwrap_or_default());
    }
    Ok(hex(&hash.finalize(), 16))
}

/// The first `bytes` bytes of a digest in hexadecimal: cache keys and asset names.
pub fn hex(digest: &[u8], bytes: usize) -> String {
    digest.iter().take(bytes).map(|b| format!("{b:02x}")).collect()
}

/// The files under `folder` (relative to `root`), but the built site.
fn walk(root: &Path, folder: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(root.join(folder)).with_context(|| format!("reading {}", folder.display()))? {
        let entry = entry?;
        let path = folder.join(entry.file_name());
        if path == Path::new("site/dist") {
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

/// Keeps a copy of the WASM cargo built for `key` (the bundle's older copies go); returns it.
pub fn keep(bundle: &str, key: &str, built: &Path) -> Result<PathBuf> {
    let folder = folder(bundle);
    if folder.exists() {
        std::fs::remove_dir_all(&folder)?;
    }
    std::fs::create_dir_all(&folder)?;
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
