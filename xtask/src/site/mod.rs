//! Builds the web app into `site/dist`: every page's HTML pre-rendered by the site's own components
//! (`tabula-site`'s `prerender` binary), one WASM bundle per game plus a home bundle (each with its
//! JS glue from wasm-bindgen used as a library, minified), content-hashed assets, the robots file and
//! sitemap, and gzip and brotli copies for `tabula serve`. Then it checks each page's first load
//! against its budget. This file runs the steps; each has its module.

mod budget;
mod bundle;
mod compress;
mod css;
mod pages;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::{bundle_cache, ensure_wasm_target, workspace_root};
use bundle::{build_bundle, AI_BUNDLE};
use compress::precompress;
use css::check_css;
use pages::{
    ai_worker, known_public_url, page_html, service_worker, start_script, write_crawler_files, OFFLINE_BUNDLES,
};

pub fn dist_dir() -> PathBuf {
    workspace_root().join("site/dist")
}

/// Cargo's target directory as cargo sees it (`CARGO_TARGET_DIR`, else a `build.target-dir` of a
/// cargo config, such as a machine's shared one, else the workspace's `target`), asked once.
pub(crate) fn target_dir() -> PathBuf {
    static TARGET: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    TARGET
        .get_or_init(|| {
            let asked = Command::new("cargo")
                .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
                .current_dir(workspace_root())
                .output();
            let from_metadata = asked.ok().filter(|out| out.status.success()).and_then(|out| {
                let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
                metadata["target_directory"].as_str().map(PathBuf::from)
            });
            from_metadata.unwrap_or_else(|| workspace_root().join("target"))
        })
        .clone()
}

/// Where cargo builds the site's WASM bundles: a target directory of their own (inside the
/// workspace's), so that `cargo xtask test` builds them while the native builds hold the
/// workspace's lock. They share nothing with those builds anyway (another target, another profile).
pub(crate) fn bundle_target_dir() -> PathBuf {
    target_dir().join("site-wasm")
}

/// What the pre-renderer says the site is.
#[derive(Deserialize)]
struct Manifest {
    bundles: Vec<BundleSpec>,
    pages: Vec<Page>,
    /// The site's stylesheet (`site/static/style.css` minified), inlined into every page.
    site_style: String,
    /// `site/static/pages.css` minified: inlined into every page but a room's.
    pages_style: String,
    /// Each game's stylesheet, inlined into the pages that show its board.
    styles: BTreeMap<String, String>,
    /// The languages the browser fetches when chosen (English is built in): tag to messages.
    locales: BTreeMap<String, serde_json::Value>,
    /// The home's picture of each game (SVG), by game name: `/pictures/<game>.svg`.
    pictures: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct BundleSpec {
    name: String,
    /// The site's Cargo features this bundle is built with.
    features: Vec<String>,
}

#[derive(Deserialize)]
struct Page {
    path: String,
    file: String,
    bundle: String,
    title: String,
    description: String,
    noindex: bool,
    public: bool,
    game: Option<String>,
    body: String,
}

/// A bundle's files in the built site, and their gzipped sizes.
struct Bundle {
    js: String,
    wasm: String,
    gzipped: usize,
    /// The script that loads its lazy functions' modules (imported by its JS glue), if it has any.
    split_loader: Option<String>,
    /// The URLs of those modules, loaded on demand.
    on_demand: Vec<String>,
}

fn prerender(pieces: &Asset) -> Result<Manifest> {
    eprintln!("xtask: cargo run --package tabula-site --bin prerender");
    // Its stderr is the compiler's and Leptos' debug notes (reading signals outside an effect,
    // which is what rendering once means): shown only if it fails.
    let output = Command::new("cargo")
        .args(["run", "--quiet", "--package", "tabula-site", "--bin", "prerender"])
        .env("TABULA_PIECES", pieces.url())
        .current_dir(workspace_root())
        .output()
        .context("could not run the pre-renderer")?;
    if !output.status.success() {
        bail!("the pre-renderer failed ({}):\n{}", output.status, String::from_utf8_lossy(&output.stderr));
    }
    serde_json::from_slice(&output.stdout).context("reading the pre-renderer's manifest")
}

/// `name-<8 hex digits of the content's SHA-256>.ext`, so an asset's URL changes with its content
/// and can be cached forever.
fn hashed(name: &str, ext: &str, bytes: &[u8]) -> String {
    format!("{name}-{}.{ext}", bundle_cache::hex(&Sha256::digest(bytes), 4))
}

/// A content-hashed file of `/assets/`.
struct Asset {
    name: String,
    bytes: Vec<u8>,
}

impl Asset {
    fn new(name: &str, ext: &str, bytes: Vec<u8>) -> Asset {
        Asset { name: hashed(name, ext, &bytes), bytes }
    }

