//! Builds the web app into `site/dist`: every page's HTML pre-rendered by the site's own components
//! (`tabula-site`'s `prerender` binary), one WASM bundle per game plus a home bundle (each with its
//! JS glue from wasm-bindgen used as a library, minified), content-hashed assets, the robots file and
//! sitemap, and gzip and brotli copies for `tabula serve`. Then it checks each page's first load
//! against its budget.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::{bundle_cache, ensure_wasm_target, workspace_root};

/// A page's first load (its HTML, the JS and WASM its script loads), gzipped, must stay under this;
/// the home, which carries no game engine, under the smaller one.
const PAGE_BUDGET: usize = 250_000;
const HOME_BUDGET: usize = 150_000;

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

fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

const BROTLI_QUALITY: i32 = 11;
const BROTLI_WINDOW: i32 = 22;

fn brotli(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let params =
        brotli::enc::BrotliEncoderParams { quality: BROTLI_QUALITY, lgwin: BROTLI_WINDOW, ..Default::default() };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)?;
    Ok(out)
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

/// The caller's rustflags (in cargo's encoding: paths may hold spaces) plus the paths rustc writes
/// into panic locations made relative: the bundle does not carry the builder's home directory, is
/// the same whoever builds it, and is smaller. The workspace's own sources are already relative
/// (cargo passes them so); what is left is the registry and generated files in the target
/// directory. No flag names the workspace: a copy of it elsewhere (`cargo xtask vercel-build`)
/// sharing the target directory then finds every bundle built.
fn remapped_rustflags() -> String {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap_or_default();
    let mut flags: Vec<String> = match std::env::var("CARGO_ENCODED_RUSTFLAGS") {
        Ok(encoded) => encoded.split('\x1f').filter(|f| !f.is_empty()).map(str::to_owned).collect(),
        Err(_) => std::env::var("RUSTFLAGS").unwrap_or_default().split_whitespace().map(str::to_owned).collect(),
    };
    // Each registry's sources (`registry/src/index.crates.io-<hash>`) and the target directory, by
    // short names: a panic location is a path string in the bundle.
    let registries = std::fs::read_dir(cargo_home.join("registry/src")).into_iter().flatten().flatten();
    for from in registries.map(|entry| entry.path()) {
        flags.push(format!("--remap-path-prefix={}=c", from.display()));
    }
    let target = std::path::absolute(target_dir()).unwrap_or_else(|_| target_dir());
    flags.push(format!("--remap-path-prefix={}=t", target.display()));
    flags.join("\x1f")
}

/// The computer players' bundle: loaded by the Web Worker of a game against the computer, never
/// on a page's first load.
const AI_BUNDLE: &str = "ai";

/// The `ai` bundle's engine at full speed, the rest of it as every bundle: at opt-level "z" the
/// worker ran POPUCOM playouts at 54% of native speed, with the engine at 3 at 90 to 99%, for 23 KB
/// more gzip (docs/AI.md). A setting of the site's profile rather than a profile of its own, so
/// the bundles share their compiled dependencies (a profile of its own compiled them twice).
const AI_ENGINE: &str = "profile.site-release.package.tabula-core.opt-level=3";

