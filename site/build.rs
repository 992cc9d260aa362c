//! Compiles the Fluent files (`locales/*.ftl`) into sorted tables of `(id, pattern)` at build time,
//! with Fluent's own parser. The WASM build gets English only; the build writes the other tables as
//! JSON files the browser fetches (`prerender.rs`). The site's messages use only text and `{ $variable }`, so the browser
//! needs no Fluent runtime (its parser, plural rules and number formatting weighed about 20 KB of
//! the gzipped first load); anything else in a file fails the build here, naming the message.

use std::fmt::Write as _;
use std::path::Path;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, PatternElement};

const LANGUAGES: [(&str, &str); 6] =
    [("ZH_CN", "zh-CN"), ("EN", "en"), ("JA", "ja"), ("RU", "ru"), ("FR", "fr"), ("DE", "de")];

fn compile(tag: &str, source: &str) -> Vec<(String, String)> {
    let resource = fluent_syntax::parser::parse(source)
        .unwrap_or_else(|(_, errors)| panic!("locales/{tag}.ftl does not parse: {errors:?}"));
    let mut messages = Vec::new();
    for entry in resource.body {
        let Entry::Message(message) = entry else { continue };
        let id = message.id.name.to_owned();
        let pattern = message.value.unwrap_or_else(|| panic!("{tag}: message {id} has no value"));
        let mut text = String::new();
        for element in pattern.elements {
            match element {
                PatternElement::TextElement { value } => text.push_str(value),
                PatternElement::Placeable {
                    expression: Expression::Inline(InlineExpression::VariableReference { id: variable }),
                } => {
                    let _ = write!(text, "{{${}}}", variable.name);
                }
                other => panic!("{tag}: message {id} uses {other:?}; the site's messages use only text and variables"),
            }
        }
        messages.push((id, text));
    }
    messages.sort();
    messages
}

/// Whether this build's bundle can show message `id`: a game's own messages (`go-...`) go only
/// into bundles with that game's screens, and the pages of games without screens (their rules,
/// shown by the home bundle) only into the home bundle. Native builds have every feature.
fn feature(name: &str) -> bool {
    std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some()
}

/// Whether the bundle shows pages, not only rooms (Triplex's pages are all of its bundle): the
/// code reads it as `cfg(page_bundle)`.
fn page_bundle() -> bool {
    ["LOCAL_SCREEN", "GAME_PAGE", "HOME_PAGES", "LOBBY_PAGE", "TRIPLEX"].into_iter().any(feature)
}

