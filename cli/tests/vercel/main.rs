//! The deployed form, built here as Vercel builds it (docs/DEPLOY.md). `cargo xtask vercel-build`
//! (part of the test command) copies the repository without `.vercel/`, writes the local project
//! settings and runs the pinned Vercel CLI's `vercel build`, which runs `site/vercel-build.sh` and
//! the official Rust runtime; its Build Output folder comes here as `TABULA_VERCEL_OUTPUT`.
//! These tests check that output against the repository (every page, every function, the cron,
//! the routes `vercel.json` asks for), then run the built functions as the platform runs them,
//! behind an emulation of Vercel's edge, against PostgREST and Redis through a whole game.

#[path = "../../../api/_tests/integration/services.rs"]
mod services;

mod edge;
mod functions;
mod output;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::Game;

use output::{Output, Target};
pub use services::free_port;

fn output_dir() -> PathBuf {
    let dir = std::env::var_os("TABULA_VERCEL_OUTPUT").map(PathBuf::from).expect(
        "TABULA_VERCEL_OUTPUT is not set: run `cargo xtask vercel-build` and point it at the Build Output folder \
         it prints (`cargo xtask test` does both)",
    );
    assert!(dir.join("config.json").is_file(), "{} holds no Build Output", dir.display());
    dir
}

/// The repository copy `vercel build` ran in (the output is its `.vercel/output`).
fn built_repository(output: &Path) -> PathBuf {
    output.parent().and_then(Path::parent).expect(".vercel/output inside the repository").to_owned()
}

fn vercel_json() -> Value {
    let text = std::fs::read_to_string(services::repo_root().join("vercel.json")).expect("vercel.json");
    serde_json::from_str(&text).expect("vercel.json is JSON")
}

/// Every file under `dir`, relative.
fn files_under(dir: &Path) -> BTreeSet<PathBuf> {
    fn walk(root: &Path, dir: &Path, into: &mut BTreeSet<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            if entry.path().is_dir() {
                walk(root, &entry.path(), into);
            } else {
                into.insert(entry.path().strip_prefix(root).unwrap().to_owned());
            }
        }
    }
    let mut files = BTreeSet::new();
    walk(dir, dir, &mut files);
    files
}

/// The Cargo binaries whose source is under `api/`: the functions the deployment must have, by
/// their URL path (`api/triplex/solve.rs` is `/api/triplex/solve`).
fn api_binaries() -> BTreeMap<String, String> {
    let manifest: toml::Table =
        std::fs::read_to_string(services::repo_root().join("Cargo.toml")).unwrap().parse().expect("Cargo.toml");
    let bins = manifest["bin"].as_array().expect("[[bin]] entries");
    bins.iter()
        .filter_map(|bin| {
            let path = bin["path"].as_str()?;
            let function = path.strip_prefix("api/")?.strip_suffix(".rs")?;
            Some((format!("api/{function}"), bin["name"].as_str()?.to_owned()))
        })
        .collect()
}

/// Every public API path the site and the platform call (docs/API.md's table, the cron), each
/// with the path the function's router must see.
const PUBLIC_API_PATHS: [&str; 8] = [
    "/api/game",
    "/api/lobby",
    "/api/push",
    "/api/notify",
    "/api/card",
    "/api/triplex/solve",
    "/api/triplex/records",
    "/api/cron",
];

/// The path a function's router sees for a routed request: the `route` a rewrite to the one API
/// function names (`api/_lib/function.rs`), else the routed path.
fn path_seen(routed: &output::Routed) -> String {
    routed.query.iter().find(|(key, _)| key == "route").map_or_else(|| routed.path.clone(), |(_, path)| path.clone())
}

/// The highest `GLIBC_2.x` symbol version an ELF file asks for.
fn newest_glibc(binary: &[u8]) -> Option<(u32, u32)> {
    let text = String::from_utf8_lossy(binary);
    text.match_indices("GLIBC_2.")
        .filter_map(|(at, _)| {
            let rest = &text[at + "GLIBC_".len()..];
            let version: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
            Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
        })
        .max()
}