/// Builds one bundle with its features only (the site's default features are everything).
fn build_bundle(
    spec: &BundleSpec,
    assets: &Path,
    variants: &[PathBuf; 2],
    pieces: &str,
    wasm_opt: &Path,
) -> Result<Bundle> {
    let name = spec.name.as_str();
    let features = spec.features.join(",");
    let profile = "site-release";
    let mut args = vec![
        "build",
        "--package",
        "tabula-site",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        profile,
        "--no-default-features",
    ];
    args.extend(["--features", &features]);
    // The computer players' bundle trades size for the engine's speed (`AI_ENGINE`).
    if name == AI_BUNDLE {
        args.extend(["--config", AI_ENGINE]);
    }
    let rustflags = remapped_rustflags();
    let envs = [
        ("TABULA_FAIRY_VARIANTS", variants[0].as_os_str()),
        ("TABULA_FAIRY_CHESS", variants[1].as_os_str()),
        ("TABULA_PIECES", OsStr::new(pieces)),
    ];
    let key = bundle_cache::key(&args.join(" "), &rustflags, &envs)?;
    let wasm = match bundle_cache::cached(name, &key) {
        Some(kept) => {
            eprintln!("xtask: bundle {name} built before from the same inputs ({key})");
            kept
        }
        None => {
            eprintln!("xtask: cargo {}", args.join(" "));
            let status = Command::new("cargo")
                .args(&args)
                .envs(envs)
                .env("CARGO_ENCODED_RUSTFLAGS", &rustflags)
                .env_remove("RUSTFLAGS")
                .current_dir(workspace_root())
                .status()
                .context("could not start cargo")?;
            if !status.success() {
                bail!("cargo {} failed ({status})", args.join(" "));
            }
            let built = target_dir().join(format!("wasm32-unknown-unknown/{profile}/tabula_site.wasm"));
            bundle_cache::keep(name, &key, &built)?
        }
    };
    let scratch = target_dir().join(format!("site-bindgen/{name}"));
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch)?;
    }
    eprintln!("xtask: wasm-bindgen {} ({name})", wasm.display());
    let mut output = wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)?
        .out_name(name)
        .typescript(false)
        .omit_default_module_path(true)
        // TABULA_WASM_NAMES=1 keeps function names, for profiling (larger files, over budget).
        .remove_name_section(std::env::var_os("TABULA_WASM_NAMES").is_none())
        .remove_producers_section(true)
        .generate_output()
        .context("wasm-bindgen")?;
    crate::float_formatting::drop(output.wasm_mut()).with_context(|| format!("bundle {name}"))?;
    output.emit(&scratch).context("wasm-bindgen")?;
    let js = minify_js(&std::fs::read_to_string(scratch.join(format!("{name}.js")))?)?;
    let arguments = wasm_opt_arguments();
    let optimise = |input: &Path, output: &Path| optimise_wasm(wasm_opt, &arguments, input, output);
    let settings = format!("{} {}", wasm_opt.display(), arguments.join(" "));
    let optimised = bundle_cache::optimised(name, &scratch.join(format!("{name}_bg.wasm")), &settings, optimise)?;
    let wasm = std::fs::read(&optimised)?;
    let (js_name, wasm_name) = (hashed(name, "js", js.as_bytes()), hashed(name, "wasm", &wasm));
    std::fs::write(assets.join(&js_name), &js)?;
    std::fs::write(assets.join(&wasm_name), &wasm)?;
    let gzipped = gzip(js.as_bytes())?.len() + gzip(&wasm)?.len();
    Ok(Bundle { js: format!("/assets/{js_name}"), wasm: format!("/assets/{wasm_name}"), gzipped })
}

/// Binaryen's `-O1`, duplicate-function and dead-argument elimination, and alignment hints dropped
/// (hints only: WebAssembly allows any alignment; one value for all compresses better): 3% off a
/// bundle's gzip, where `-Os`, `-Oz` and `-O2` make it 7% *larger* (their inlining and function
/// reordering compress worse; measured in `docs/PERFORMANCE.md`). Passes run in the order given.
fn wasm_opt_arguments() -> Vec<&'static str> {
    let mut arguments = vec![
        // What rustc's wasm32 target emits by default.
        "--enable-bulk-memory",
        "--enable-sign-ext",
        "--enable-mutable-globals",
        "--enable-nontrapping-float-to-int",
        "--enable-reference-types",
        "--enable-multivalue",
        // The passes.
        "-O1",
        "--duplicate-function-elimination",
        "--dae-optimizing",
        "--duplicate-function-elimination",
        "--dealign",
    ];
    if std::env::var_os("TABULA_WASM_NAMES").is_some() {
        arguments.push("--debuginfo");
    }
    arguments
}

fn optimise_wasm(wasm_opt: &Path, arguments: &[&str], input: &Path, output: &Path) -> Result<()> {
    let mut command = Command::new(wasm_opt);
    command.args(arguments).arg(input).arg("-o").arg(output);
    let result = command.output().with_context(|| format!("could not run {}", wasm_opt.display()))?;
    if !result.status.success() {
        bail!("wasm-opt {} failed ({}):\n{}", input.display(), result.status, String::from_utf8_lossy(&result.stderr));
    }
    Ok(())
}

