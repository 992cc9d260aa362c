//! Where the reference vectors are: `shared/vectors` beside the repository (CI has it at the same
//! relative path), or under `TABULA_SHARED`. Missing data fails the test: a green run must mean the
//! vectors were checked.

use std::path::PathBuf;

pub fn vectors_dir() -> PathBuf {
    let shared = std::env::var_os("TABULA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let dir = shared.join("vectors");
    assert!(dir.is_dir(), "reference vectors not found at {} (set TABULA_SHARED)", dir.display());
    dir
}
