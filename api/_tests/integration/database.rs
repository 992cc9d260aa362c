//! The SQL scripts on a real PostgreSQL, and what the public (anon) key can do through PostgREST.

use serde_json::json;

use crate::client::{room_id, Backend, TestApi};
use crate::services::{repo_root, supabase};

/// With the anon or authenticated role, PostgREST must neither show room rows (token hashes) nor
/// accept any write, nor call any function.
#[tokio::test]
async fn the_public_key_can_neither_read_nor_write_rooms() {
    let supabase = supabase();
    let api = TestApi::start(Backend::Postgrest).await;
    let room = room_id();
    api.seated_room(&room).await;
    let http = reqwest::Client::new();
    let rooms = format!("{}/rooms", supabase.rest_url);
    let row = json!({"room_id": room_id(), "game": "popucom"});
    let solves = format!("{}/triplex_solves", supabase.rest_url);
    let solve = json!({"level": 1, "name": "anon", "ms": 1000});
    for (who, bearer) in
        [("no key", None), ("anon", Some(supabase.jwt("anon"))), ("authenticated", Some(supabase.jwt("authenticated")))]
    {
        let with_key = |request: reqwest::RequestBuilder| match &bearer {
            Some(jwt) => request.bearer_auth(jwt),
            None => request,
        };
        let requests = [
            ("read", with_key(http.get(&rooms).query(&[("room_id", format!("eq.{room}"))]))),
            ("insert", with_key(http.post(&rooms).json(&row))),
            (
                "update",
                with_key(http.patch(&rooms).query(&[("room_id", format!("eq.{room}"))]).json(&json!({"version": 99}))),
            ),
            ("delete", with_key(http.delete(&rooms).query(&[("room_id", format!("eq.{room}"))]))),
            ("call a function", with_key(http.post(format!("{}/rpc/now", supabase.rest_url)).json(&json!({})))),
            ("read Triplex solves", with_key(http.get(&solves))),
            ("add a Triplex solve", with_key(http.post(&solves).json(&solve))),
            ("read Triplex records", with_key(http.get(format!("{}/triplex_records", supabase.rest_url)))),
        ];
        for (what, request) in requests {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let body = response.text().await.unwrap();
            assert!(matches!(status, 401 | 403 | 404), "{who} may {what}: {status} {body}");
            assert!(!body.contains("token_hash"), "{who} saw seat hashes: {body}");
        }
    }
    let after = api.get(&room).await.body;
    assert_eq!(after["version"], 2, "nothing the public key sent changed the room");
}

#[test]
fn init_sql_is_idempotent_and_closes_the_original_games_table() {
    let postgres = &supabase().postgres;
    let database = format!("migrate_{:08x}", rand::random::<u32>());
    postgres.sql("postgres", &format!("create database {database}")).unwrap();
    // The original public version's table, open to anyone with the anon key.
    postgres
        .sql(
            &database,
            "create table public.games (room_id text primary key, board jsonb, territory jsonb, \
             current_player int, winner int, last_move_pos jsonb, updated_at timestamptz default now());
             alter table public.games enable row level security;
             create policy \"Enable all access\" on public.games for all using (true) with check (true);
             grant all on public.games to anon, authenticated;
             insert into public.games (room_id, current_player) values ('old-room', 1);",
        )
        .unwrap();
    assert_eq!(
        postgres.sql(&database, "set role anon; select count(*) from public.games").unwrap(),
        "1",
        "open before"
    );

    let init = repo_root().join("sql/init.sql");
    postgres.sql_file(&database, &init).expect("init.sql on a project with the original table");
    postgres.sql_file(&database, &init).expect("init.sql a second time");

    assert_eq!(postgres.sql(&database, "select count(*) from public.games").unwrap(), "1", "old rows are kept");
    for role in ["anon", "authenticated"] {
        for statement in [
            "select count(*) from public.games",
            "insert into public.games (room_id) values ('x')",
            "select count(*) from public.rooms",
            "insert into public.rooms (room_id, game) values ('x', 'popucom')",
            "select count(*) from public.triplex_solves",
            "insert into public.triplex_solves (level, name, ms) values (1, 'x', 5)",
            "select count(*) from public.triplex_records",
        ] {
            let result = postgres.sql(&database, &format!("set role {role}; {statement}"));
            assert!(result.is_err(), "{role} may run {statement:?}: {result:?}");
        }
    }
    let tables = "('games', 'rooms', 'triplex_solves')";
    let policies =
        postgres.sql(&database, &format!("select count(*) from pg_policies where tablename in {tables}")).unwrap();
    assert_eq!(policies, "0", "no policy opens any table");
    let rls = postgres
        .sql(&database, &format!("select bool_and(relrowsecurity) from pg_class where relname in {tables}"))
        .unwrap();
    assert_eq!(rls, "t");
    // The functions' role still works, and the constraints hold.
    postgres
        .sql(&database, "set role service_role; insert into public.rooms (room_id, game) values ('ok-room', 'popucom')")
        .unwrap();
    assert!(postgres
        .sql(&database, "insert into public.rooms (room_id, game) values ('bad room!', 'popucom')")
        .is_err());
    assert!(postgres
        .sql(&database, "insert into public.rooms (room_id, game, moves) values ('r2', 'popucom', '{}')")
        .is_err());
    assert!(postgres.sql(&database, "update public.rooms set version = -1").is_err());
    postgres
        .sql(
            &database,
            "set role service_role; insert into public.triplex_solves (level, name, ms) values (3, 'ok', 9)",
        )
        .unwrap();
    assert!(postgres.sql(&database, "insert into public.triplex_solves (level, name, ms) values (3, '', 9)").is_err());
    assert!(postgres.sql(&database, "insert into public.triplex_solves (level, name, ms) values (0, 'a', 9)").is_err());
    let index =
        postgres.sql(&database, "select count(*) from pg_indexes where indexname = 'rooms_updated_at_idx'").unwrap();
    assert_eq!(index, "1");
    postgres.sql("postgres", &format!("drop database {database} with (force)")).unwrap();
}

