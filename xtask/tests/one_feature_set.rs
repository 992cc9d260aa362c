//! Every native debug build the test command runs compiles each crate with one set of features:
//! `cargo xtask` (`cargo run -p xtask`), the pre-renderer (`cargo run -p tabula-site`) and the
//! tests (`cargo test --workspace --all-targets`) select other packages, so cargo would unify other
//! features for their dependencies and compile those, and everything above them, once for each;
//! `xtask/workspace-hack` turns the tests' features on in the other two. Read from `cargo tree`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

/// A crate as one build compiles it: `name vX.Y.Z` and its features.
type Node = (String, BTreeSet<String>);

/// Every crate `cargo tree` shows for a build selecting `packages` (build scripts' and
/// proc-macros' dependencies too; dev-dependencies when the build compiles tests), with its features.
fn compiled(packages: &[&str], tests: bool) -> BTreeSet<Node> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let edges = if tests { "normal,build,dev" } else { "normal,build" };
    let output = Command::new(cargo)
        .args(["tree", "--prefix", "none", "--format", "{p}|{f}", "--edges", edges])
        .args(packages)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("cargo tree runs");
    assert!(output.status.success(), "cargo tree: {}", String::from_utf8_lossy(&output.stderr));
    let mut nodes = BTreeSet::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Some((package, features)) = line.trim_end_matches(" (*)").split_once('|') else { continue };
        let mut words = package.split_whitespace();
        let (Some(name), Some(version)) = (words.next(), words.next()) else { continue };
        let features = features.split(',').filter(|f| !f.is_empty()).map(str::to_owned).collect();
        nodes.insert((format!("{name} {version}"), features));
    }
    assert!(
        nodes.len() > 20,
        "cargo tree showed {} crates for {packages:?}: is its output format still read right?",
        nodes.len()
    );
    nodes
}

/// The crates `nodes` has with more than one set of features.
fn twice(nodes: &BTreeSet<Node>) -> BTreeMap<&str, Vec<&BTreeSet<String>>> {
    let mut sets: BTreeMap<&str, Vec<&BTreeSet<String>>> = BTreeMap::new();
    for (name, features) in nodes {
        sets.entry(name).or_default().push(features);
    }
    sets.retain(|_, sets| sets.len() > 1);
    sets
}

#[test]
fn the_tests_compile_each_crate_once() {
    let tests = compiled(&["--workspace"], true);
    // Natively, a crate a build script uses and the same crate the code uses are one compile only
    // when their features agree.
    let twice = twice(&tests);
    assert!(
        twice.is_empty(),
        "the tests' build compiles these crates with more than one set of features; give each, in \
         xtask/workspace-hack/Cargo.toml ([dependencies] and/or [build-dependencies]), all of them: {twice:#?}"
    );
}

#[test]
fn xtask_and_the_pre_renderer_compile_what_the_tests_compile() {
    let tests = compiled(&["--workspace"], true);
    for package in ["xtask", "tabula-site"] {
        let own: Vec<Node> = compiled(&["--package", package], false).difference(&tests).cloned().collect();
        let wanted: Vec<String> = own
            .iter()
            .map(|(name, features)| {
                let theirs = tests.iter().filter(|(n, _)| n == name).map(|(_, f)| f).collect::<Vec<_>>();
                format!("{name} with {features:?}, where the tests' build has {theirs:?}")
            })
            .collect();
        assert!(
            wanted.is_empty(),
            "`cargo run -p {package}` compiles crates with features the tests' build does not give them \
             (so both compile them): add the tests' features to xtask/workspace-hack/Cargo.toml: {wanted:#?}"
        );
    }
}

#[test]
fn a_second_set_of_features_is_found() {
    // The check above must see a crate compiled twice: two builds that select other packages.
    let core_alone = compiled(&["--package", "tabula-core"], false);
    let with_site = compiled(&["--package", "tabula-site"], false);
    let both: BTreeSet<Node> = core_alone.union(&with_site).cloned().collect();
    assert!(!twice(&both).is_empty(), "tabula-core alone and the site should differ in some crate's features");
}