    fn url(&self) -> String {
        format!("/assets/{}", self.name)
    }
}

/// The URL the site is built with for the piece drawings (`TABULA_PIECES`). The site crate reads
/// it at compile time, so every build of it should name the same (the tests' too: an unset one
/// compiled the crate again after each pre-rendering, and the pre-renderer again after the tests).
pub fn pieces_url() -> Result<String> {
    Ok(pieces()?.url())
}

/// The chess piece drawings (`site/static/pieces.svg`) without their comment. The pre-rendered
/// pages and the bundles are built with its URL (`TABULA_PIECES`). Fetched beside the bundle by the
/// pages that show pieces; the budget counts HTML, JS and WASM, and its size is printed apart.
fn pieces() -> Result<Asset> {
    let source = std::fs::read_to_string(workspace_root().join("site/static/pieces.svg"))?;
    let (start, end) = (source.find("<!--"), source.find("-->"));
    let svg = match (start, end) {
        (Some(start), Some(end)) => format!("{}{}", &source[..start], &source[end + 3..]),
        _ => source,
    };
    let svg = svg.lines().map(str::trim).filter(|line| !line.is_empty()).collect::<Vec<_>>().join("\n");
    Ok(Asset::new("pieces", "svg", svg.into_bytes()))
}

/// The built-in fairy variants compiled (`core/build.rs`), written where the bundles' builds read
/// them: all of them (`TABULA_FAIRY_VARIANTS`), and orthodox chess alone as the hex text of
/// `Variant::compiled_text` (`TABULA_FAIRY_CHESS`, what the rooms' pages carry: they show it until
/// the room's own variant arrives from the server, and read it with the reader they have anyway).
/// Rewritten only when they change, since a new file rebuilds the engine.
fn compiled_variants() -> Result<[PathBuf; 2]> {
    use tabula_core::fairy::Variant;
    // Without descriptions: the site shows none (its words come from its locale files).
    let mut variants = Variant::builtin().clone();
    variants.values_mut().for_each(|v| v.description.clear());
    let chess = variants["chess"].compiled_text().into_bytes();
    let mut paths = Vec::new();
    for (file, bytes) in [("fairy-variants.postcard", Variant::to_compiled(&variants)), ("fairy-chess.hex", chess)] {
        // Absolute: `include_bytes!` would read a relative path from core's source folder.
        let path = std::path::absolute(target_dir().join(file))?;
        if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
            std::fs::create_dir_all(target_dir())?;
            std::fs::write(&path, &bytes)?;
        }
        paths.push(path);
    }
    Ok([paths[0].clone(), paths[1].clone()])
}