/// Held by the tests that run the cron scripts: two `create extension if not exists pg_cron` at
/// the same moment make one fail on the catalogue's unique index (it failed 3 runs in 4 when only
/// this file's tests ran).
static CRON_SCRIPTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn cron_clocks_schedules_one_job_a_minute_that_calls_the_clock_pass() {
    let _cron = CRON_SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    let postgres = &supabase().postgres;
    // pg_net's function, as the job calls it, recording its calls (pg_net itself is not packaged
    // for Debian; Supabase has it).
    postgres
        .sql(
            "postgres",
            "create schema if not exists net;
             create table if not exists net.calls (url text, headers jsonb, timeout_milliseconds int);
             create or replace function net.http_get(url text, params jsonb default '{}', headers jsonb default '{}',
                 timeout_milliseconds int default 5000) returns bigint language sql as
                 $$ insert into net.calls values (url, headers, timeout_milliseconds) returning 1::bigint $$;",
        )
        .unwrap();
    let script = repo_root().join("sql/cron-clocks.sql");
    for _ in 0..2 {
        let output = postgres
            .psql("postgres")
            .args(["-v", "site_url=https://tabula.example/", "-v", "cron_secret=s3cret", "-f"])
            .arg(&script)
            .output()
            .expect("psql runs");
        assert!(output.status.success(), "cron-clocks.sql: {}", String::from_utf8_lossy(&output.stderr));
    }
    let jobs = postgres.sql("postgres", "select schedule from cron.job where jobname = 'tabula-clocks'").unwrap();
    assert_eq!(jobs.lines().collect::<Vec<_>>(), ["* * * * *"], "one job, every minute, after two runs");
    let command = postgres.sql("postgres", "select command from cron.job where jobname = 'tabula-clocks'").unwrap();
    postgres.sql("postgres", &command).unwrap();
    let call = postgres.sql("postgres", "select url || ' ' || (headers ->> 'Authorization') from net.calls").unwrap();
    assert_eq!(call, "https://tabula.example/api/cron?task=clocks Bearer s3cret");
}

#[test]
fn cron_cleanup_schedules_one_daily_job_that_deletes_idle_rooms() {
    let _cron = CRON_SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    let postgres = &supabase().postgres;
    let script = repo_root().join("sql/cron-cleanup.sql");
    postgres.sql_file("postgres", &script).expect("cron-cleanup.sql");
    postgres.sql_file("postgres", &script).expect("cron-cleanup.sql a second time");
    let jobs = postgres
        .sql("postgres", "select schedule || ' | ' || command from cron.job where jobname = 'tabula-delete-idle-rooms'")
        .unwrap();
    let lines: Vec<&str> = jobs.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one job after two runs: {jobs}");
    let (schedule, command) = lines[0].split_once(" | ").unwrap();
    let fields: Vec<&str> = schedule.split_whitespace().collect();
    assert_eq!(fields[2..], ["*", "*", "*"], "daily: {schedule}");

    let (idle, active) = (room_id(), room_id());
    postgres
        .sql(
            "postgres",
            &format!(
                "insert into public.rooms (room_id, game, updated_at) values
                 ('{idle}', 'popucom', now() - interval '49 hours'), ('{active}', 'popucom', now() - interval '47 hours')"
            ),
        )
        .unwrap();
    postgres.sql("postgres", command).expect("the job's command runs");
    let left = postgres
        .sql("postgres", &format!("select room_id from public.rooms where room_id in ('{idle}', '{active}')"))
        .unwrap();
    assert_eq!(left, active, "only the room idle for over 48 hours is gone");
}