#[test]
fn one_function_per_api_binary_each_an_executable_of_the_rust_runtime() {
    let output = Output::read(&output_dir());
    let expected = api_binaries();
    assert!(expected.contains_key("api/game") && expected.len() >= 2, "the API's binaries: {expected:?}");
    let built: BTreeSet<&String> = output.functions.keys().collect();
    assert_eq!(built, expected.keys().collect(), "one function per api/*.rs binary, and nothing else");
    for (name, bin) in &expected {
        let config = output.function_config(name);
        assert_eq!(config.runtime, "executable", "{name}: {config:?}");
        assert_eq!(config.architecture.as_deref().unwrap_or("x86_64"), "x86_64", "{name}");
        let executable = config.handler_path(&output.functions[name], &built_repository(&output.dir));
        assert_eq!(executable.file_name().and_then(|f| f.to_str()), Some(bin.as_str()), "{name} runs its own binary");
        let bytes = std::fs::read(&executable).unwrap_or_else(|e| panic!("{}: {e}", executable.display()));
        assert!(bytes.starts_with(b"\x7fELF"), "{name}: the handler is not an ELF executable");
        // Vercel refuses a function over 250 MB unzipped.
        assert!(bytes.len() < 250 << 20, "{name}: {} bytes", bytes.len());
        let glibc = newest_glibc(&bytes);
        println!("{name} (bin {bin}): {:.1} MB, newest glibc symbol {glibc:?}", bytes.len() as f64 / 1e6);
    }
    // Every public path reaches a function through the route table, its own or the one API
    // function's, whose router then sees the public path.
    for path in PUBLIC_API_PATHS {
        let routed = output.route(path, "", &Default::default());
        let Target::Function(function) = &routed.target else { panic!("{path} reaches no function: {routed:?}") };
        assert!(expected.contains_key(function), "{path} reaches {function}");
        assert_eq!(path_seen(&routed), path, "the router of {function} sees {path}: {routed:?}");
    }
    assert!(expected.len() < PUBLIC_API_PATHS.len(), "one function serves several paths: {expected:?}");
}

#[test]
fn the_cron_is_vercel_json_s() {
    let output = Output::read(&output_dir());
    assert_eq!(output.config.version, 3);
    let asked = vercel_json()["crons"].as_array().expect("crons in vercel.json").clone();
    assert!(!asked.is_empty());
    let built: Vec<Value> =
        output.config.crons.iter().map(|c| json!({"path": c.path, "schedule": c.schedule})).collect();
    assert_eq!(built, asked);
    for cron in &output.config.crons {
        let routed = output.route(&cron.path, "", &Default::default());
        let function = cron.path.trim_start_matches('/');
        assert_eq!(routed.target, Target::Function(function.to_owned()), "the cron's path reaches its function");
    }
}

/// `vercel.json`'s Cache-Control for a path: the asset rule for `/assets/...`, the page rule for
/// everything else outside `/api/` (the two rules it has, by what their sources say).
fn cache_rule(path: &str) -> String {
    let rules = vercel_json()["headers"].as_array().expect("headers in vercel.json").clone();
    let rule = if path.starts_with("/assets/") {
        rules.iter().find(|r| r["source"].as_str().unwrap().starts_with("/assets/"))
    } else {
        rules.iter().find(|r| r["source"].as_str().unwrap().contains("(?!assets/|api/)"))
    };
    let header = &rule.expect("a Cache-Control rule for the path")["headers"][0];
    assert_eq!(header["key"], "Cache-Control");
    header["value"].as_str().unwrap().to_owned()
}

/// `vercel.json`'s headers for every path (`/(.*)`): the security policy and its kin, by lowercase name.
fn security_headers() -> BTreeMap<String, String> {
    let rules = vercel_json()["headers"].as_array().expect("headers in vercel.json").clone();
    let rule = rules.into_iter().find(|r| r["source"] == "/(.*)").expect("a headers rule for every path");
    let headers = rule["headers"].as_array().unwrap().iter();
    headers
        .map(|h| (h["key"].as_str().unwrap().to_ascii_lowercase(), h["value"].as_str().unwrap().to_owned()))
        .collect()
}

