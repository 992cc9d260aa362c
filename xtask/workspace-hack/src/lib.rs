//! Empty: the package exists for its dependencies (see Cargo.toml).