/// The Realtime broadcasts of `sql/init.sql`'s trigger for `room`, as the stand-in recorded them.
fn broadcasts(room: &str) -> Vec<serde_json::Value> {
    let rows = supabase()
        .postgres
        .sql(
            "postgres",
            &format!(
                "select json_build_object('payload', payload, 'event', event, 'topic', topic, 'private', private) \
                 from realtime.sent where topic = 'room:{room}' order by id"
            ),
        )
        .unwrap();
    rows.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// Through the API on PostgREST: each new version of a room (created, two seats, a move, a
/// resignation) is broadcast once, with only the room id and version where pages do not listen on
/// Realtime (the room itself travels only where they do), on the room's public topic;
/// a poll (presence) and a refused move broadcast nothing; and when Realtime fails, the moves
/// still land.
#[tokio::test]
async fn the_database_broadcasts_each_room_version_and_a_failed_broadcast_loses_no_move() {
    let api = TestApi::start(Backend::Postgrest).await;
    let room = room_id();
    let [one, two] = api.seated_room(&room).await;
    assert_eq!(api.play(&room, &one, 2, json!([4, 4])).await.status, 200);
    assert_eq!(api.poll(&room, &two).await.status, 200);
    assert_eq!(api.play(&room, &one, 3, json!([4, 5])).await.status, 422);
    assert_eq!(api.act(&room, &two, 3, "resign").await.status, 200);
    let sent = broadcasts(&room);
    let expected: Vec<_> = (0..=4)
        .map(|version| {
            json!({"payload": {"roomId": room, "version": version}, "event": "room",
                   "topic": format!("room:{room}"), "private": false})
        })
        .collect();
    assert_eq!(sent, expected);

    // Realtime down (the stand-in fails for these rooms): every write still lands.
    let down = format!("fail-{}", &room_id()[1..9]);
    let [one, _] = api.seated_room(&down).await;
    assert_eq!(api.play(&down, &one, 2, json!([0, 0])).await.status, 200);
    assert_eq!(api.get(&down).await.body["version"], 3);
    assert!(broadcasts(&down).is_empty());
}

/// Where pages listen on Supabase Realtime, each broadcast also carries the room as a page would
/// fetch it, its view and ETag, at the broadcast's version: pages need not fetch it. The second
/// move is answered from the API's cache, whose copy follows the polls, so its broadcast shows the
/// watchers a poll counts.
#[tokio::test]
async fn where_pages_listen_on_realtime_the_broadcast_carries_the_room() {
    let api = TestApi::start_realtime(Backend::Postgrest).await;
    let room = room_id();
    let [one, two] = api.seated_room(&room).await;
    assert_eq!(api.play(&room, &one, 2, json!([4, 4])).await.status, 200);
    let request = api.http.get(api.url()).query(&[("roomId", room.as_str()), ("pages", "3")]);
    let counted = api.send(request.header("x-tabula-token", &two)).await;
    assert_eq!(counted.body["watching"], 1, "{}", counted.raw);
    assert_eq!(api.poll(&room, &one).await.status, 200);
    assert_eq!(api.play(&room, &two, 3, json!([0, 0])).await.status, 200);
    let fetched = api.get(&room).await;
    assert_eq!(fetched.body["watching"], 1);
    let sent = broadcasts(&room);
    assert_eq!(sent.len(), 5, "created, two seats, two moves: {sent:?}");
    for broadcast in &sent {
        let payload = &broadcast["payload"];
        assert_eq!(payload["view"]["version"], payload["version"], "{payload}");
        assert!(payload["etag"].as_str().is_some_and(|etag| etag.contains(&format!("-{}", payload["version"]))));
    }
    let last = &sent[4]["payload"];
    assert_eq!(last["view"], fetched.body, "the broadcast view is the room a page fetches");
    assert_eq!(last["etag"].as_str(), fetched.headers["etag"].to_str().ok());
    // Broadcast, not stored: the API reads whole rows, which would carry the view again.
    let sql = format!("select count(*) from public.rooms where room_id = '{room}' and pushed_view is null");
    assert_eq!(supabase().postgres.sql("postgres", &sql).unwrap().trim(), "1", "the stored row keeps no view");
}