/// Asserts that an answer the edge routed carries every security header.
fn assert_secured(routed: &output::Routed, what: &str) {
    let security = security_headers();
    for name in ["content-security-policy", "x-content-type-options", "referrer-policy", "strict-transport-security"] {
        assert!(security.contains_key(name), "vercel.json sends no {name}");
    }
    assert!(security["content-security-policy"].contains("script-src 'self' 'wasm-unsafe-eval';"));
    for (name, value) in &security {
        assert_eq!(routed.headers.get(name), Some(value), "{what}: {name}");
    }
}

fn crawler() -> http::HeaderMap {
    let mut headers = http::HeaderMap::new();
    headers.insert("user-agent", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)".parse().unwrap());
    headers
}

#[test]
fn every_page_and_deep_link_is_served_with_vercel_json_s_headers() {
    let dir = output_dir();
    let output = Output::read(&dir);
    let statics = output.static_dir();
    // The static output is the site `site/vercel-build.sh` built, file for file.
    let built_site = built_repository(&dir).join("site/dist");
    let files = files_under(&statics);
    assert_eq!(files, files_under(&built_site), "static output against {}", built_site.display());
    for file in &files {
        assert_eq!(
            std::fs::read(statics.join(file)).unwrap(),
            std::fs::read(built_site.join(file)).unwrap(),
            "{file:?}"
        );
    }
    // Every page the local build makes is a page of the deployed site.
    let local =
        std::env::var_os("TABULA_SITE_DIST").map_or_else(|| services::repo_root().join("site/dist"), PathBuf::from);
    assert!(local.join("index.html").is_file(), "no site built at {} (cargo xtask build-site)", local.display());
    let pages = |files: &BTreeSet<PathBuf>| -> BTreeSet<PathBuf> {
        files.iter().filter(|f| f.extension().is_some_and(|e| e == "html")).cloned().collect()
    };
    assert_eq!(pages(&files), pages(&files_under(&local)), "pages deployed against pages built locally");

    let none = http::HeaderMap::new();
    let serves = |path: &str, query: &str, file: &str, status: u16| {
        let routed = output.route(path, query, &none);
        assert_eq!(
            routed.target,
            Target::Static { file: statics.join(file), content_type: None },
            "{path}?{query} should serve {file}"
        );
        assert_eq!(routed.status.unwrap_or(200), status, "{path}");
        assert_eq!(routed.headers.get("cache-control"), Some(&cache_rule(path)), "{path}");
        assert_secured(&routed, path);
    };
    let mut pages = 0;
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "html")) {
        let name = file.to_string_lossy();
        if name == "404.html" {
            continue;
        }
        let clean = format!("/{}", name.trim_end_matches(".html").trim_end_matches("index"));
        serves(&clean, "", &name, 200);
        // `cleanUrls`: the `.html` address redirects to the clean one.
        let redirect = output.route(&format!("/{name}"), "", &none);
        assert_eq!(redirect.target, Target::Status(308), "/{name}");
        assert_eq!(redirect.headers.get("location"), Some(&clean), "/{name}");
        pages += 1;
    }
    assert!(pages >= 10, "only {pages} pages");
    // The sitemap's pages are all there.
    let sitemap = std::fs::read_to_string(statics.join("sitemap.xml")).expect("a sitemap");
    let locations: Vec<&str> = sitemap.split("<loc>").skip(1).filter_map(|l| l.split("</loc>").next()).collect();
    assert!(locations.len() >= 5, "{sitemap}");
    for location in locations {
        let path = format!("/{}", location.splitn(4, '/').nth(3).unwrap_or(""));
        let routed = output.route(&path, "", &none);
        let not_found = Target::Static { file: statics.join("404.html"), content_type: None };
        assert!(
            matches!(routed.target, Target::Static { .. })
                && routed.target != not_found
                && routed.status.unwrap_or(200) == 200,
            "sitemap's {location}: {routed:?}"
        );
    }
    // The app's own addresses: a room, a Triplex level (the page every level starts from), the
    // first version's local game, and the query strings a shared link carries.
    serves("/room/Ab-12_x", "", "room.html", 200);
    serves("/room/q1f3-2", "ref=share", "room.html", 200);
    serves("/triplex/7", "", "triplex/level.html", 200);
    serves("/triplex/724", "", "triplex/level.html", 200);
    let local = output.route("/local", "", &none);
    assert_eq!(
        (local.target, local.headers.get("location").cloned()),
        (Target::Status(308), Some("/popucom/local".into()))
    );
    // Anything else: the site's 404 page with a 404.
    serves("/no/such/page", "", "404.html", 404);
    serves("/room/a/b", "", "404.html", 404);
    // An unknown API path is not the site's page.
    assert_eq!(output.route("/api/nope", "", &none).target, Target::Status(404));
    // The API's answers carry the security headers too.
    for (path, query) in [("/api/game", "roomId=Ab-12_x"), ("/api/lobby", ""), ("/api/nope", "")] {
        assert_secured(&output.route(path, query, &none), path);
    }
    // Assets are cached for good.
    let asset = files.iter().find(|f| f.starts_with("assets") && f.extension().is_some_and(|e| e == "wasm"));
    let asset = asset.expect("a WASM asset").to_string_lossy().into_owned();
    serves(&format!("/{asset}"), "", &asset, 200);
    // A link-preview crawler gets the room's card from the API function.
    let card = output.route("/room/Ab-12_x", "", &crawler());
    assert_eq!((&card.target, path_seen(&card).as_str()), (&Target::Function("api/game".into()), "/api/card"));
    assert_secured(&card, "a crawler's card");
    let query: BTreeMap<_, _> = card.query.iter().cloned().collect();
    assert_eq!(
        (query.get("roomId").map(String::as_str), query.get("format").map(String::as_str)),
        (Some("Ab-12_x"), Some("html"))
    );
}