/// The JS glue, minified (oxc): whitespace, comments and local names.
fn minify_js(source: &str) -> Result<String> {
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, source, oxc_span::SourceType::mjs()).parse();
    if parsed.panicked || parsed.diagnostics.has_errors() {
        let errors: Vec<String> = parsed.diagnostics.errors().map(|e| e.to_string()).collect();
        bail!("the JS glue does not parse: {}", errors.join("; "));
    }
    let mut program = parsed.program;
    let options = oxc_minifier::MinifierOptions::default();
    let minified = oxc_minifier::Minifier::new(options).minify(&allocator, &mut program);
    let codegen = oxc_codegen::Codegen::new()
        .with_options(oxc_codegen::CodegenOptions::minify())
        .with_scoping(minified.scoping)
        .build(&program);
    Ok(codegen.code)
}

/// A Rust panic in the app ends in a WebAssembly trap, after which the page looks alive and does
/// nothing: say so instead (and mark the page, for the tests).
const CRASH_NOTICE: &str = "addEventListener(\"error\", (event) => { if (!(event.error instanceof WebAssembly.RuntimeError) \
    || document.documentElement.dataset.panic) return; document.documentElement.dataset.panic = \"1\"; \
    const notice = document.createElement(\"p\"); notice.className = \"crash\"; notice.setAttribute(\"role\", \"alert\"); \
    notice.textContent = \"Something went wrong. Please reload the page.\"; document.body.prepend(notice); });";

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The script that starts a page: its bundle, or for rooms, the bundle of the room's game (read
/// from the API first; a room that cannot be read gets the home bundle, which explains).
fn start_script(page: &Page, bundles: &BTreeMap<String, Bundle>, locales: &str) -> String {
    let start =
        |b: &Bundle| format!("{locales} import init from \"{}\"; init({{ module_or_path: \"{}\" }});", b.js, b.wasm);
    if page.bundle != "loader" {
        return start(&bundles[&page.bundle]);
    }
    // The loader starts a room bundle, or the home bundle for a room it cannot read: it names no other.
    let table: Vec<String> = bundles
        .iter()
        .filter(|(name, _)| name.ends_with("-room") || *name == "home")
        .map(|(name, b)| format!("\"{name}\": [\"{}\", \"{}\"]", b.js, b.wasm))
        .collect();
    // Writes the room's code and link into the pre-rendered heading at once, asks the API for the
    // room (the app takes that answer: `tabulaRoom`), and starts the room bundle of its game: at
    // once for a seat this browser remembers, else once the room is read.
    format!(
        "{locales} const bundles = {{ {} }}; const code = location.pathname.split(\"/\")[2] || \"\"; \
         const name = document.querySelector(\".room-name\"); if (name) name.textContent = name.textContent.trim() + \" \" + code; \
         const link = document.querySelector(\".share-url code\"); if (link) link.textContent = location.origin + \"/room/\" + code; \
         const start = async (game) => {{ const [js, wasm] = bundles[game]; const module = await import(js); module.default({{ module_or_path: wasm }}); }}; \
         const room = fetch(\"/api/game?roomId=\" + encodeURIComponent(code)).then((a) => a.ok ? a.json() : null).catch(() => null); \
         window.tabulaRoom = room; let seat = null; try {{ seat = JSON.parse(localStorage.getItem(\"tabula.seat.\" + code)); }} catch (e) {{}} \
         const known = seat && seat.game && bundles[seat.game + \"-room\"] ? seat.game + \"-room\" : null; \
         if (known) {{ start(known); }} else {{ const found = await room; start(found && bundles[found.game + \"-room\"] ? found.game + \"-room\" : \"home\"); }}",
        table.join(", ")
    )
}

