//! The house rules that keep the code readable, checked so they stay true: every module says what
//! it is in a `//!` line; the web app never depends on the API; and the top-level modules of the
//! site and of the API import each other one way only (no circle), so each can be read, and
//! changed, knowing only what sits below it; and a game's engine is named only in its own folders
//! and in the one registration of every game, so a game is a folder per crate plus a line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the workspace").to_path_buf()
}

/// The `.rs` files under `folder`, but what is built or installed there.
fn rust_files(folder: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display())).flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if !["target", "node_modules", "dist", ".vercel"].contains(&name.to_string_lossy().as_ref()) {
                rust_files(&path, files);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn every_module_opens_with_a_line_saying_what_it_is() {
    let mut files = Vec::new();
    for crate_folder in ["api", "core", "site", "cli", "xtask"] {
        rust_files(&workspace().join(crate_folder), &mut files);
    }
    assert!(files.len() > 100, "found only {} files", files.len());
    let unsaid: Vec<String> = files
        .iter()
        .filter(|file| !std::fs::read_to_string(file).unwrap().starts_with("//!"))
        .map(|file| file.strip_prefix(workspace()).unwrap().display().to_string())
        .collect();
    assert!(unsaid.is_empty(), "modules that do not open with a `//!` line: {unsaid:?}");
}

/// The engine runs on the server and in the browser, and both must compute the same: `SmallRng` is
/// Xoshiro256++ on 64-bit targets and Xoshiro128++ on wasm32, so a seeded draw (Go's dead-stone
/// proposal, a computer's move) would differ between the two. The engine names its generator. Nor
/// does it call the maths library's functions that IEEE 754 does not round exactly (`powf`, `exp`,
/// `ln`...): wasm32's and the platform's differ in the last bit (a chess evaluation did). Tests
/// (after `#[cfg(test)]`) may compare with them.
#[test]
fn the_engine_draws_the_same_numbers_on_every_target() {
    const INEXACT: [&str; 12] = [
        ".powf(", ".powi(", ".exp(", ".exp2(", ".ln(", ".log(", ".log2(", ".log10(", ".sin(", ".cos(", ".tan(",
        ".tanh(",
    ];
    let mut files = Vec::new();
    rust_files(&workspace().join("core/src"), &mut files);
    assert!(files.len() > 20, "found only {} files", files.len());
    let mut platform_dependent = Vec::new();
    for file in &files {
        let code = std::fs::read_to_string(file).unwrap();
        let lines = code.lines().take_while(|line| line.trim() != "#[cfg(test)]");
        for line in lines.filter(|line| !line.trim_start().starts_with("//")) {
            if let Some(name) = ["SmallRng"].iter().chain(&INEXACT).find(|name| line.contains(*name)) {
                let path = file.strip_prefix(workspace()).unwrap().display();
                platform_dependent.push(format!("{path}: {name}"));
            }
        }
    }
    assert!(platform_dependent.is_empty(), "the engine computes differently on other targets: {platform_dependent:?}");
}

/// Each package of the workspace with the packages of the workspace it depends on, directly or not
/// (normal dependencies, for every target), from `cargo metadata --no-deps`: the workspace's own
/// manifests, so nothing is downloaded (a full `cargo metadata --offline` wants every platform's
/// crates, which a fresh machine's builds never fetched: it failed there).
fn workspace_dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(workspace())
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let members: BTreeSet<String> = packages.iter().map(|p| p["name"].as_str().unwrap().to_owned()).collect();
    let mut direct: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for package in packages {
        let normal = package["dependencies"].as_array().unwrap().iter().filter(|dep| dep["kind"].is_null());
        let ours = normal.map(|dep| dep["name"].as_str().unwrap().to_owned()).filter(|name| members.contains(name));
        direct.entry(package["name"].as_str().unwrap().to_owned()).or_default().extend(ours);
    }
    let mut all = BTreeMap::new();
    for name in direct.keys() {
        let (mut seen, mut next) = (BTreeSet::new(), vec![name.clone()]);
        while let Some(package) = next.pop() {
            for dep in &direct[&package] {
                if seen.insert(dep.clone()) {
                    next.push(dep.clone());
                }
            }
        }
        all.insert(name.clone(), seen);
    }
    all
}

#[test]
fn the_web_app_and_the_engine_never_depend_on_the_api() {
    let dependencies = workspace_dependencies();
    assert!(dependencies["tabula-api"].contains("tabula-core"), "the check reads the graph: {dependencies:?}");
    assert!(!dependencies["tabula-site"].contains("tabula-api"), "the site depends on the API");
    assert!(dependencies["tabula-core"].is_empty(), "the engine depends on {:?}", dependencies["tabula-core"]);
}

/// The top-level modules of the crate whose root is `root` (`site/src/lib.rs`), each with the
/// top-level modules it names (`crate::play::...`, `use crate::{play, storage}`), from every file
/// of the module.
fn module_imports(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let folder = root.parent().unwrap();
    let top_level = |path: &Path| -> Option<String> {
        let relative = path.strip_prefix(folder).ok()?;
        let first = relative.components().next()?.as_os_str().to_string_lossy().into_owned();
        let name = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
        (relative != root.strip_prefix(folder).ok()?).then_some(name)
    };
    let mut files = Vec::new();
    rust_files(folder, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top_level(f)).collect();
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = top_level(file) else { continue };
        let source = std::fs::read_to_string(file).unwrap();
        let named = imports.entry(module.clone()).or_default();
        // `crate::name` anywhere, and the names inside `use crate::{...}` groups.
        for (at, _) in source.match_indices("crate::") {
            let rest = &source[at + "crate::".len()..];
            let words: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                group[..group.find('}').unwrap_or(group.len())].split(',').collect()
            } else {
                vec![rest]
            };
            for word in words {
                let word = word.trim_start();
                let name: String = word.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if modules.contains(&name) && name != module {
                    named.insert(name);
                }
            }
        }
    }
    imports
}

