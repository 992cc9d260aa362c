//! `cargo xtask vercel-build`: builds the repository the way Vercel does (docs/DEPLOY.md), with the
//! pinned Vercel CLI from the npm registry and no account: a copy of the tracked files, a local
//! project settings file as a new Vercel project holds, then `vercel build`, which runs
//! `site/vercel-build.sh` for the site and the official Rust runtime for every `api/*.rs`.
//! `cli/tests/vercel` checks and runs what it writes (`TABULA_VERCEL_OUTPUT`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::workspace_root;

/// The project settings `vercel build` reads (`.vercel/project.json`, which `vercel link` writes
/// for a real project): the ids are placeholders (nothing is uploaded), the settings those the
/// docs/DEPLOY.md tells a user to choose. Build, install and output commands come from `vercel.json`.
const PROJECT_SETTINGS: &str = r#"{
  "projectId": "prj_tabula_local_build",
  "orgId": "team_tabula_local_build",
  "settings": {
    "framework": null,
    "rootDirectory": null,
    "buildCommand": null,
    "installCommand": null,
    "outputDirectory": null,
    "devCommand": null
  }
}
"#;

/// The copy lives at the same path every run, and its build uses the workspace's target
/// directory: cargo's fingerprints are relative to the workspace, so only what changed is
/// compiled again. Not inside the workspace (nor its target directory): cargo would read the
/// workspace's `.cargo/config.toml` as well as the copy's, doubling the rustflags, which rebuilds
/// everything.
fn copy_dir() -> PathBuf {
    crate::services::cache_dir().join("vercel-build/repo")
}

/// The files a deployment gets: tracked files and new ones git does not ignore (a new file shows
/// up before it is committed; CI runs on a clean clone, where the two are the same), never
/// `.vercel/` (a linked project's settings and pulled secrets). The new ones are named, since a
/// deployment from git would not have them.
fn deployed_files(root: &Path) -> Result<BTreeSet<PathBuf>> {
    let list = |args: &[&str]| -> Result<BTreeSet<PathBuf>> {
        let out = Command::new("git").args(args).current_dir(root).output().context("could not run git ls-files")?;
        if !out.status.success() {
            bail!("git ls-files failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        Ok(out
            .stdout
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
            // A tracked file deleted in the work tree is not deployed.
            .filter(|name| root.join(name).symlink_metadata().is_ok())
            .filter(|name| !name.starts_with(".vercel"))
            .collect())
    };
    let untracked = list(&["ls-files", "-z", "--others", "--exclude-standard"])?;
    if !untracked.is_empty() {
        eprintln!(
            "xtask: deploying files git does not track yet (a deployment from git would not have them): {untracked:?}"
        );
    }
    let mut files = list(&["ls-files", "-z", "--cached"])?;
    files.extend(untracked);
    Ok(files)
}

/// Makes `copy` hold exactly `files` of `root` (symbolic links as links), each with its original's
/// modification time, so cargo sees what the workspace built as built already.
fn sync(root: &Path, copy: &Path, files: &BTreeSet<PathBuf>) -> Result<()> {
    remove_others(copy, Path::new(""), files)?;
    for name in files {
        let (from, to) = (root.join(name), copy.join(name));
        std::fs::create_dir_all(to.parent().expect("a file has a folder"))?;
        if from.symlink_metadata()?.file_type().is_symlink() {
            let target = std::fs::read_link(&from)?;
            if std::fs::read_link(&to).ok() != Some(target.clone()) {
                let _ = std::fs::remove_file(&to);
                std::os::unix::fs::symlink(&target, &to).with_context(|| format!("linking {}", to.display()))?;
            }
            continue;
        }
        let bytes = std::fs::read(&from).with_context(|| format!("reading {}", from.display()))?;
        if to.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
            std::fs::remove_file(&to)?;
        }
        if std::fs::read(&to).ok().as_deref() != Some(&bytes[..]) {
            std::fs::write(&to, &bytes).with_context(|| format!("writing {}", to.display()))?;
        }
        let metadata = std::fs::metadata(&from)?;
        std::fs::set_permissions(&to, metadata.permissions())?;
        // The original's time too: cargo judges a crate fresh by its files' times, and the copy
        // shares the workspace's target directory, where a fresh clone's build is older than the
        // copy's new files would be (that rebuilt every site bundle, about 8 minutes).
        std::fs::File::options().write(true).open(&to)?.set_modified(metadata.modified()?)?;
    }
    Ok(())
}

/// Removes from the copy what is not deployed, and folders where a deployed file now is.
fn remove_others(copy: &Path, folder: &Path, files: &BTreeSet<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(copy.join(folder))? {
        let entry = entry?;
        let name = folder.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            if files.contains(&name) {
                std::fs::remove_dir_all(entry.path())?;
                continue;
            }
            remove_others(copy, &name, files)?;
            if std::fs::read_dir(entry.path())?.next().is_none() {
                std::fs::remove_dir(entry.path())?;
            }
        } else if !files.contains(&name) {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// Builds the copy with `vercel` (the CLI's binary); returns its Build Output folder.
pub fn vercel_build(vercel: &Path) -> Result<PathBuf> {
    let root = workspace_root();
    let target = std::path::absolute(crate::site::target_dir())?;
    let copy = copy_dir();
    std::fs::create_dir_all(&copy)?;
    // No `.vercel/` from an earlier run: the settings are written fresh, the output rebuilt.
    let settings = copy.join(".vercel");
    if settings.exists() {
        std::fs::remove_dir_all(&settings)?;
    }
    sync(&root, &copy, &deployed_files(&root)?)?;
    std::fs::create_dir_all(&settings)?;
    std::fs::write(settings.join("project.json"), PROJECT_SETTINGS)?;

    eprintln!("xtask: vercel build in {}", copy.display());
    let status = Command::new(vercel)
        .args(["build", "--yes"])
        .current_dir(&copy)
        // As on Vercel's build image: the Rust runtime runs plain `cargo build --release` there
        // (elsewhere it cross-compiles with cargo-zigbuild), and the site build sees `VERCEL`.
        .env("VERCEL_BUILD_IMAGE", "1")
        .env("VERCEL", "1")
        .env("VERCEL_TELEMETRY_DISABLED", "1")
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .with_context(|| format!("could not start {}", vercel.display()))?;
    if !status.success() {
        bail!("vercel build failed ({status})");
    }
    let output = settings.join("output");
    if !output.join("config.json").is_file() {
        bail!("vercel build wrote no {}", output.join("config.json").display());
    }
    eprintln!("xtask: Build Output in {}", output.display());
    Ok(output)
}