fn page_html(
    page: &Page,
    css: &str,
    game_css: Option<&str>,
    bundles: &BTreeMap<String, Bundle>,
    locales: &str,
    public: Option<&str>,
) -> Result<String> {
    let mut head = vec![
        "<meta charset=\"utf-8\">".to_owned(),
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">".to_owned(),
        "<meta name=\"theme-color\" content=\"#141826\">".to_owned(),
        format!("<title>{}</title>", escape(&page.title)),
        format!("<meta name=\"description\" content=\"{}\">", escape(&page.description)),
        "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">".to_owned(),
    ];
    if page.noindex {
        head.push("<meta name=\"robots\" content=\"noindex\">".to_owned());
    } else {
        // What a shared link shows: the site's generic card. A link-preview crawler asking for a
        // room (the noindex page) gets that room's own card from the API (`api/_lib/card/`).
        head.push("<meta property=\"og:site_name\" content=\"Tabula\">".to_owned());
        head.push(format!("<meta property=\"og:title\" content=\"{}\">", escape(&page.title)));
        head.push(format!("<meta property=\"og:description\" content=\"{}\">", escape(&page.description)));
        // Crawlers want absolute addresses; a build that does not know its own (a local one)
        // leaves the image's relative and names no page address.
        if let Some(base) = public {
            head.push(format!("<meta property=\"og:url\" content=\"{}\">", escape(&format!("{base}{}", page.path))));
        }
        let image = format!("{}/api/card", public.unwrap_or(""));
        head.push(format!("<meta property=\"og:image\" content=\"{}\">", escape(&image)));
        head.push("<meta name=\"twitter:card\" content=\"summary_large_image\">".to_owned());
    }
    // Fetch the bundle while the page paints (rooms learn their bundle from the API first).
    if let Some(bundle) = bundles.get(&page.bundle) {
        head.push(format!("<link rel=\"modulepreload\" href=\"{}\">", bundle.js));
        head.push(format!(
            "<link rel=\"preload\" href=\"{}\" as=\"fetch\" type=\"application/wasm\" crossorigin>",
            bundle.wasm
        ));
    }
    head.push(format!("<style>{css}</style>"));
    if let (Some(game), Some(game_css)) = (&page.game, game_css) {
        head.push(format!("<style id=\"css-{game}\">{}</style>", game_css.trim()));
    }
    // Inline scripts minified like the bundles' glue: every page's first load carries them.
    head.push(format!("<script>{}</script>", minify_js(CRASH_NOTICE)?));
    if page.bundle == OFFLINE_BUNDLE {
        head.push(format!("<script>{}</script>", minify_js(REGISTER_SERVICE_WORKER)?));
    }
    head.push(format!("<script type=\"module\">{}</script>", minify_js(&start_script(page, bundles, locales))?));
    Ok(format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n{}\n</head>\n<body>{}</body>\n</html>\n",
        head.join("\n"),
        page.body
    ))
}

/// The bundle whose pages work offline once visited (the puzzle needs no server to be played).
const OFFLINE_BUNDLE: &str = "triplex";
const REGISTER_SERVICE_WORKER: &str =
    "if (\"serviceWorker\" in navigator) navigator.serviceWorker.register(\"/sw.js\", { scope: \"/triplex\" });";

/// The service worker of the Triplex pages: it keeps their pages, bundle and languages in a cache
/// named after their content (so a new build replaces it), serves pages from the network when it
/// answers and from the cache when not (every `/triplex/<n>` is the level page), and assets from
/// the cache first. The API is never cached: records need the server.
fn service_worker(bundle: &Bundle, locale_files: &[String], pages: &[u8]) -> String {
    let mut urls = vec!["/triplex".to_owned(), "/triplex/level".to_owned(), "/favicon.svg".to_owned()];
    urls.extend([bundle.js.clone(), bundle.wasm.clone()]);
    urls.extend(locale_files.iter().map(|name| format!("/assets/{name}")));
    let list: Vec<String> = urls.iter().map(|u| format!("\"{u}\"")).collect();
    // The pages' own text is in the name too: a build that changes only a page replaces the cache.
    let cache = hashed("tabula-triplex", "v", &[list.join(",").as_bytes(), pages].concat());
    format!(
        "const CACHE = \"{cache}\";\nconst PRECACHE = [{}];\n{}",
        list.join(", "),
        r#"self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (event.request.mode === "navigate") {
    const page = /^\/triplex\/\d+$/.test(url.pathname) ? "/triplex/level" : url.pathname;
    event.respondWith(fetch(event.request).catch(() => caches.match(page).then((found) => found || Response.error())));
    return;
  }
  event.respondWith(caches.match(event.request).then((found) => found || fetch(event.request)));
});
"#
    )
}

/// The site's public address, when the build knows it: `TABULA_PUBLIC_URL`, else Vercel's
/// production address when building there.
fn known_public_url() -> Option<String> {
    if let Ok(url) = std::env::var("TABULA_PUBLIC_URL") {
        return Some(url.trim_end_matches('/').to_owned());
    }
    std::env::var("VERCEL_PROJECT_PRODUCTION_URL").ok().filter(|host| !host.is_empty()).map(|h| format!("https://{h}"))
}

