//! Lighthouse (12.8, its mobile defaults: simulated slow 4G, a 4x slower CPU) on every kind of page
//! the site has, against `tabula serve` with the built site: the home, each game's page, each local
//! game and each game against the computer, a Triplex level, and rooms of each game kind as a
//! player and as a spectator. Fails below 100 for accessibility, best practices or SEO, or below
//! `PERFORMANCE_BAR` for performance (one run at `RERUN_BELOW` or more, else the median of three);
//! writes the table to
//! `target/lighthouse.md` (docs/PERFORMANCE.md keeps it), pages under the goal of 95 marked.
//!
//! The performance score moves with the machine (its 4x CPU slowdown multiplies what the 2-core
//! machine is doing, and the kind's CPU changes): on one CPU the Triplex page's five runs were 80
//! to 93 in one test run and 83 to 93 over 20 runs, so the old bar of 90 failed CI on noise. For
//! the median of three to fall under `PERFORMANCE_BAR`, two runs must fall 5 points under any of
//! the 50 runs seen of the slowest pages (docs/PERFORMANCE.md); a real regression (a bundle loaded on first
//! paint that should not be, a long task, a layout shift) costs more. A first run 10 points over
//! the bar passes without two more: no run of those 50 was more than 5 points over its page's
//! median, so such a page's median is over the bar; the two more runs were half the test's time.
//! The goal of 95 is reported per page, not enforced.
//!
//! While working on one page: `TABULA_LIGHTHOUSE_ONLY=room` runs the pages whose name holds those
//! words, and `TABULA_LIGHTHOUSE_RUNS=20` runs each that many times (the noise measurement).
//!
//! Rooms are `noindex` on purpose (private games), which Lighthouse's `is-crawlable` audit counts
//! against SEO: that one audit is skipped for rooms, and this test checks the `noindex` instead.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use common::Server;

/// Fails a page whose median performance score is below this (see the module's comment).
const PERFORMANCE_BAR: u64 = 75;
/// A page whose first run scores under this runs twice more, judged by the median of three.
const RERUN_BELOW: u64 = PERFORMANCE_BAR + 10;
/// The site's goal, reported per page.
const PERFORMANCE_GOAL: u64 = 95;

const HINT: &str = "`cargo xtask test` builds the site and installs Chromium, Node and Lighthouse";

fn site_dist() -> PathBuf {
    let dist = std::env::var_os("TABULA_SITE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../site/dist"));
    assert!(dist.join("index.html").is_file(), "the site is not built at {}; {HINT}", dist.display());
    dist
}

fn lighthouse_modules() -> PathBuf {
    let modules = std::env::var_os("TABULA_LIGHTHOUSE_MODULES").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/tabula/npm-lighthouse/node_modules")
    });
    assert!(modules.join("lighthouse/core/index.js").is_file(), "no Lighthouse in {}; {HINT}", modules.display());
    modules
}

/// Creates a room of `game` with both seats taken; returns its code and seat 1's token.
fn room(server: &Server, game: &str) -> (String, String) {
    let code = format!("lh{game}{}", rand::random::<u16>());
    let http = reqwest::blocking::Client::new();
    let mut token = String::new();
    for seat in [1, 2] {
        let joined: Value = http
            .post(format!("{}/api/game", server.base))
            .json(&json!({"roomId": code, "game": game, "seat": seat, "name": format!("Player {seat}")}))
            .send()
            .unwrap()
            .json()
            .unwrap();
        if seat == 1 {
            token = joined["token"].as_str().expect("a token for seat 1").to_owned();
        }
    }
    (code, token)
}

/// The built site's HTML pages, as paths without `.html` (`index`, `go/local`).
fn built_pages(dir: &std::path::Path, root: &std::path::Path) -> Vec<String> {
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() && entry.file_name() != "assets" {
            pages.extend(built_pages(&path, root));
        } else if path.extension().is_some_and(|e| e == "html") {
            let relative = path.strip_prefix(root).unwrap().with_extension("");
            pages.push(relative.to_string_lossy().into_owned());
        }
    }
    pages
}