pub fn build_site() -> Result<()> {
    ensure_wasm_target()?;
    let wasm_opt = crate::services::wasm_opt()?;
    let pieces = pieces()?;
    let manifest = prerender(&pieces)?;
    let dist = dist_dir();
    if dist.exists() {
        std::fs::remove_dir_all(&dist).with_context(|| format!("clearing {}", dist.display()))?;
    }
    let assets = dist.join("assets");
    std::fs::create_dir_all(&assets)?;
    // TABULA_BUNDLES=chess,chess-room builds only those (for measuring one bundle; pages of the
    // others are then left out, and the room page counts the room bundles built).
    let only: Option<Vec<String>> = std::env::var("TABULA_BUNDLES")
        .ok()
        .filter(|list| !list.trim().is_empty())
        .map(|list| list.split(',').map(|n| n.trim().to_owned()).collect());
    if let Some(unknown) = only.iter().flatten().find(|n| !manifest.bundles.iter().any(|b| &b.name == *n)) {
        bail!("TABULA_BUNDLES: no bundle {unknown:?}");
    }
    let wanted = |name: &str| only.as_ref().is_none_or(|list| list.iter().any(|n| n == name));
    let variants = compiled_variants()?;
    std::fs::write(assets.join(&pieces.name), &pieces.bytes)?;
    eprintln!("xtask: {}: {} bytes gzipped", pieces.name, compress::gzipped_size(&pieces.bytes)?);
    let sources = bundle_cache::Sources::read()?;
    let mut bundles = BTreeMap::new();
    for spec in manifest.bundles.iter().filter(|s| wanted(&s.name)) {
        bundles.insert(spec.name.clone(), build_bundle(spec, &assets, &variants, &pieces.url(), &wasm_opt, &sources)?);
    }
    // Each language but English as a content-hashed JSON file; pages say where (`tabulaLocales`).
    let mut locale_urls = Vec::new();
    let mut locale_files = Vec::new();
    for (tag, messages) in &manifest.locales {
        let json = serde_json::to_vec(messages)?;
        let name = hashed(&format!("locale-{tag}"), "json", &json);
        std::fs::write(assets.join(&name), json)?;
        locale_urls.push(format!("\"{tag}\": \"/assets/{name}\""));
        locale_files.push(name);
    }

    let mut globals = format!("window.tabulaLocales = {{ {} }};", locale_urls.join(", "));
    // Where local games find the computer player's worker script.
    if let Some(ai) = bundles.get(AI_BUNDLE) {
        let worker = Asset::new("ai-worker", "js", ai_worker(ai)?.into_bytes());
        std::fs::write(assets.join(&worker.name), &worker.bytes)?;
        globals += &format!(" window.tabulaAi = \"{}\";", worker.url());
    }
    let statics = workspace_root().join("site/static");
    check_css("site/static/style.css", &std::fs::read_to_string(statics.join("style.css"))?)?;
    let css = &manifest.site_style;
    check_css("the minified site/static/style.css", css)?;
    check_css("site/static/pages.css", &std::fs::read_to_string(statics.join("pages.css"))?)?;
    check_css("the minified site/static/pages.css", &manifest.pages_style)?;
    for (game, game_css) in &manifest.styles {
        check_css(&format!("{game}'s board.css"), game_css)?;
    }
    std::fs::copy(statics.join("favicon.svg"), dist.join("favicon.svg"))?;
    // Fixed addresses (the home bundle names them), revalidated like the pages; shown lazily, so
    // they are no part of a page's first load.
    std::fs::create_dir_all(dist.join("pictures"))?;
    for (game, svg) in &manifest.pictures {
        std::fs::write(dist.join("pictures").join(format!("{game}.svg")), svg)?;
        eprintln!("xtask: pictures/{game}.svg: {} bytes gzipped", compress::gzipped_size(svg.as_bytes())?);
    }
    let mut report = budget::Report::default();
    let shown = |page: &Page| {
        let rooms_built = bundles.keys().any(|name| name.ends_with("-room"));
        only.is_none() || bundles.contains_key(&page.bundle) || (page.bundle == "loader" && rooms_built)
    };
    let public = known_public_url();
    // Each bundle's start script (pages of one bundle share it).
    let mut starts: BTreeMap<String, Asset> = BTreeMap::new();
    for page in manifest.pages.iter().filter(|p| shown(p)) {
        if !starts.contains_key(&page.bundle) {
            let start = Asset::new(
                &format!("start-{}", page.bundle),
                "js",
                start_script(&page.bundle, &bundles, &globals)?.into_bytes(),
            );
            std::fs::write(assets.join(&start.name), &start.bytes)?;
            starts.insert(page.bundle.clone(), start);
        }
        let start = &starts[&page.bundle];
        let game_css = page.game.as_ref().and_then(|g| manifest.styles.get(g)).map(String::as_str);
        // Rooms show none of the pages' own parts (lobby, game cards, options, rules).
        let css = if page.bundle == "loader" {
            css.trim().to_owned()
        } else {
            format!("{}{}", css.trim(), manifest.pages_style.trim())
        };
        let html = page_html(page, &css, game_css, &bundles, &start.url(), public.as_deref())?;
        let file = dist.join(&page.file);
        std::fs::create_dir_all(file.parent().expect("inside dist"))?;
        std::fs::write(&file, &html)?;
        report.page(page, &html, &start.bytes, &bundles)?;
    }
    report.bundles(&bundles);
    // The puzzle's pages work offline: each offline bundle with its pages' start script.
    let offline: Vec<(&Bundle, String)> =
        OFFLINE_BUNDLES.iter().filter_map(|name| Some((bundles.get(*name)?, starts.get(*name)?.url()))).collect();
    if offline.len() == OFFLINE_BUNDLES.len() {
        let pages =
            [std::fs::read(dist.join("triplex.html"))?, std::fs::read(dist.join("triplex/level.html"))?].concat();
        std::fs::write(dist.join("sw.js"), service_worker(&offline, &locale_files, &pages)?)?;
    }
    std::fs::write(dist.join("web-push.js"), pages::web_push_script()?)?;
    write_crawler_files(&dist, &manifest.pages)?;
    // Vercel compresses what it serves; the copies are for `tabula serve`.
    if std::env::var_os("VERCEL").is_none() {
        precompress(&dist)?;
    }
    eprintln!("xtask: site built in {}; first load of each page:\n{}", dist.display(), report.text());
    report.check()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asset_names_follow_their_content() {
        assert_eq!(hashed("go", "js", b"a"), hashed("go", "js", b"a"));
        assert_ne!(hashed("go", "js", b"a"), hashed("go", "js", b"b"));
        assert!(hashed("home", "wasm", b"x").starts_with("home-") && hashed("home", "wasm", b"x").ends_with(".wasm"));
    }
}