fn shown_here(id: &str) -> bool {
    // A game's page (rules, diagrams, options, pitch) is never shown by a room bundle.
    let game_page = ["-rules-", "-diagram-", "-option-", "-about"].iter().any(|part| id.contains(part))
        || id.starts_with("go-handicap-")
        || ["go-ko-psk", "go-ko-simple"].contains(&id);
    // Reading a PGN, FEN or SGF makes a local game (rooms only link to the server's record), and
    // rooms have no computer player.
    let local_only = (id.starts_with("pgn-") && id != "pgn-download")
        || (id.starts_with("sgf-") && id != "sgf-download")
        || id.starts_with("computer-");
    let page_bundle = page_bundle();
    if (game_page || local_only) && !page_bundle {
        return false;
    }
    // The chess variant picker's words: only on the game's page.
    if ["chess-variant-", "chess-piece-", "chess-reach-", "chess-custom"].iter().any(|p| id.starts_with(p)) {
        return feature("CHESS") && feature("GAME_PAGE");
    }
    // The home and game pages' own words, which a room's bundle never shows.
    let page_only = ["tagline", "home-title", "coming-soon", "coming-soon-long", "pick-game", "continue-local"]
        .into_iter()
        .chain([
            "continue-title",
            "play-local",
            "create-room",
            "join-room",
            "join-title",
            "card-picture",
            "card-first-level",
        ])
        .chain(["title-home", "description-home", "title-game", "title-local", "description-local", "title-not-found"])
        .chain(["home", "not-found-title", "not-found-text", "rules-title", "options-title", "option-more"])
        .chain(["options-refused", "play-computer", "local-title", "new-game", "hint", "hint-said"])
        .any(|page| page == id);
    if page_only && !page_bundle {
        return false;
    }
    // The review with the computer: under local games; a room's button hands its game to one.
    if id.starts_with("review") {
        return feature("LOCAL_SCREEN") || (id == "review" && feature("ROOM_SCREEN"));
    }
    // "Notify me when it is my move": a room's own.
    if id.starts_with("push-") {
        return feature("ROOM_SCREEN");
    }
    // Time controls: chosen on a game's page, shown in rooms and the lobby.
    if id.starts_with("clock-") {
        return feature("GAME_PAGE") || feature("ROOM_SCREEN") || feature("LOBBY_PAGE");
    }
    // The lobby and quick play: the home, the lobby and game pages only.
    let lobby =
        ["lobby-", "quick-play", "public-room", "title-lobby", "description-lobby"].iter().any(|p| id.starts_with(p))
            && id != "lobby-watching";
    if lobby && !(feature("HOME_PAGES") || feature("LOBBY_PAGE") || feature("GAME_PAGE")) {
        return false;
    }
    // Refusals and labels named without their game's prefix, shown only by the games that use them.
    let go_refusals = ["ko", "superko", "suicide", "no_colour", "no_stone", "not_scoring", "scoring"];
    match id.strip_prefix("illegal-") {
        Some(code) if go_refusals.contains(&code) => return feature("GO"),
        Some("opponent_territory") => return feature("POPUCOM"),
        Some("occupied" | "off_board") => return feature("POPUCOM") || feature("GO") || feature("EDGES"),
        _ if id.starts_with("cell-") => return feature("POPUCOM"),
        _ => {}
    }
    // A game's options and their choices' words: also in the lobby's bundle, which names the
    // options of every game's public rooms.
    let option_words =
        id.contains("-option-") || id.starts_with("go-handicap-") || ["go-ko-psk", "go-ko-simple"].contains(&id);
    if option_words && feature("LOBBY_PAGE") {
        return true;
    }
    // Triplex's page titles: only its own bundle shows its pages.
    if id.starts_with("title-triplex-") {
        return feature("TRIPLEX");
    }
    match id.split('-').next() {
        Some("popucom") => feature("POPUCOM"),
        Some("go" | "sgf") => feature("GO"),
        Some("edges") => feature("EDGES"),
        Some("chess" | "pgn") => feature("CHESS"),
        Some("triplex") => feature("TRIPLEX"),
        _ => true,
    }
}

/// A stylesheet without comments and runs of white space (quoted text is kept as written): the
/// bundles carry their game's CSS, and the pages inline it.
fn minify_css(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    let mut space = false;
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                space = true;
            }
            '"' | '\'' => {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
                for inner in chars.by_ref() {
                    out.push(inner);
                    if inner == c {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => space = true,
            '{' | '}' | ';' | ',' => {
                while out.ends_with(' ') {
                    out.pop();
                }
                out.push(c);
                space = false;
            }
            c => {
                // No space after a declaration's colon either (`color: red`): a selector's colon
                // is never followed by one (`a :hover` has it before).
                if space && !out.is_empty() && !out.ends_with(['{', '}', ';', ',', ':']) {
                    out.push(' ');
                }
                space = false;
                out.push(c);
            }
        }
    }
    out
}

