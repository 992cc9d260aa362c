//! The pages around the bundles: each page's HTML (its head, inlined styles and start script), the
//! Triplex pages' service worker, and the sitemap and robots file. The scripts are real files in
//! `scripts/`, with their build-time values written in where they name `TABULA_...`.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Result};

use super::bundle::minify_js;
use super::{hashed, Bundle, Page};

/// The scripts every page or some pages start with, minified at build time.
const CRASH_NOTICE: &str = include_str!("scripts/crash-notice.js");
const REGISTER_SERVICE_WORKER: &str = include_str!("scripts/register-service-worker.js");
const ROOM_LOADER: &str = include_str!("scripts/room-loader.js");
const SERVICE_WORKER: &str = include_str!("scripts/service-worker.js");
const AI_WORKER: &str = include_str!("scripts/ai-worker.js");
const WEB_PUSH: &str = include_str!("scripts/web-push.js");

/// `web-push.js`: what a room page loads when its player wants "your move" notifications.
pub fn web_push_script() -> Result<String> {
    minify_js(WEB_PUSH)
}

/// `script` with each `(placeholder, value)` written in; fails if a placeholder is missing, so a
/// renamed one cannot ship unreplaced.
fn filled(script: &str, values: &[(&str, &str)]) -> Result<String> {
    let mut text = script.to_owned();
    for (placeholder, value) in values {
        if !text.contains(placeholder) {
            bail!("a script names no {placeholder}");
        }
        text = text.replace(placeholder, value);
    }
    Ok(text)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The script that starts a page, served as a file of its own (`/assets/start-<bundle>-<hash>.js`):
/// the site's Content-Security-Policy (`vercel.json`) allows no inline script. Every page's says
/// when the app crashed and where the languages and the computer player are (`globals`); the
/// Triplex pages' registers their service worker; then it starts the page's bundle, or for rooms
/// the bundle of the room's game (`scripts/room-loader.js`).
pub fn start_script(bundle: &str, bundles: &BTreeMap<String, Bundle>, globals: &str) -> Result<String> {
    let mut script = format!("{CRASH_NOTICE}\n{globals}\n");
    if OFFLINE_BUNDLES.contains(&bundle) {
        script += REGISTER_SERVICE_WORKER;
    }
    if bundle != "loader" {
        let bundle = &bundles[bundle];
        script += &format!("import init from \"{}\"; init({{ module_or_path: \"{}\" }});", bundle.js, bundle.wasm);
    } else {
        // The loader starts a room bundle, or the home bundle for a room it cannot read: it names no other.
        let table: Vec<String> = bundles
            .iter()
            .filter(|(name, _)| name.ends_with("-room") || *name == "home")
            .map(|(name, b)| format!("\"{name}\": [\"{}\", \"{}\"]", b.js, b.wasm))
            .collect();
        script += &filled(ROOM_LOADER, &[("TABULA_BUNDLES", &format!("{{ {} }}", table.join(", ")))])?;
    }
    minify_js(&script)
}

/// The computer player's worker script (`scripts/ai-worker.js`), naming the `ai` bundle's files.
pub fn ai_worker(ai: &Bundle) -> Result<String> {
    minify_js(&filled(AI_WORKER, &[("TABULA_AI_JS", &ai.js), ("TABULA_AI_WASM", &ai.wasm)])?)
}

pub fn page_html(
    page: &Page,
    css: &str,
    game_css: Option<&str>,
    bundles: &BTreeMap<String, Bundle>,
    start: &str,
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
        if let Some(loader) = &bundle.split_loader {
            head.push(format!("<link rel=\"modulepreload\" href=\"{loader}\">"));
        }
        head.push(format!(
            "<link rel=\"preload\" href=\"{}\" as=\"fetch\" type=\"application/wasm\" crossorigin>",
            bundle.wasm
        ));
    }
    head.push(format!("<style>{css}</style>"));
    if let (Some(game), Some(game_css)) = (&page.game, game_css) {
        head.push(format!("<style id=\"css-{game}\">{}</style>", game_css.trim()));
    }
    // The start script (`start_script`), at `start`: no inline script.
    head.push(format!("<script type=\"module\" src=\"{start}\"></script>"));
    Ok(format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n{}\n</head>\n<body>{}</body>\n</html>\n",
        head.join("\n"),
        page.body
    ))
}

/// The bundles whose pages work offline once visited (the puzzle needs no server to be played): its
/// level select's and its levels'.
pub const OFFLINE_BUNDLES: [&str; 2] = ["triplex-page", "triplex"];