/// The address the sitemap and robots file name: the public one, else the local server's.
fn write_crawler_files(dist: &Path, pages: &[Page]) -> Result<()> {
    let base = known_public_url().unwrap_or_else(|| "http://localhost:3000".to_owned());
    let urls: String =
        pages.iter().filter(|p| p.public).map(|p| format!("  <url><loc>{base}{}</loc></url>\n", p.path)).collect();
    std::fs::write(
        dist.join("sitemap.xml"),
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{urls}</urlset>\n"),
    )?;
    // Rooms are private games: not for search engines (their pages also say noindex).
    std::fs::write(
        dist.join("robots.txt"),
        format!("User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: {base}/sitemap.xml\n"),
    )?;
    Ok(())
}

/// Gzip and brotli copies of every compressible file, which `tabula serve` sends by
/// `Accept-Encoding` (Vercel compresses by itself). Kept between builds by content
/// (`bundle_cache::compressed`), and made on both cores.
fn precompress(dir: &Path) -> Result<()> {
    let mut files = Vec::new();
    compressible_files(dir, &mut files)?;
    let brotli_settings = format!("brotli {BROTLI_QUALITY} {BROTLI_WINDOW}");
    let copies: [(&str, &str, fn(&[u8]) -> Result<Vec<u8>>); 2] =
        [("gz", "gzip best", gzip), ("br", &brotli_settings, brotli)];
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Each thread takes every `threads`-th file and returns the kept copies it used.
    let used = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|first| {
                let (files, copies) = (&files, &copies);
                scope.spawn(move || -> Result<Vec<PathBuf>> {
                    let mut used = Vec::new();
                    for path in files.iter().skip(first).step_by(threads) {
                        let bytes = std::fs::read(path)?;
                        let name = path.file_name().expect("a file").to_string_lossy().into_owned();
                        for (ext, settings, compress) in copies {
                            let kept = bundle_cache::compressed(&bytes, settings, *compress)?;
                            std::fs::copy(&kept, path.with_file_name(format!("{name}.{ext}")))?;
                            used.push(kept);
                        }
                    }
                    Ok(used)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a compressing thread panicked"))
            .collect::<Result<Vec<_>>>()
    })?;
    bundle_cache::forget_compressed_but(&used.concat())
}

fn compressible_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            compressible_files(&path, files)?;
            continue;
        }
        let compressible = ["html", "js", "wasm", "css", "svg", "xml", "txt", "json"];
        if path.extension().and_then(|e| e.to_str()).is_some_and(|e| compressible.contains(&e)) {
            files.push(path);
        }
    }
    Ok(())
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
    eprintln!("xtask: {}: {} bytes gzipped", pieces.name, gzip(&pieces.bytes)?.len());
    let mut bundles = BTreeMap::new();
    for spec in manifest.bundles.iter().filter(|s| wanted(&s.name)) {
        bundles.insert(spec.name.clone(), build_bundle(spec, &assets, &variants, &pieces.url(), &wasm_opt)?);
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

    let mut locales = format!("window.tabulaLocales = {{ {} }};", locale_urls.join(", "));
    // Where local games find the computer player, which they start in a Web Worker.
    if let Some(ai) = bundles.get(AI_BUNDLE) {
        locales += &format!(" window.tabulaAi = [\"{}\", \"{}\"];", ai.js, ai.wasm);
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
    let mut report = Vec::new();
    let mut over = Vec::new();
    let shown = |page: &Page| {
        let rooms_built = bundles.keys().any(|name| name.ends_with("-room"));
        only.is_none() || bundles.contains_key(&page.bundle) || (page.bundle == "loader" && rooms_built)
    };
    let public = known_public_url();
    for page in manifest.pages.iter().filter(|p| shown(p)) {
        let game_css = page.game.as_ref().and_then(|g| manifest.styles.get(g)).map(String::as_str);
        // Rooms show none of the pages' own parts (lobby, game cards, options, rules).
        let css = if page.bundle == "loader" {
            css.trim().to_owned()
        } else {
            format!("{}{}", css.trim(), manifest.pages_style.trim())
        };
        let html = page_html(page, &css, game_css, &bundles, &locales, public.as_deref())?;
        let file = dist.join(&page.file);
        std::fs::create_dir_all(file.parent().expect("inside dist"))?;
        std::fs::write(&file, &html)?;
        // A room loads the room bundle of its game: count the largest.
        let bundle = match bundles.get(&page.bundle) {
            Some(bundle) => bundle.gzipped,
            None => bundles.iter().filter(|(n, _)| n.ends_with("-room")).map(|(_, b)| b.gzipped).max().unwrap_or(0),
        };
        let total = gzip(html.as_bytes())?.len() + bundle;
        let budget = if page.path == "/" { HOME_BUDGET } else { PAGE_BUDGET };
        report.push(format!("  {:<16} {:<9} {total:>7} bytes gzipped (budget {budget})", page.path, page.bundle));
        if total > budget {
            over.push(format!("{} ({total} > {budget})", page.path));
        }
    }
    for (name, bundle) in &bundles {
        report.push(format!("  bundle {name:<13} {:>7} bytes gzipped (JS and WASM)", bundle.gzipped));
    }
    if let Some(bundle) = bundles.get(OFFLINE_BUNDLE) {
        let pages =
            [std::fs::read(dist.join("triplex.html"))?, std::fs::read(dist.join("triplex/level.html"))?].concat();
        std::fs::write(dist.join("sw.js"), service_worker(bundle, &locale_files, &pages))?;
    }
    write_crawler_files(&dist, &manifest.pages)?;
    // Vercel compresses what it serves; the copies are for `tabula serve`.
    if std::env::var_os("VERCEL").is_none() {
        precompress(&dist)?;
    }
    eprintln!("xtask: site built in {}; first load of each page:\n{}", dist.display(), report.join("\n"));
    if !over.is_empty() {
        bail!("over budget: {}", over.join(", "));
    }
    Ok(())
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

    #[test]
    fn shared_links_name_absolute_addresses_when_the_build_knows_the_site_s() {
        let page = Page {
            path: "/go".into(),
            file: "go.html".into(),
            bundle: "go-page".into(),
            title: "Go".into(),
            description: "Play Go".into(),
            noindex: false,
            public: true,
            game: Some("go".into()),
            body: String::new(),
        };
        let bundle = Bundle { js: "/assets/go-page.js".into(), wasm: "/assets/go-page.wasm".into(), gzipped: 1 };
        let bundles = BTreeMap::from([("go-page".to_owned(), bundle)]);
        let html = |public| page_html(&page, "", None, &bundles, "{}", public).unwrap();
        let known = html(Some("https://tabula.example"));
        assert!(known.contains(r#"<meta property="og:image" content="https://tabula.example/api/card">"#), "{known}");
        assert!(known.contains(r#"<meta property="og:url" content="https://tabula.example/go">"#), "{known}");
        let local = html(None);
        assert!(local.contains(r#"<meta property="og:image" content="/api/card">"#), "{local}");
        assert!(!local.contains("og:url"), "no relative page address: {local}");
    }

    #[test]
    fn the_minifier_keeps_the_glue_working() {
        let source = "export function add(first, second) { /* why */ const total = first + second; return total; }";
        let minified = minify_js(source).unwrap();
        assert!(minified.len() < source.len() / 2, "{minified}");
        assert!(minified.contains("export") && minified.contains("add"), "{minified}");
        assert!(minify_js("export function (").is_err());
    }
}

/// Each stylesheet is inlined on its own, so each must close every rule it opens: a rule split
/// across two files (as once happened to Go's board) silently drops the rules after it.
fn check_css(name: &str, css: &str) -> Result<()> {
    let mut depth = 0i32;
    let mut rest = css;
    while let Some(at) = rest.find(['{', '}', '/']) {
        let (ch, after) = (rest.as_bytes()[at], &rest[at + 1..]);
        rest = match ch {
            b'/' if after.starts_with('*') => match after.find("*/") {
                Some(end) => &after[end + 2..],
                None => bail!("{name}: a comment is never closed"),
            },
            b'{' => {
                depth += 1;
                after
            }
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    bail!(
                        "{name}: a '}}' closes no rule, near {:?}",
                        &css[..css.len() - after.len()].lines().last().unwrap_or("")
                    );
                }
                after
            }
            _ => after,
        };
    }
    if depth != 0 {
        bail!("{name}: {depth} rule(s) never closed");
    }
    Ok(())
}

#[cfg(test)]
mod css_tests {
    use super::check_css;

    #[test]
    fn a_rule_split_across_files_is_caught() {
        assert!(check_css("ok", ".a { color: red; } /* { */ .b { x: y; }").is_ok());
        assert!(check_css("opened", ".go-board { display: grid;\n.b { x: y; }").is_err());
        assert!(check_css("closed", "  background: wood; }\n.c { x: y; }").is_err());
        assert!(check_css("comment", ".a { } /* never closed").is_err());
    }
}
