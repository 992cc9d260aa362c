//! Where `cargo xtask test`'s time goes: each phase (installs, builds, the Vercel build) and each
//! test binary, printed as a table when the task ends and written to `target/test-timings.md`
//! (docs/PERFORMANCE.md keeps measured runs).

use std::path::Path;
use std::time::{Duration, Instant};

pub struct Timings {
    started: Instant,
    rows: Vec<(String, Duration)>,
}

impl Timings {
    pub fn new() -> Timings {
        Timings { started: Instant::now(), rows: Vec::new() }
    }

    /// Runs one phase and records its time, whether it succeeds or not.
    pub fn phase<T>(&mut self, name: &str, work: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
        let started = Instant::now();
        let result = work();
        self.rows.push((name.to_owned(), started.elapsed()));
        result
    }

    /// A row measured elsewhere (a test binary run by `test_binaries`).
    pub fn add(&mut self, name: &str, took: Duration) {
        self.rows.push((name.to_owned(), took));
    }

    /// One `cargo test` run, started at `started`: its compile time (until the first test binary
    /// ran) and each test binary's, from the moments cargo named them.
    pub fn add_test_run(&mut self, run: &str, started: Instant, binaries: &[(Instant, String)]) {
        let ended = Instant::now();
        let first = binaries.first().map_or(ended, |(at, _)| *at);
        self.rows.push((format!("{run}: compiling"), first - started));
        for (index, (at, binary)) in binaries.iter().enumerate() {
            let next = binaries.get(index + 1).map_or(ended, |(next, _)| *next);
            self.rows.push((format!("  {binary}"), next - *at));
        }
    }

    /// Prints the table and writes it to `file`.
    pub fn report(&self, file: &Path) {
        let minutes = |d: Duration| format!("{:.1}", d.as_secs_f64() / 60.0);
        let mut table = String::from("| phase | minutes |\n|---|---:|\n");
        for (name, took) in &self.rows {
            table += &format!("| {} | {} |\n", name.replace('|', "/"), minutes(*took));
        }
        table += &format!("| **total** | **{}** |\n", minutes(self.started.elapsed()));
        eprintln!("xtask: where the time went\n{table}");
        if std::fs::create_dir_all(file.parent().unwrap_or(Path::new(".")))
            .and_then(|_| std::fs::write(file, &table))
            .is_ok()
        {
            eprintln!("xtask: (written to {})", file.display());
        }
    }
}

/// The test binary a line of cargo's names as it starts it: `Running tests/e2e/main.rs (...)`,
/// `Running unittests src/lib.rs (target/debug/deps/tabula_core-...)`, `Doc-tests tabula_core`.
pub fn test_binary(line: &str) -> Option<String> {
    let line = line.trim_start();
    if let Some(rest) = line.strip_prefix("Doc-tests ") {
        return Some(format!("doc tests of {}", rest.trim()));
    }
    let rest = line.strip_prefix("Running ")?;
    // `unittests src/lib.rs (target/debug/deps/tabula_core-0123abcd)`: the crate from the binary.
    let (what, binary) = rest.split_once(" (")?;
    let crate_name = binary.trim_end_matches(')').rsplit('/').next()?.rsplit_once('-').map_or(binary, |(name, _)| name);
    Some(format!("{crate_name}: {what}"))
}

#[cfg(test)]
mod tests {
    use super::test_binary;

    #[test]
    fn names_test_binaries_from_cargo_lines() {
        assert_eq!(
            test_binary("     Running unittests src/lib.rs (target/debug/deps/tabula_core-0123abcd)").as_deref(),
            Some("tabula_core: unittests src/lib.rs")
        );
        assert_eq!(
            test_binary("     Running tests/e2e/main.rs (target/debug/deps/e2e-99ff)").as_deref(),
            Some("e2e: tests/e2e/main.rs")
        );
        assert_eq!(test_binary("   Doc-tests tabula_core").as_deref(), Some("doc tests of tabula_core"));
        assert_eq!(test_binary("   Compiling serde v1.0.0"), None);
        assert_eq!(test_binary("running 3 tests"), None);
    }
}
