#!/usr/bin/env bash
# Vercel's build step for the site (vercel.json "buildCommand"). Vercel's build image has no Rust,
# so this installs a minimal toolchain with rustup, then builds the site into site/dist exactly as
# `cargo xtask build-site` does locally. (Vercel builds the Rust API functions itself.)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
    if [ ! -x "$CARGO_HOME/bin/cargo" ]; then
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs \
            | sh -s -- -y --profile minimal --default-toolchain stable --target wasm32-unknown-unknown
    fi
    export PATH="$CARGO_HOME/bin:$PATH"
fi
rustup target add wasm32-unknown-unknown
cargo xtask build-site
