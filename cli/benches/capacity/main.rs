//! Capacity: what a game-hour costs the deployed form, counted, and how many game-hours a month
//! (and games at once) each plan's quotas allow (docs/CAPACITY.md).
//!
//! `tabula serve` runs as the functions do: rooms in PostgreSQL behind PostgREST, the Redis rate
//! limiter (for requests that create rows), Supabase Realtime as the push (`GET /api/push` says so). The
//! database's own trigger (`sql/init.sql`) broadcasts each room version into the test schema's
//! recording `realtime.send`; a stand-in here reads those and delivers them to the simulated pages,
//! counting messages as Supabase does (one in, one out to each page joined). The store reaches
//! PostgREST through a proxy here that counts its requests and the bytes of their answers.
//! Each game is two players (a move every `CAPACITY_MOVE_SECONDS`, default 10) and a spectator
//! whose tab is hidden part of the time, in real time: the server's own clocks (presence writes,
//! abandonment, the push pace) stay true. Many games run at once instead of compressing time.
//!
//! `cargo xtask capacity` (or `cargo bench -p tabula-cli --bench capacity`) runs
//! `CAPACITY_GAMES` (default 60) games at once, counted for `CAPACITY_SECONDS` (default 600) after
//! `CAPACITY_WARM_UP_SECONDS` (default 540); `CAPACITY_PUSH=off` measures the design without push.
//! Notifications are on unless `CAPACITY_NOTIFY=off`: every player subscribes (Web Push, to the
//! `web-push-testing` stand-in, which counts what it receives), its tab is hidden
//! `CAPACITY_PLAYER_HIDDEN` (default 0.25) of the time, rooms have a correspondence clock, and the
//! cron's pass over clocks runs every `CAPACITY_CRON_SECONDS` (default 60).
//! Under `cargo test` it runs 3 games for 20 s after 3 s as a smoke test, checking that every count
//! it divides by was counted and that only POSTs reached Redis.

#[path = "../../tests/common/mod.rs"]
mod common;
mod count;
#[path = "../../../site/src/play/pacing.rs"]
#[allow(dead_code, unused_imports)]
mod pacing;
mod page;
mod quotas;
#[path = "../../../api/_tests/integration/services.rs"]
mod services;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use page::{Behaviour, Channels, World};

/// The cron's secret in the bench's server.
const CRON_SECRET: &str = "capacity-bench";