/// The Triplex levels as the web app carries them: size, pieces, the rotatable piece, and the key of
/// the code each level's solution gives, never the solutions or the codes themselves. The key is
/// `tabula_core::triplex::code_key`'s (the first four bytes of the SHA-256 of `triplex code
/// <code>`): the site's test `the_app_carries_every_shipped_level_and_finds_each_by_its_code`
/// finds every level by its code through the engine's function, so the two cannot drift apart.
fn triplex_levels(out_dir: &Path) {
    use sha2::{Digest, Sha256};
    let path = "../core/data/triplex-levels.jsonl";
    println!("cargo::rerun-if-changed={path}");
    let shipped = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = String::from("pub static LEVELS: &[CompactLevel] = &[\n");
    for line in shipped.lines().filter(|line| !line.trim().is_empty()) {
        let level: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}: {e}"));
        let number = |field: &str| level[field].as_u64().unwrap_or_else(|| panic!("{path}: no {field} in {line}"));
        let pieces: Vec<u64> = level["pieces"].as_array().into_iter().flatten().filter_map(|p| p.as_u64()).collect();
        let rotatable = level["rotatable"].as_u64().map(|r| r as u8);
        let code = level["code"].as_str().unwrap_or_else(|| panic!("{path}: no code in {line}"));
        let digest = Sha256::digest(format!("triplex code {code}"));
        let code_key = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
        let _ = writeln!(
            out,
            "    CompactLevel {{ w: {}, h: {}, pieces: &{pieces:?}, rotatable: {rotatable:?}, code_key: {code_key} }},",
            number("w"),
            number("h"),
        );
    }
    out.push_str("];\n");
    std::fs::write(out_dir.join("triplex_levels.rs"), out).expect("OUT_DIR is writable");
}

fn main() {
    // Relative to the package (a build script runs there), so the paths it watches are the same
    // in a copy of the repository sharing the target directory (`cargo xtask vercel-build`):
    // absolute ones made each checkout's build find the other's stale.
    let root = Path::new("").to_path_buf();
    println!("cargo::rustc-check-cfg=cfg(page_bundle)");
    if page_bundle() {
        println!("cargo::rustc-cfg=page_bundle");
    }
    let out_dir = Path::new(&std::env::var("OUT_DIR").expect("cargo sets it")).to_path_buf();
    triplex_levels(&out_dir);
    for game in ["popucom", "go", "edges", "chess", "triplex"] {
        let path = root.join(format!("src/games/{game}/board.css"));
        println!("cargo::rerun-if-changed={}", path.display());
        let css = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        std::fs::write(out_dir.join(format!("{game}.css")), minify_css(&css)).expect("OUT_DIR is writable");
        // What only the game's page shows (the chess variant card), apart for the other bundles.
        let page_path = root.join(format!("src/games/{game}/picker.css"));
        // A missing file would count as changed on every build (recompiling the site each time):
        // without one, the game's folder is watched, where it would appear.
        let watched = if page_path.is_file() { page_path.clone() } else { root.join(format!("src/games/{game}")) };
        println!("cargo::rerun-if-changed={}", watched.display());
        let page_css = std::fs::read_to_string(&page_path).unwrap_or_default();
        std::fs::write(out_dir.join(format!("{game}-page.css")), minify_css(&page_css)).expect("OUT_DIR is writable");
    }
    // The site's own stylesheet, which every page inlines.
    let path = root.join("static/style.css");
    println!("cargo::rerun-if-changed={}", path.display());
    let css = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    std::fs::write(out_dir.join("site.css"), minify_css(&css)).expect("OUT_DIR is writable");
    // What every page but a room's adds to it.
    let path = root.join("static/pages.css");
    println!("cargo::rerun-if-changed={}", path.display());
    let css = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    std::fs::write(out_dir.join("pages.css"), minify_css(&css)).expect("OUT_DIR is writable");
    let dir = root.join("locales");
    let mut out = String::new();
    for (name, tag) in LANGUAGES {
        let path = dir.join(format!("{tag}.ftl"));
        println!("cargo::rerun-if-changed={}", path.display());
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The browser has English built in and fetches the other languages when asked for.
        if tag != "en" {
            let _ = writeln!(out, "#[cfg(not(target_arch = \"wasm32\"))]");
        }
        let _ = writeln!(out, "pub static {name}: &[(&str, &str)] = &[");
        for (id, text) in compile(tag, &source) {
            if shown_here(&id) {
                let _ = writeln!(out, "    ({id:?}, {text:?}),");
            }
        }
        let _ = writeln!(out, "];");
    }
    std::fs::write(out_dir.join("messages.rs"), out).expect("OUT_DIR is writable");
}