/// The service worker of the Triplex pages (`scripts/service-worker.js`): the URLs it keeps (each
/// offline bundle and its pages' start script), and a cache name that changes with them and with
/// the pages' own text (a build that changes only a page replaces the cache).
pub fn service_worker(bundles: &[(&Bundle, String)], locale_files: &[String], pages: &[u8]) -> Result<String> {
    let mut urls = vec!["/triplex".to_owned(), "/triplex/level".to_owned(), "/favicon.svg".to_owned()];
    for (bundle, start) in bundles {
        urls.extend([start.clone(), bundle.js.clone(), bundle.wasm.clone()]);
        urls.extend(bundle.split_loader.iter().chain(&bundle.on_demand).cloned());
    }
    urls.extend(locale_files.iter().map(|name| format!("/assets/{name}")));
    let list: Vec<String> = urls.iter().map(|u| format!("\"{u}\"")).collect();
    let cache = hashed("tabula-triplex", "v", &[list.join(",").as_bytes(), pages].concat());
    let precache = format!("[{}]", list.join(", "));
    minify_js(&filled(SERVICE_WORKER, &[("TABULA_CACHE", &format!("\"{cache}\"")), ("TABULA_PRECACHE", &precache)])?)
}

/// The site's public address, when the build knows it: `TABULA_PUBLIC_URL`, else Vercel's
/// production address when building there.
pub fn known_public_url() -> Option<String> {
    if let Ok(url) = std::env::var("TABULA_PUBLIC_URL") {
        return Some(url.trim_end_matches('/').to_owned());
    }
    std::env::var("VERCEL_PROJECT_PRODUCTION_URL").ok().filter(|host| !host.is_empty()).map(|h| format!("https://{h}"))
}

/// The address the sitemap and robots file name: the public one, else the local server's.
pub fn write_crawler_files(dist: &Path, pages: &[Page]) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn page_of(path: &str) -> Page {
        Page {
            path: path.into(),
            file: "go.html".into(),
            bundle: "go-page".into(),
            title: "Go".into(),
            description: "Play Go".into(),
            noindex: false,
            public: true,
            game: Some("go".into()),
            body: String::new(),
        }
    }

    #[test]
    fn shared_links_name_absolute_addresses_when_the_build_knows_the_site_s() {
        let page = page_of("/go");
        let bundle = Bundle {
            js: "/assets/go-page.js".into(),
            wasm: "/assets/go-page.wasm".into(),
            gzipped: 1,
            split_loader: None,
            on_demand: Vec::new(),
        };
        let bundles = BTreeMap::from([("go-page".to_owned(), bundle)]);
        let html = |public| page_html(&page, "", None, &bundles, "/assets/start-go-page.js", public).unwrap();
        let known = html(Some("https://tabula.example"));
        assert!(known.contains(r#"<meta property="og:image" content="https://tabula.example/api/card">"#), "{known}");
        assert!(known.contains(r#"<meta property="og:url" content="https://tabula.example/go">"#), "{known}");
        let local = html(None);
        assert!(local.contains(r#"<meta property="og:image" content="/api/card">"#), "{local}");
        assert!(!local.contains("og:url"), "no relative page address: {local}");
        // The security policy allows no inline script: the page names its start script.
        assert!(local.contains(r#"<script type="module" src="/assets/start-go-page.js"></script>"#), "{local}");
        assert_eq!(local.matches("<script").count(), 1, "{local}");
    }

    #[test]
    fn the_scripts_parse_once_their_build_values_are_written_in() {
        assert_eq!(filled("const a = TABULA_X;", &[("TABULA_X", "1")]).unwrap(), "const a = 1;");
        assert!(filled("const a = 1;", &[("TABULA_X", "1")]).is_err(), "a placeholder the script lacks");
        let bundle = Bundle {
            js: "/assets/home.js".into(),
            wasm: "/assets/home.wasm".into(),
            gzipped: 1,
            split_loader: None,
            on_demand: Vec::new(),
        };
        let worker =
            service_worker(&[(&bundle, "/assets/start-triplex.js".into())], &["locale-fr.json".into()], b"<html>")
                .unwrap();
        assert!(worker.contains("/assets/locale-fr.json") && !worker.contains("TABULA_"), "{worker}");
        assert!(worker.contains("/assets/start-triplex.js"), "the start script works offline too: {worker}");
        let ai = ai_worker(&bundle).unwrap();
        assert!(ai.contains("/assets/home.js") && ai.contains("/assets/home.wasm") && !ai.contains("TABULA_"), "{ai}");
        let bundles = BTreeMap::from([("home".to_owned(), bundle)]);
        let globals = "window.tabulaLocales = {};";
        let loader = start_script("loader", &bundles, globals).unwrap();
        assert!(loader.contains("/assets/home.wasm") && !loader.contains("TABULA_"), "{loader}");
        let home = start_script("home", &bundles, globals).unwrap();
        assert!(home.contains("/assets/home.js") && home.contains("tabulaLocales"), "{home}");
        assert!(home.contains("WebAssembly.RuntimeError"), "every page says when the app crashed: {home}");
        assert!(!home.contains("serviceWorker"), "only the Triplex pages work offline: {home}");
    }
}