fn env_number(name: &str, default: f64) -> f64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The built site when there is one (its room page's files are counted), else a bare index.
fn site() -> (PathBuf, Vec<String>) {
    let dist = std::env::var_os("TABULA_SITE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| services::repo_root().join("site/dist"));
    let Ok(room) = std::fs::read_to_string(dist.join("room.html")) else {
        let bare = std::env::temp_dir().join(format!("tabula-capacity-site-{}", std::process::id()));
        std::fs::create_dir_all(&bare).unwrap();
        std::fs::write(bare.join("index.html"), "<!doctype html><title>Tabula</title>").unwrap();
        return (bare, Vec::new());
    };
    // The room page, its icon, the POPUCOM room bundle it picks, and the service worker.
    let mut assets = vec!["/room".to_owned(), "/favicon.svg".to_owned()];
    for name in room.split(['"', '\'', '`']).filter(|s| s.starts_with("/assets/popucom-room-")) {
        assets.push(format!("/{}", name.trim_start_matches('/')));
    }
    if dist.join("sw.js").is_file() {
        assets.push("/sw.js".into());
    }
    assets.dedup();
    (dist, assets)
}

/// The stand-in for Supabase Realtime: the broadcasts the trigger recorded, to the pages joined.
async fn relay(world: Arc<World>, postgres: &'static services::Postgres) {
    let mut last = 0i64;
    while !world.stop.load(Ordering::Relaxed) {
        let query = format!(
            "select id, substr(topic, 6), payload::text from realtime.sent \
             where id > {last} and topic like 'room:cap%' order by id"
        );
        let rows = tokio::task::spawn_blocking(move || postgres.sql("postgres", &query)).await.unwrap();
        for row in rows.unwrap_or_default().lines() {
            let mut fields = row.splitn(3, '|');
            let (Some(id), Some(room), Some(payload)) = (fields.next(), fields.next(), fields.next()) else { continue };
            last = id.parse().unwrap_or(last);
            let message: serde_json::Value = serde_json::from_str(payload).unwrap_or_default();
            let room_view = message["view"].is_object().then(|| Arc::new(message["view"].clone()));
            let broadcast = page::Broadcast { version: message["version"].as_i64().unwrap_or(0), room: room_view };
            world.channels.broadcast(room, broadcast, payload.len() as u64, &world.counts);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn rows_written(postgres: &services::Postgres) -> u64 {
    let sql = "select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) from pg_stat_user_tables \
               where schemaname = 'public'";
    postgres.sql("postgres", sql).unwrap().parse().unwrap()
}

fn difference(after: &BTreeMap<String, u64>, before: &BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    after.iter().map(|(k, v)| (k.clone(), v - before.get(k).copied().unwrap_or(0))).filter(|(_, v)| *v > 0).collect()
}

/// One run's shape.
struct Settings {
    games: u64,
    seconds: f64,
    warm_up: f64,
    move_every: f64,
    push: bool,
    notifying: bool,
    player_hidden: f64,
    cron_every: f64,
}

impl Settings {
    /// The full run's settings, or under `cargo test` the quick smoke run's.
    fn defaults(full: bool) -> Settings {
        Settings {
            games: if full { 60 } else { 3 },
            seconds: if full { 600.0 } else { 20.0 },
            // Games start spread over this time, and only after it are things counted: by then the
            // games are at every stage, as in a long day's play (a game of 50 moves lasts about 510 s).
            warm_up: if full { 540.0 } else { 3.0 },
            move_every: if full { 10.0 } else { 1.0 },
            push: true,
            notifying: true,
            // The smoke run's players are always away, so its short run is sure to push.
            player_hidden: if full { 0.25 } else { 1.0 },
            cron_every: if full { 60.0 } else { 5.0 },
        }
    }

    /// `defaults(full)` with what the environment sets (the `CAPACITY_*` variables above).
    fn from_env(full: bool) -> Settings {
        let d = Settings::defaults(full);
        Settings {
            games: env_number("CAPACITY_GAMES", d.games as f64) as u64,
            seconds: env_number("CAPACITY_SECONDS", d.seconds),
            warm_up: env_number("CAPACITY_WARM_UP_SECONDS", d.warm_up),
            move_every: env_number("CAPACITY_MOVE_SECONDS", d.move_every),
            push: std::env::var("CAPACITY_PUSH").map_or(d.push, |v| v != "off"),
            notifying: std::env::var("CAPACITY_NOTIFY").map_or(d.notifying, |v| v != "off"),
            player_hidden: env_number("CAPACITY_PLAYER_HIDDEN", d.player_hidden),
            cron_every: env_number("CAPACITY_CRON_SECONDS", d.cron_every),
        }
    }

    /// The full run's pacing (docs/CAPACITY.md's figures), whatever the environment says, on fewer
    /// games for less time: counted in the middle of games (no game starts or ends in the window),
    /// so what a game's start costs (page loads, the room's creation, about 7% of the requests) is
    /// missing.
    fn documented_pacing() -> Settings {
        Settings { games: 6, seconds: 120.0, warm_up: 60.0, ..Settings::defaults(true) }
    }
}

/// What one run counted.
struct Measured {
    per_game_hour: BTreeMap<String, f64>,
    counts: BTreeMap<String, u64>,
    redis_commands: BTreeMap<String, u64>,
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    if full {
        measure(&Settings::from_env(true));
        return;
    }
    let quick = Settings::from_env(false);
    let measured = measure(&quick);
    smoke_checks(&measured.per_game_hour, quick.push, quick.notifying, Path::new("docs/capacity-quotas.json"));
    // Only requests that create rows (POST) pass the shared limiter: one script call each (and
    // one refused before Redis had the script loaded).
    let commands = &measured.redis_commands;
    let scripts = commands.get("evalsha").copied().unwrap_or(0) + commands.get("eval").copied().unwrap_or(0);
    let creating: u64 = measured.counts.iter().filter(|(k, _)| k.starts_with("POST /api/")).map(|(_, v)| *v).sum();
    assert!(
        (creating..=creating + 1).contains(&scripts),
        "{scripts} limiter scripts ran in Redis for {creating} POSTs"
    );
    // Then at the documented pacing: what a game-hour costs must still be what the docs say.
    let paced = measure(&Settings::documented_pacing());
    pacing_checks(&paced.per_game_hour, &services::repo_root().join("docs/CAPACITY.md"));
}

/// Runs `settings`' games against a server of the deployed form, prints the counts and what the
/// quotas allow, and returns the counts.
fn measure(settings: &Settings) -> Measured {
    let Settings { games, seconds, warm_up, move_every, push, notifying, player_hidden, cron_every } = *settings;
    let supabase = services::supabase();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let postgrest_counts = Arc::new(count::Counts::default());
    let postgrest_url = runtime.block_on(count::postgrest_proxy(supabase.rest_url.clone(), postgrest_counts.clone()));
    let redis = services::own_redis();
    let (site, page_assets) = site();
    let mut env = vec![
        ("SUPABASE_REST_URL", postgrest_url),
        ("SUPABASE_SECRET_KEY", supabase.jwt("service_role")),
        ("REDIS_URL", redis.url.clone()),
        // The limiter's every check is counted; the limit itself is high enough never to refuse.
        ("RATE_LIMIT_PER_MINUTE", "1000000".into()),
    ];
    // Web Push to the stand-in, and the cron's secret (its pass over clocks runs every minute).
    let notify = notifying.then(|| {
        let (public_key, private_key) = tabula_api::webpush::VapidKeys::generate().expect("a VAPID pair");
        env.push(("VAPID_PUBLIC_KEY", public_key.clone()));
        env.push(("VAPID_PRIVATE_KEY", private_key));
        env.push(("VAPID_SUBJECT", "mailto:capacity@tabula.invalid".into()));
        env.push(("PUSH_SERVICE_HOSTS", "localhost".into()));
        env.push(("CRON_SECRET", CRON_SECRET.into()));
        page::Notify { service: services::web_push_service().to_owned(), public_key }
    });
    if push {
        // `/api/push` answers Realtime; the socket is never opened (the stand-in delivers).
        env.push(("SUPABASE_REALTIME_URL", "http://127.0.0.1:9/realtime/v1".into()));
        env.push(("SUPABASE_ANON_KEY", "capacity-bench".into()));
    }
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let server = common::Server::start_with_env(site, &env);

    let behaviour = Behaviour {
        move_every: Duration::from_secs_f64(move_every),
        spectator_hidden: 0.5,
        player_hidden,
        notify: notify.clone(),
        page_assets,
    };
    let world = Arc::new(World {
        http: reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap(),
        base: server.base.clone(),
        counts: count::Counts::default(),
        channels: Channels::default(),
        behaviour: behaviour.clone(),
        stop: Default::default(),
        subscriptions: Default::default(),
    });

    let (game_hours, cpu, redis_commands, postgrest, rows, counts) = runtime.block_on(async {
        let relay = tokio::spawn(relay(world.clone(), &supabase.postgres));
        let cron_every = Duration::from_secs_f64(cron_every);
        let cron =
            notify.is_some().then(|| tokio::spawn(page::cron_clocks(world.clone(), cron_every, CRON_SECRET.into())));
        let slots: Vec<_> = (0..games)
            .map(|slot| {
                let start = Duration::from_secs_f64(warm_up * slot as f64 / games as f64);
                tokio::spawn(page::play_games(world.clone(), slot, start))
            })
            .collect();
        tokio::time::sleep(Duration::from_secs_f64(warm_up)).await;
        let pushes_before = page::pushes_received(&world, notify.as_ref()).await;
        let snapshot = || {
            let postgres = &supabase.postgres;
            (
                count::cpu_seconds(server.pid()),
                count::redis_commands(&redis.url),
                postgrest_counts.snapshot(),
                rows_written(postgres),
                world.counts.snapshot(),
            )
        };
        let before = tokio::task::block_in_place(snapshot);
        let started = Instant::now();
        tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
        let after = tokio::task::block_in_place(snapshot);
        let game_hours = games as f64 * started.elapsed().as_secs_f64() / 3600.0;
        let pushes_after = page::pushes_received(&world, notify.as_ref()).await;
        let web_pushes = pushes_after.saturating_sub(pushes_before);
        world.stop.store(true, Ordering::Relaxed);
        if let Some(cron) = cron {
            cron.await.unwrap();
        }
        for slot in slots {
            slot.await.unwrap();
        }
        relay.await.unwrap();
        (
            game_hours,
            after.0 - before.0,
            difference(&after.1, &before.1),
            difference(&after.2, &before.2),
            after.3 - before.3,
            {
                // Counted at the push service stand-in (subscriptions made in the counted time began with none).
                let mut counts = difference(&after.4, &before.4);
                counts.insert("web push messages".to_owned(), web_pushes);
                counts
            },
        )
    });
    let mut postgrest = postgrest;
    let postgrest_bytes = postgrest.remove("answer bytes").unwrap_or(0);

    let sum = |prefix: &str| counts.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(_, v)| *v).sum::<u64>();
    let api_requests = sum("GET /api/") + sum("PUT /api/") + sum("POST /api/");
    let web_pushes = counts.get("web push messages").copied().unwrap_or(0);
    let mut per_game_hour = BTreeMap::new();
    let mut per = |what: &str, n: f64| per_game_hour.insert(what.to_owned(), n / game_hours);
    per("function invocations", api_requests as f64);
    per("moves", sum("PUT /api/game (move)") as f64);
    per("edge requests", (api_requests + sum("static")) as f64);
    per("function CPU seconds", cpu);
    per("bytes sent", sum("bytes sent") as f64);
    per("redis commands", redis_commands.values().sum::<u64>() as f64);
    per("realtime messages", sum("realtime: broadcast messages") as f64 + sum("realtime: presence messages") as f64);
    per("realtime presence messages", sum("realtime: presence messages") as f64);
    per("realtime joins", sum("realtime: joins") as f64);
    per("postgrest requests", postgrest.values().sum::<u64>() as f64);
    per("supabase egress bytes", (postgrest_bytes + sum("realtime: bytes out")) as f64);
    per("rows written", rows as f64);
    per("web push messages", web_pushes as f64);
    let mut per_game = BTreeMap::new();
    per_game.insert("realtime connections".to_owned(), if push { 3.0 } else { 0.0 });
    per_game
        .insert("function concurrency".to_owned(), sum("function milliseconds") as f64 / 1000.0 / 3600.0 / game_hours);

    let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_default();
    println!(
        "\n## Capacity run: {games} games at once, counted for {seconds:.0} s after {warm_up:.0} s, push {}, \
         notifications {}, players' tabs hidden {:.0}% of the time, a move every {move_every} s",
        if push { "on" } else { "off" },
        if notifying { "on" } else { "off" },
        player_hidden * 100.0
    );
    println!(
        "\n{game_hours:.2} game-hours counted ({} games finished in that time); CPU: {cpu_model}\n",
        sum("games finished")
    );
    println!("| count | total | per game-hour |\n|---|---:|---:|");
    let mut rows_out: Vec<(String, u64)> = counts.clone().into_iter().collect();
    rows_out.extend(redis_commands.iter().map(|(k, v)| (format!("Redis {k}"), *v)));
    rows_out.extend(postgrest.iter().map(|(k, v)| (format!("PostgREST {k}"), *v)));
    rows_out.push(("PostgREST answer bytes".into(), postgrest_bytes));
    rows_out.push(("PostgreSQL rows written".into(), rows));
    for (what, n) in &rows_out {
        println!("| {what} | {n} | {:.0} |", *n as f64 / game_hours);
    }
    println!("| server CPU seconds | {cpu:.1} | {:.2} |", cpu / game_hours);
    let quotas: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(services::repo_root().join("docs/capacity-quotas.json"))
            .expect("docs/capacity-quotas.json"),
    )
    .expect("the quotas file is JSON");
    println!("{}", quotas::report(&quotas, &per_game_hour, &per_game));

    Measured { per_game_hour, counts, redis_commands }
}

/// The documented figure of the row of docs/CAPACITY.md's results table that names `label`: its
/// last column (the design as it is now).
fn documented(doc: &str, label: &str) -> f64 {
    let row = doc.lines().find(|l| l.starts_with('|') && l.contains(label));
    let row = row.unwrap_or_else(|| panic!("docs/CAPACITY.md has no row {label:?}"));
    let cell = row.trim_end_matches('|').rsplit('|').next().unwrap_or("");
    let number = cell.replace(['*', ','], "");
    number.trim().parse().unwrap_or_else(|_| panic!("docs/CAPACITY.md's row {label:?} ends with {cell:?}"))
}

/// At the documented pacing, the requests a game-hour makes are within 25% of what
/// docs/CAPACITY.md says (a change that doubles the polls fails here, not only in the next full run).
fn pacing_checks(per_game_hour: &BTreeMap<String, f64>, doc: &Path) {
    let doc = std::fs::read_to_string(doc).expect("docs/CAPACITY.md");
    for (label, measure) in [("**function invocations**", "function invocations"), ("`PUT /api/game` (moves)", "moves")]
    {
        let measured = per_game_hour.get(measure).copied().unwrap_or(0.0);
        let documented = documented(&doc, label);
        let ratio = measured / documented;
        println!("{label}: {measured:.0} a game-hour, documented {documented:.0} ({ratio:.2}x)");
        assert!(
            (0.75..=1.25).contains(&ratio),
            "{label}: {measured:.0} a game-hour at the documented pacing, docs/CAPACITY.md says {documented:.0}"
        );
    }
}

/// The smoke run: every measure a quota divides by was counted, so a broken count fails here.
fn smoke_checks(per_game_hour: &BTreeMap<String, f64>, push: bool, notify: bool, quotas: &Path) {
    for measure in [
        "function invocations",
        "edge requests",
        "function CPU seconds",
        "bytes sent",
        "redis commands",
        "postgrest requests",
        "rows written",
    ] {
        let value = per_game_hour.get(measure).copied().unwrap_or(0.0);
        assert!(
            value > 0.0 && value.is_finite(),
            "{measure} was not counted ({value}); quotas in {}",
            quotas.display()
        );
    }
    if notify {
        assert!(per_game_hour.get("web push messages").is_some_and(|v| *v > 0.0), "no web push was counted");
    }
    if push {
        for measure in ["realtime messages", "realtime joins"] {
            assert!(per_game_hour.get(measure).is_some_and(|v| *v > 0.0), "{measure} was not counted");
        }
    }
}