/// The functions' environment with docs/DEPLOY.md's variables, on the test's services. `store` and
/// `redis` are (name, value) pairs: `SUPABASE_URL` (behind a stand-in for Supabase's gateway) or
/// `SUPABASE_REST_URL`, `KV_URL` (as Vercel's Upstash integration names it) or `REDIS_URL`.
fn function_env(
    store: (&str, String),
    redis: (&str, &str),
    rate_limit: u32,
    cron_secret: &str,
) -> BTreeMap<String, String> {
    let supabase = services::supabase();
    BTreeMap::from([
        ("PATH".into(), "/usr/bin:/bin".into()),
        ("VERCEL".into(), "1".into()),
        ("VERCEL_ENV".into(), "production".into()),
        (store.0.into(), store.1),
        ("SUPABASE_SECRET_KEY".into(), supabase.jwt("service_role")),
        (redis.0.into(), redis.1.to_owned()),
        ("RATE_LIMIT_PER_MINUTE".into(), rate_limit.to_string()),
        ("CRON_SECRET".into(), cron_secret.to_owned()),
    ])
}

/// A stand-in for Supabase's API gateway: `/rest/v1/...` passed to PostgREST's root, as Supabase
/// does; returns the project URL (`SUPABASE_URL`).
async fn supabase_gateway(rest_url: String) -> String {
    async fn pass(
        axum::extract::State(rest_url): axum::extract::State<String>,
        axum::extract::Path(rest): axum::extract::Path<String>,
        request: axum::extract::Request,
    ) -> axum::response::Response {
        let (parts, body) = request.into_parts();
        let query = parts.uri.query().map(|q| format!("?{q}")).unwrap_or_default();
        let body = axum::body::to_bytes(body, 16 << 20).await.unwrap();
        let answer = reqwest::Client::new()
            .request(
                reqwest::Method::from_bytes(parts.method.as_str().as_bytes()).unwrap(),
                format!("{rest_url}/{rest}{query}"),
            )
            .headers(edge::forwarded_headers(&parts.headers))
            .body(body.to_vec())
            .send()
            .await
            .expect("PostgREST answers");
        edge::relayed(answer).await.expect("PostgREST's answer")
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().route("/rest/v1/{*rest}", axum::routing::any(pass)).with_state(rest_url);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn start_functions(
    output: &Output,
    env: &BTreeMap<String, String>,
    scratch: &Path,
) -> BTreeMap<String, functions::Function> {
    output
        .functions
        .iter()
        .map(|(name, folder)| {
            let config = output.function_config(name);
            let mut env = env.clone();
            env.extend(config.environment.clone());
            let executable = config.handler_path(folder, &built_repository(&output.dir));
            (name.clone(), functions::Function::start(name, folder, &executable, &env, scratch))
        })
        .collect()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-vercel-{}-{}", std::process::id(), rand::random::<u32>()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// How many keys a Redis holds (`DBSIZE` over its protocol).
fn redis_keys(url: &str) -> u64 {
    use std::io::{Read, Write};
    let address = url.trim_start_matches("redis://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.write_all(b"DBSIZE\r\n").unwrap();
    let mut reply = [0u8; 64];
    let n = stream.read(&mut reply).unwrap();
    let reply = String::from_utf8_lossy(&reply[..n]);
    reply.trim().trim_start_matches(':').parse().unwrap_or_else(|_| panic!("DBSIZE: {reply}"))
}

struct Client {
    http: reqwest::Client,
    base: String,
}

impl Client {
    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> (u16, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        for (key, value) in headers {
            request = request.header(*key, *value);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = request.send().await.unwrap_or_else(|e| panic!("{path}: {e}"));
        let status = answer.status().as_u16();
        let text = answer.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None, &[]).await
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body), &[]).await
    }

    async fn put(&self, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::PUT, "/api/game", Some(body), &[]).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_through_the_built_functions() {
    let output = Output::read(&output_dir());
    let redis = services::own_redis();
    let cron_secret = format!("cron-{:x}", rand::random::<u64>());
    let scratch = scratch();
    let project = supabase_gateway(services::supabase().rest_url.clone()).await;
    let env = function_env(("SUPABASE_URL", project), ("KV_URL", &redis.url), 1000, &cron_secret);
    let running = start_functions(&output, &env, &scratch);
    let (base, edge) = edge::serve(output, running).await;
    // Longer than a function may take to send its `end` (a late one is then the edge's 502).
    let timeout = functions::END_LIMIT + Duration::from_secs(10);
    let client = Client { http: reqwest::Client::builder().timeout(timeout).build().unwrap(), base };

    // The site itself, through the edge.
    let (status, home) = client.get("/").await;
    assert_eq!(status, 200);
    assert!(home.as_str().is_some_and(|html| html.contains("<html")), "the home page");

    // A room, two seats.
    let room = format!("vercel{:x}", rand::random::<u32>());
    let (status, created) = client.post("/api/game", json!({"roomId": room, "game": "popucom"})).await;
    assert_eq!(status, 200, "{created}");
    assert!(redis_keys(&redis.url) > 0, "creating a room passed the Redis limiter");
    let mut tokens = BTreeMap::new();
    for seat in [1, 2] {
        let (status, joined) =
            client.post("/api/game", json!({"roomId": room, "seat": seat, "name": format!("P{seat}")})).await;
        assert_eq!(status, 200, "{joined}");
        assert_eq!(joined["seat"], seat);
        tokens.insert(seat, joined["token"].as_str().expect("a token").to_owned());
    }
    let (status, taken) = client.post("/api/game", json!({"roomId": room, "seat": 1})).await;
    assert_eq!((status, &taken["error"]["code"]), (409, &json!("seat_taken")));

    // A whole POPUCOM game of random legal moves, each checked by the server.
    let mut rng = SmallRng::seed_from_u64(19);
    let mut refused = false;
    let view = loop {
        let (status, view) = client.get(&format!("/api/game?roomId={room}")).await;
        assert_eq!(status, 200, "{view}");
        let moves: Vec<Cell> = serde_json::from_value(view["moves"].clone()).unwrap();
        let game = Popucom::replay(Default::default(), &moves).unwrap();
        let Some(colour) = game.status().to_move() else { break view };
        let seat =
            view["seats"].as_array().unwrap().iter().find(|s| s["colour"] == colour.number()).unwrap()["seat"].clone();
        let token = &tokens[&seat.as_u64().unwrap()];
        if !refused && !moves.is_empty() {
            // A move on an occupied cell is refused, and changes nothing.
            let taken = moves.last().unwrap();
            let (status, error) =
                client.put(json!({"roomId": room, "token": token, "version": view["version"], "move": taken})).await;
            assert_eq!((status, &error["error"]["code"]), (422, &json!("illegal_move")), "{error}");
            let (_, again) = client.get(&format!("/api/game?roomId={room}")).await;
            assert_eq!(again["version"], view["version"], "a refused move wrote nothing");
            refused = true;
        }
        let cell = game.random_move(&mut rng).expect("a move while the game goes on");
        let (status, next) =
            client.put(json!({"roomId": room, "token": token, "version": view["version"], "move": cell})).await;
        assert_eq!(status, 200, "{next}");
    };
    let moves: Vec<Cell> = serde_json::from_value(view["moves"].clone()).unwrap();
    let game = Popucom::replay(Default::default(), &moves).unwrap();
    let outcome = serde_json::to_value(game.status().outcome().expect("the game is over")).unwrap();
    assert_eq!(view["state"], serde_json::to_value(game.view()).unwrap(), "the server's finished game is the engine's");
    assert!(refused);
    assert_eq!(moves.len(), 50, "a POPUCOM game is 50 moves");
    println!("a game of {} moves through the functions: {outcome}", moves.len());

    // The other paths answer, each from its own handler.
    let (status, lobby) = client.get("/api/lobby").await;
    assert_eq!(status, 200, "{lobby}");
    assert!(lobby["waiting"].is_array() && lobby["playing"].is_array(), "the lobby: {lobby}");
    let (status, push) = client.get("/api/push").await;
    assert_eq!((status, &push["mode"]), (200, &json!("poll")), "no Realtime key: pages poll");
    let (status, records) = client.get("/api/triplex/records?level=1").await;
    assert_eq!(status, 200, "{records}");
    let (status, solve) =
        client.post("/api/triplex/solve", json!({"level": 1, "name": "x", "ms": 5, "solution": []})).await;
    assert!(status == 422 || status == 400, "{status} {solve}");
    assert!(solve["error"]["code"].is_string(), "{solve}");
    let preview = client
        .http
        .get(format!("{}/room/{room}", client.base))
        .header("user-agent", crawler()["user-agent"].to_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(preview.status(), 200);
    let preview_cache = preview.headers().get("cache-control").cloned();
    assert!(preview.text().await.unwrap().contains("og:image"), "a crawler gets the room's card page");
    // Should Vercel hand the function the address asked for rather than the rewrite's
    // destination, the card function answers it the same.
    let mut headers = axum::http::HeaderMap::new();
    headers.insert("user-agent", crawler()["user-agent"].to_str().unwrap().parse().unwrap());
    let peer: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
    let direct = edge.invoke("api/game", "GET", &format!("/room/{room}"), &headers, Vec::new(), peer).await.unwrap();
    assert_eq!(direct.status(), 200);
    // The function's own Cache-Control wins over vercel.json's page rule, as on Vercel.
    let direct_cache = direct.headers().get("cache-control").map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(preview_cache.map(|v| v.to_str().unwrap().to_owned()), direct_cache);
    let direct = axum::body::to_bytes(direct.into_body(), 1 << 20).await.unwrap();
    assert!(String::from_utf8_lossy(&direct).contains("og:image"), "the card page at /room/<code>");
    // The same for a rewritten API path: the lobby at the address asked for.
    let lobby_direct =
        edge.invoke("api/game", "GET", "/api/lobby", &Default::default(), Vec::new(), peer).await.unwrap();
    assert_eq!(lobby_direct.status(), 200);
    let lobby_direct: Value =
        serde_json::from_slice(&axum::body::to_bytes(lobby_direct.into_body(), 1 << 20).await.unwrap()).unwrap();
    assert!(lobby_direct["waiting"].is_array(), "the lobby at /api/lobby: {lobby_direct}");
    let page = client.http.get(format!("{}/room/{room}", client.base)).send().await.unwrap();
    assert_eq!(page.headers()["cache-control"], cache_rule("/room"));
    let room_page = std::fs::read_to_string(edge.output.static_dir().join("room.html")).unwrap();
    assert_eq!(page.text().await.unwrap(), room_page, "a person gets the room page");

    // The cron: refused without its secret, done with it.
    let (status, refused) = client.get("/api/cron").await;
    assert_eq!((status, &refused["error"]["code"]), (401, &json!("unauthorized")));
    let bearer = format!("Bearer {cron_secret}");
    let (status, wrong) =
        client.send(reqwest::Method::GET, "/api/cron", None, &[("authorization", "Bearer nope")]).await;
    assert_eq!(status, 401, "{wrong}");
    let (status, done) = client.send(reqwest::Method::GET, "/api/cron", None, &[("authorization", &bearer)]).await;
    assert_eq!(status, 200, "{done}");

    for function in edge.functions.values() {
        assert!(function.running(), "{} exited", function.name);
    }
    assert_eq!(*edge.failures.lock().unwrap(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&scratch);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_is_shared_through_redis_by_every_function() {
    let output = Output::read(&output_dir());
    let redis = services::own_redis();
    let scratch = scratch();
    let limit = 4;
    let store = ("SUPABASE_REST_URL", services::supabase().rest_url.clone());
    let running = start_functions(&output, &function_env(store, ("REDIS_URL", &redis.url), limit, "unused"), &scratch);
    let (base, edge) = edge::serve(output, running).await;
    let client = Client { http: reqwest::Client::new(), base };
    // Rooms created through the game function, one client address, up to the limit.
    for n in 0..limit {
        let (status, answer) =
            client.post("/api/game", json!({"roomId": format!("limit{n}x{:x}", rand::random::<u16>())})).await;
        assert_eq!(status, 200, "request {n}: {answer}");
    }
    let (status, limited) = client.post("/api/game", json!({"roomId": "limitover"})).await;
    assert_eq!((status, &limited["error"]["code"]), (429, &json!("rate_limited")), "{limited}");
    // Other instances of the functions (as Vercel starts more under load), other processes: the
    // same count, kept in Redis, for another path too.
    let other_scratch = self::scratch();
    let other_output = Output::read(&output_dir());
    let store = ("SUPABASE_REST_URL", services::supabase().rest_url.clone());
    let env = function_env(store, ("REDIS_URL", &redis.url), limit, "unused");
    let other_running = start_functions(&other_output, &env, &other_scratch);
    let (other_base, other_edge) = edge::serve(other_output, other_running).await;
    let other = Client { http: reqwest::Client::new(), base: other_base };
    let (status, quick) = other.post("/api/lobby", json!({"game": "popucom"})).await;
    assert_eq!((status, &quick["error"]["code"]), (429, &json!("rate_limited")), "{quick}");
    let (status, again) = other.post("/api/game", json!({"roomId": "limitover2"})).await;
    assert_eq!((status, &again["error"]["code"]), (429, &json!("rate_limited")), "{again}");
    assert_eq!(*other_edge.failures.lock().unwrap(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&other_scratch);
    assert!(redis_keys(&redis.url) > 0);
    // Reading is limited per instance, not through Redis: it still passes.
    let (status, _) = client.get("/api/lobby").await;
    assert_eq!(status, 200);
    assert_eq!(*edge.failures.lock().unwrap(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The built functions with their store down, and with its settings missing: a JSON 503 the page
/// retries, and a JSON 500 `misconfigured`, neither showing a setting, through the edge as deployed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_functions_answer_a_store_outage_and_a_missing_setting_in_json() {
    let redis = services::own_redis();
    // Nothing listens where the store should be.
    let down = ("SUPABASE_REST_URL", format!("http://127.0.0.1:{}", services::free_port()));
    let mut misconfigured = function_env(down.clone(), ("REDIS_URL", &redis.url), 100, "unused");
    misconfigured.remove("SUPABASE_REST_URL");
    let cases = [
        ("the store down", function_env(down, ("REDIS_URL", &redis.url), 100, "unused"), 503, "store_unavailable"),
        ("no Supabase address", misconfigured, 500, "misconfigured"),
    ];
    for (what, env, status, code) in cases {
        let scratch = scratch();
        let output = Output::read(&output_dir());
        let running = start_functions(&output, &env, &scratch);
        let (base, _edge) = edge::serve(output, running).await;
        let client = Client { http: reqwest::Client::new(), base };
        for path in ["/api/game?roomId=outage1", "/api/lobby"] {
            let (answered, body) = client.get(path).await;
            assert_eq!((answered, &body["error"]["code"]), (status, &json!(code)), "{what}: {path}: {body}");
            let shown = body.to_string();
            for (name, value) in &env {
                if name.starts_with("SUPABASE") || name == "REDIS_URL" {
                    assert!(!shown.contains(value.as_str()), "{what}: {path} shows {name}: {shown}");
                }
            }
        }
        let (answered, body) = client.post("/api/game", json!({"roomId": "outage2", "game": "popucom"})).await;
        assert_eq!((answered, &body["error"]["code"]), (status, &json!(code)), "{what}: a new room: {body}");
        let _ = std::fs::remove_dir_all(&scratch);
    }
}

#[test]
fn the_build_script_installs_rust_with_flags_rustup_init_knows() {
    let script = services::repo_root().join("site/vercel-build.sh");
    let syntax = std::process::Command::new("bash").arg("-n").arg(&script).status().unwrap();
    assert!(syntax.success(), "bash -n {}", script.display());
    // A machine without Rust, as Vercel's build image: stand-ins for curl, sh's download and
    // rustup record what the script asks of them.
    let dir = scratch();
    let (bin, home, calls) = (dir.join("bin"), dir.join("home"), dir.join("calls"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let stand_in = |name: &str, body: &str| {
        let path = bin.join(name);
        std::fs::write(&path, format!("#!/bin/bash\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    };
    let log = calls.display();
    // curl prints an installer that records its arguments and installs stand-in cargo and rustup.
    stand_in(
        "curl",
        &format!(
            r#"echo "curl $*" >> {log}
cat <<'INSTALLER'
echo "rustup-init $*" >> {log}
mkdir -p "$CARGO_HOME/bin"
printf '#!/bin/bash\necho "rustup $*" >> {log}\n' > "$CARGO_HOME/bin/rustup"
printf '#!/bin/bash\necho "cargo $*" >> {log}\n' > "$CARGO_HOME/bin/cargo"
chmod +x "$CARGO_HOME/bin/rustup" "$CARGO_HOME/bin/cargo"
INSTALLER"#
        ),
    );
    // Only the tools the script and the installer use, so no cargo of this machine's is found.
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    for tool in ["bash", "sh", "dirname", "mkdir", "cat", "chmod"] {
        let found = which(tool).unwrap_or_else(|| panic!("{tool} on this machine"));
        std::os::unix::fs::symlink(found, tools.join(tool)).unwrap();
    }
    let status = std::process::Command::new("/bin/bash")
        .arg(&script)
        .env_clear()
        .env("PATH", format!("{}:{}", bin.display(), tools.display()))
        .env("HOME", &home)
        .status()
        .unwrap();
    assert!(status.success(), "the script on a machine without Rust");
    let calls = std::fs::read_to_string(&calls).unwrap();
    let lines: Vec<&str> = calls.lines().collect();
    assert_eq!(lines.len(), 4, "{calls}");
    assert_eq!(lines[0], "curl --proto =https --tlsv1.2 -sSf https://sh.rustup.rs");
    let init: Vec<&str> = lines[1].split_whitespace().skip(1).collect();
    assert_eq!(lines[2], "rustup target add wasm32-unknown-unknown");
    assert_eq!(lines[3], "cargo xtask build-site");
    // Each flag given to the installer is one rustup-init takes: the real rustup (the installer's
    // binary under another name) lists its options.
    let rustup = which("rustup").expect("rustup on this machine (how this project's machines get Rust)");
    let init_binary = dir.join("rustup-init");
    std::os::unix::fs::symlink(&rustup, &init_binary).unwrap();
    let help = std::process::Command::new(&init_binary).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    // Its options, as the help lists them: `  -t, --target <TARGET>` and the like.
    let options: BTreeSet<&str> = help
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with('-'))
        .flat_map(|line| line.split_whitespace().filter(|w| w.starts_with('-')).map(|w| w.trim_end_matches(',')))
        .collect();
    assert!(options.contains("--default-toolchain"), "rustup-init --help: {help}");
    for flag in init.iter().filter(|a| a.starts_with('-')) {
        assert!(options.contains(flag), "rustup-init has no {flag}: {options:?}");
    }
    let value = |flag: &str| init.windows(2).find(|w| w[0] == flag).map(|w| w[1]);
    assert!(init.contains(&"-y"), "{init:?}");
    assert_eq!(value("--target"), Some("wasm32-unknown-unknown"));
    assert_eq!(value("--default-toolchain"), Some("stable"));
    let profile = value("--profile").expect("a profile");
    assert!(help.contains("possible values: minimal,") && profile == "minimal", "--profile {profile}: {help}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|dir| Path::new(dir).join(program)).find(|p| p.is_file())
}