#[test]
fn every_kind_of_page_meets_the_lighthouse_bar() {
    let server = Server::start(site_dist());
    let base = &server.base;
    let mut pages = vec![json!({"name": "home", "url": format!("{base}/")})];
    for game in ["popucom", "go", "edges", "chess", "triplex"] {
        pages.push(json!({"name": format!("{game} page"), "url": format!("{base}/{game}")}));
    }
    for game in ["popucom", "go", "edges", "chess"] {
        pages.push(json!({"name": format!("{game} local game"), "url": format!("{base}/{game}/local")}));
    }
    // Playing the computer (the player moves first; the page starts the computer's worker).
    for game in ["popucom", "go", "edges", "chess"] {
        let url = format!("{base}/{game}/local?computer=3");
        pages.push(json!({"name": format!("{game} against the computer"), "url": url}));
    }
    // A Triplex level of the widest size, with the most pieces of its size.
    let widest = tabula_core::triplex::catalog::shipped().iter().enumerate().filter(|(_, l)| l.w == 12);
    let (index, _) = widest.max_by_key(|(_, l)| l.pieces.len()).expect("12 x 3 levels");
    pages.push(json!({"name": "triplex level", "url": format!("{base}/triplex/{}", index + 1)}));
    for game in ["popucom", "go", "edges", "chess"] {
        let (code, token) = room(&server, game);
        let url = format!("{base}/room/{code}");
        let seat = json!({"seat": 1, "token": token, "game": game}).to_string();
        let storage = json!({ format!("tabula.seat.{code}"): seat });
        pages.push(
            json!({"name": format!("{game} room, player"), "url": url, "storage": storage, "skip": ["is-crawlable"]}),
        );
        pages.push(json!({"name": format!("{game} room, spectator"), "url": url, "skip": ["is-crawlable"]}));
    }
    // The lobby, with a public room of each game waiting in it.
    let http = reqwest::blocking::Client::new();
    for game in ["popucom", "go", "edges", "chess"] {
        let body =
            json!({"roomId": format!("lhwait{game}"), "game": game, "public": true, "seat": 1, "name": "Waiting"});
        assert!(http.post(format!("{base}/api/game")).json(&body).send().unwrap().status().is_success());
    }
    pages.push(json!({"name": "lobby", "url": format!("{base}/lobby")}));
    // Every page the site builds is checked: a new kind of page (the lobby, play against the
    // computer) fails here until it is added above.
    let file_of = |url: &str| {
        let path = url.strip_prefix(base.as_str()).unwrap_or(url);
        let path = path.split('?').next().unwrap_or(path);
        match path.trim_start_matches('/') {
            "" => "index".to_owned(),
            room if room.starts_with("room/") => "room".to_owned(),
            level if level.starts_with("triplex/") => "triplex/level".to_owned(),
            other => other.to_owned(),
        }
    };
    let checked: std::collections::BTreeSet<String> =
        pages.iter().map(|page| file_of(page["url"].as_str().unwrap())).collect();
    let built = built_pages(&site_dist(), &site_dist());
    let unchecked: Vec<&String> = built.iter().filter(|page| !checked.contains(*page) && *page != "404").collect();
    assert!(unchecked.is_empty(), "pages the Lighthouse check leaves out: {unchecked:?}");
    let room_page = std::fs::read_to_string(site_dist().join("room.html")).unwrap();
    assert!(room_page.contains("<meta name=\"robots\" content=\"noindex\">"), "rooms are noindex");

    if let Ok(only) = std::env::var("TABULA_LIGHTHOUSE_ONLY") {
        pages.retain(|page| page["name"].as_str().is_some_and(|name| name.contains(only.as_str())));
        assert!(!pages.is_empty(), "TABULA_LIGHTHOUSE_ONLY={only:?} names no page");
    }
    let runs: Option<u64> = std::env::var("TABULA_LIGHTHOUSE_RUNS").ok().map(|n| n.parse().expect("a number of runs"));
    let chromium = std::env::var("TABULA_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let input = json!({"modules": lighthouse_modules(), "chrome": chromium, "pages": pages, "runs": runs, "rerun_below": RERUN_BELOW});
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/lighthouse/run.mjs");
    let mut child = Command::new("node")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run node: {e}; {HINT}"));
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the Lighthouse runner failed");
    let results: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(results.len(), pages.len(), "one result per page");

    let mut table = String::from(
        "| page | performance, median (runs) | accessibility | best practices | SEO | largest contentful paint | total blocking time |\n\
         |---|---|---|---|---|---|---|\n",
    );
    let mut below = Vec::new();
    for result in &results {
        let score = |key: &str| result[key].as_u64().unwrap_or(0);
        let runs: Vec<String> =
            result["performance_runs"].as_array().into_iter().flatten().map(|r| r.to_string()).collect();
        table += &format!(
            "| {} | {}{} ({}) | {} | {} | {} | {:.1} s | {} ms |\n",
            result["name"].as_str().unwrap_or("?"),
            score("performance"),
            if score("performance") < PERFORMANCE_GOAL { ", under the goal" } else { "" },
            runs.join(", "),
            score("accessibility"),
            score("best-practices"),
            score("seo"),
            score("lcp_ms") as f64 / 1000.0,
            score("tbt_ms"),
        );
        let short = score("performance") < PERFORMANCE_BAR
            || ["accessibility", "best-practices", "seo"].iter().any(|k| score(k) < 100)
            || !result["runtime_error"].is_null();
        if short {
            below.push(format!("{}: {result}", result["name"]));
        }
    }
    let report = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/lighthouse.md");
    let _ = std::fs::write(&report, &table);
    println!("{table}\n(written to {})", report.display());
    assert!(below.is_empty(), "pages below the bar:\n{}", below.join("\n"));
}