/// A circle in `imports`, as the modules along it, if there is one.
fn circle(imports: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut found = path[start..].to_vec();
            found.push(module.to_owned());
            return Some(found);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in imports.get(module).into_iter().flatten() {
            if let Some(found) = visit(next, imports, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    imports.keys().find_map(|module| visit(module, imports, &mut Vec::new(), &mut done))
}

#[test]
fn the_circle_finder_finds_circles() {
    let graph = |edges: &[(&str, &str)]| {
        let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            imports.entry(from.to_string()).or_default().insert(to.to_string());
        }
        imports
    };
    assert_eq!(circle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    let found = circle(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")])).expect("a circle");
    assert_eq!(found.first(), found.last());
    assert_eq!(found.len(), 4, "{found:?}");
}

#[test]
fn the_site_s_and_the_api_s_modules_import_each_other_one_way() {
    for root in ["site/src/lib.rs", "api/_lib/lib.rs"] {
        let imports = module_imports(&workspace().join(root));
        assert!(imports.len() >= 8, "{root}: found only {:?}", imports.keys());
        if let Some(found) = circle(&imports) {
            panic!("{root}: the modules {} import each other in a circle", found.join(" -> "));
        }
    }
}

/// Each game kind's engine type, the module of `tabula_core` it lives in, and the names of its
/// folders and files in every crate (`core/src/fairy/`, `site/src/games/chess/`, `cli/src/go/`, ...).
const GAME_ENGINES: &[(&str, &str, &[&str])] = &[
    ("popucom", "Popucom", &["popucom"]),
    ("go", "Go", &["go"]),
    ("edges", "Edges", &["edges"]),
    ("fairy", "Chess", &["fairy", "chess"]),
];

/// The one place that maps each game kind to its engine type (`GameKind::visit`): everything else
/// reaches a game through it, or sits in the game's own folders.
const GAME_REGISTRATION: &str = "core/src/any.rs";

/// Whether `code` names `module::Engine` (also as `module::{.., Engine, ..}`).
fn names_engine(code: &str, module: &str, engine: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let path = format!("{module}::");
    let mut rest = code;
    while let Some(at) = rest.find(&path) {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + path.len()..];
        rest = after;
        if before.is_some_and(is_ident) {
            continue;
        }
        let named = if let Some(list) = after.strip_prefix('{') {
            let list = &list[..list.find('}').unwrap_or(list.len())];
            list.split(|c: char| !is_ident(c)).any(|word| word == engine)
        } else {
            after.strip_prefix(engine).is_some_and(|tail| !tail.starts_with(is_ident))
        };
        if named {
            return true;
        }
    }
    false
}

#[test]
fn the_engine_name_finder_finds_names() {
    assert!(names_engine("use tabula_core::go::Go;", "go", "Go"));
    assert!(names_engine("use crate::go::{Board, Go, GoMove};", "go", "Go"));
    assert!(names_engine("let g = tabula_core::fairy::Chess::new(c);", "fairy", "Chess"));
    assert!(!names_engine("use crate::go::{GoMove, Vertex};", "go", "Go"));
    assert!(!names_engine("crate::go::bench_playout", "go", "Go"));
    assert!(!names_engine("use tabula_core::ego::Go;", "go", "Go"));
}

#[test]
fn only_a_game_s_own_files_name_its_engine() {
    let root = workspace();
    let mut files = Vec::new();
    for folder in ["core/src", "api", "site/src", "cli/src", "xtask/src"] {
        rust_files(&root.join(folder), &mut files);
    }
    let mut outside = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap();
        if relative == Path::new(GAME_REGISTRATION) || relative.starts_with("api/_tests") {
            continue;
        }
        // A game's folders and files: a folder or a file named after it.
        let parts: Vec<String> =
            relative.iter().map(|part| Path::new(part).file_stem().unwrap().to_string_lossy().into_owned()).collect();
        // Unit tests may set up any game; comments may name any.
        let code = std::fs::read_to_string(file).unwrap();
        let code: String = code
            .lines()
            .take_while(|line| line.trim() != "#[cfg(test)]")
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (module, engine, folders) in GAME_ENGINES {
            if !parts.iter().any(|part| folders.contains(&part.as_str())) && names_engine(&code, module, engine) {
                outside.push(format!("{}: {engine}", relative.display()));
            }
        }
    }
    assert!(
        outside.is_empty(),
        "these files name a game's engine outside its own folders: reach it through GameKind::visit \
         ({GAME_REGISTRATION}), or move the code into the game's folder: {outside:?}"
    );
}

/// The README is a front door and the architecture document a map: each stays short enough to
/// read at once (history and measurements go to the docs that hold them).
#[test]
fn the_front_door_and_the_map_stay_short() {
    for (file, limit) in [("README.md", 12_000), ("docs/ARCHITECTURE.md", 20_000)] {
        let size = std::fs::metadata(workspace().join(file)).unwrap().len();
        assert!(size < limit, "{file} is {size} bytes; keep it under {limit}");
    }
}
