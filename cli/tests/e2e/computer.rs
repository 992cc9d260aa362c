//! Playing the computer: the search runs in a Web Worker, so while it thinks the page has no task
//! over 100 ms (the Long Tasks API), "Thinking" shows, and its move arrives within the level's
//! budget; its moves are the engine's legal moves; a takeback returns to the player's turn; a hint
//! names a move.

use std::time::{Duration, Instant};

use serde_json::Value;
use tabula_core::popucom::Popucom;
use tabula_core::{Game, GameKind};

use super::browser::{board, click, js, screenshot, site_dist, text, type_move, wait_for_app, wait_until, Driver};
use super::common::Server;
use super::{exclusive, expected_board, index};

/// How long a move of the top level may take to arrive: it is sized to think about a second on the
/// project's 2-core machine; the rest is headroom for a busier machine. On a slower CPU the bound
/// is the same search run natively there, times `WASM_ALLOWANCE` (`reply_bound`): the machine kind
/// is fixed but its CPU changes, and a fixed bound alone failed on one (POPUCOM's first reply
/// 1.96 s, Edges & Blocks 1.68 s, where another CPU of the kind took about 1 s).
const TOP_LEVEL_BUDGET: Duration = Duration::from_millis(1500);

/// The slowest the worker's engine may run against native code, which the playouts' speed test
/// holds it to (`popucom_playouts_in_the_worker_equal_the_native_ones_and_are_timed`): it runs at
/// 68 to 99% (docs/AI.md), 49 to 67% in a slow hour of 2026-12-03. A debug build, or a bundle
/// built without the engine's optimisation, is far slower.
const WASM_SPEED_FLOOR: f64 = 0.4;

/// How many times the native time a reply may take: as slow a worker as the speed test lets
/// through (twice, the bar until 2026-12-03, left the first replies in the slow hour a margin of
/// 13 to 30% where the playouts ran at half speed).
const WASM_ALLOWANCE: f64 = 1.0 / WASM_SPEED_FLOOR;

/// How long the browser's reply may have taken: `TOP_LEVEL_BUDGET`, or `WASM_ALLOWANCE` times
/// the same search in native code on this machine now (level 5 from the position before the
/// reply), where that is more. Measured after the reply arrived, so the two never share the CPU.
/// With `kept_tree` (a worker that has answered before in this game) the native search is the
/// position's whole budget (the early answer, then the playouts it left owed: a worker's search
/// from its kept tree need not be decided as soon as a fresh one, a reply of 2.3 s where a fresh
/// native search answered in 0.8 s), and the bound one budget more, for what the last answer
/// still owed (2.7 s once).
fn reply_bound(game: &str, config: &Value, moves_before: &[Value], kept_tree: bool) -> (Duration, Duration) {
    let kind: GameKind = game.parse().unwrap();
    let mut player = tabula_core::ai::AnyPlayer::new(kind, 5, 11).unwrap();
    let started = Instant::now();
    let choice = player.choose(config, moves_before, None).unwrap();
    assert!(choice.is_some(), "{game}: the native search finds a move");
    if kept_tree {
        player.think(u32::MAX);
    }
    let native = started.elapsed();
    let allowance = if kept_tree { WASM_ALLOWANCE + 1.0 } else { WASM_ALLOWANCE };
    (native, TOP_LEVEL_BUDGET.max(native.mul_f64(allowance)))
}

/// Starts recording the page's long tasks (`window.longTasks`: their durations in ms).
async fn record_long_tasks(client: &fantoccini::Client) {
    js(
        client,
        "window.longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) \
         window.longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' }); return true",
    )
    .await;
}

async fn long_tasks(client: &fantoccini::Client) -> Vec<u64> {
    serde_json::from_value(js(client, "return window.longTasks").await).unwrap()
}

/// The local game the page keeps for `game`: its config and moves.
async fn saved(client: &fantoccini::Client, game: &str) -> (Value, Vec<Value>) {
    let saved = js(client, &format!("return JSON.parse(localStorage.getItem('tabula.local.{game}'))")).await;
    (saved["config"].clone(), serde_json::from_value(saved["moves"].clone()).unwrap_or_default())
}

/// Waits until the page's saved game has `count` moves; returns how long that took.
/// The local screen of `game` with `config` and `moves` saved as its game (as a player who left
/// it so would find it).
async fn open_saved_local_game(client: &fantoccini::Client, base: &str, game: &str, config: &Value, moves: &[Value]) {
    let saved = serde_json::json!({"config": config, "moves": moves}).to_string();
    client.goto(&format!("{base}/{game}/local")).await.unwrap();
    wait_for_app(client).await;
    js(client, &format!("localStorage.setItem('tabula.local.{game}', {saved:?}); return 1")).await;
    client.refresh().await.unwrap();
    wait_for_app(client).await;
}

async fn moves_reach(client: &fantoccini::Client, game: &str, count: usize, within: Duration, what: &str) -> Duration {
    let start = Instant::now();
    loop {
        if saved(client, game).await.1.len() >= count {
            return start.elapsed();
        }
        let panicked = js(client, "return document.documentElement.dataset.panic === '1'").await;
        assert_eq!(panicked, Value::Bool(false), "the app panicked waiting for {what}");
        assert!(start.elapsed() < within, "{what}: no move within {within:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_popucom_in_a_worker_while_the_page_stays_responsive() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/popucom", server.base)).await.unwrap();
    wait_for_app(&client).await;
    js(&client, "const s = document.getElementById('computer-level'); s.value = '5'; s.dispatchEvent(new Event('change')); return true").await;
    click(&client, "#play-computer").await;
    wait_until(
        &client,
        "return location.pathname === '/popucom/local' && location.search.includes('computer=5')",
        10,
        "the game against the computer",
    )
    .await;
    wait_for_app(&client).await;
    assert!(text(&client, "#computer-line").await.contains("level 5"), "the page says who plays whom");
    record_long_tasks(&client).await;

    let mut game = Popucom::default();
    let mut thinking_seen = false;
    let mut times = Vec::new();
    for turn in 0..4 {
        let cell = game.legal_moves()[turn * 7 % game.legal_moves().len()];
        click(&client, &format!("#cell-{}", index(cell))).await;
        game.play(&cell).unwrap();
        // While it thinks: "Thinking" shows, and a tap on the board is answered at once (it is
        // not the player's turn), which a frozen page could not do.
        let tap = Instant::now();
        if !text(&client, "#thinking").await.is_empty() {
            thinking_seen = true;
            let other = game.legal_moves()[0];
            click(&client, &format!("#cell-{}", index(other))).await;
            let said = text(&client, "#notice").await;
            if saved(&client, "popucom").await.1.len() == game.moves_played() as usize {
                assert!(!said.is_empty(), "a tap while the computer thinks is answered");
                assert!(tap.elapsed() < Duration::from_millis(500), "the tap took {:?}", tap.elapsed());
            }
        }
        let took = moves_reach(
            &client,
            "popucom",
            game.moves_played() as usize + 1,
            TOP_LEVEL_BUDGET * 4,
            "the computer's move",
        )
        .await;
        let (config, moves) = saved(&client, "popucom").await;
        let (native, bound) = reply_bound("popucom", &config, &moves[..moves.len() - 1], true);
        times.push((took, native, bound));
        let reply: tabula_core::popucom::Cell = serde_json::from_value(moves.last().unwrap().clone()).unwrap();
        game.play(&reply).expect("the computer's move is legal");
        wait_until(&client, "return document.getElementById('thinking').textContent === ''", 5, "thinking to end")
            .await;
        assert_eq!(board(&client).await, expected_board(&game), "the page shows the engine's board");
    }
    println!("POPUCOM level 5, the computer's moves arrived in (browser, native, bound) {times:?}");
    assert!(thinking_seen, "\"Thinking\" showed while the computer thought");
    for (took, native, bound) in &times {
        assert!(took < bound, "a move took {took:?}, over {bound:?} (native {native:?})");
    }
    let tasks = long_tasks(&client).await;
    assert!(tasks.iter().all(|&ms| ms <= 100), "main-thread tasks while the computer played: {tasks:?} ms");

    // A takeback returns to the player's turn: the player's move and the computer's reply go.
    click(&client, "#takeback").await;
    wait_until(
        &client,
        "return JSON.parse(localStorage.getItem('tabula.local.popucom')).moves.length === 6",
        5,
        "two moves taken back",
    )
    .await;
    let (config, moves) = saved(&client, "popucom").await;
    let back = GameKind::Popucom.replay(&config, &moves).unwrap();
    assert_eq!(back.status().to_move().map(|s| s.number()), Some(1), "the player (Red) is to move");

    // A hint names a move, and the computer does not move for the player.
    click(&client, "#hint").await;
    wait_until(&client, "return document.getElementById('notice').textContent.startsWith('Hint: ')", 10, "a hint")
        .await;
    assert_eq!(saved(&client, "popucom").await.1.len(), 6, "a hint plays nothing");
    client.close().await.unwrap();
}

/// The computer's reply at the top level in each other game, to a move typed by the player: within
/// the budget, with no long task, and legal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_in_go_edges_and_chess_at_the_top_level_within_its_budget() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    let mut report = Vec::new();
    for (game, opening) in [("go", "E5"), ("edges", "H3,3"), ("chess", "e2e4")] {
        client.goto(&format!("{}/{game}/local?computer=5&side=1", server.base)).await.unwrap();
        wait_for_app(&client).await;
        record_long_tasks(&client).await;
        type_move(&client, opening).await;
        moves_reach(&client, game, 1, Duration::from_secs(5), &format!("{game}: the player's move")).await;
        let took = moves_reach(&client, game, 2, TOP_LEVEL_BUDGET * 4, &format!("{game}: the computer's reply")).await;
        let (config, moves) = saved(&client, game).await;
        let (native, bound) = reply_bound(game, &config, &moves[..1], false);
        let kind: GameKind = game.parse().unwrap();
        kind.replay(&config, &moves)
            .unwrap_or_else(|e| panic!("{game}: the computer's move {moves:?} is illegal: {e:?}"));
        let tasks = long_tasks(&client).await;
        report.push(format!("{game}: {took:?} (native {native:?}, bound {bound:?}), long tasks {tasks:?}"));
        println!("{}", report.last().unwrap());
        assert!(took < bound, "{game}: the reply took {took:?}, over {bound:?}");
        assert!(tasks.iter().all(|&ms| ms <= 100), "{game}: main-thread tasks while it thought: {tasks:?} ms");
        js(&client, &format!("localStorage.removeItem('tabula.local.{game}'); return true")).await;
    }
    println!("top level, first reply: {report:?}");
    client.close().await.unwrap();
}

/// How long the player of the whole Go game below takes over each move.
const PLAYER_THINKS: Duration = Duration::from_millis(1500);

/// Go at the top level over a whole game (issue 51's "about 1 s a move in the browser"): a weaker
/// native player (level 3, which does not blunder into an early pass) types its moves, the worker
/// answers each until either passes; every reply's time is printed for docs/AI.md, and the slowest
/// must be within its position's bound (`reply_bound`, kept tree). The player takes
/// `PLAYER_THINKS` over each move: the worker plays the playouts its last answer did not wait for
/// in that time, as it would while a person thinks; a player who answers at once waits for them
/// too (a reply then took about 3 s where the native search took 1.8).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_every_move_of_a_whole_go_game_within_its_budget() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/go/local?computer=5&side=1", server.base)).await.unwrap();
    wait_for_app(&client).await;
    let mut player = tabula_core::ai::AnyPlayer::new(GameKind::Go, 3, 3).unwrap();
    let mut replies: Vec<(Duration, usize)> = Vec::new();
    // A game ends in two passes; 40 replies are past the middle game of a 9x9 game either way.
    while replies.len() < 40 {
        let (config, moves) = saved(&client, "go").await;
        let Some(choice) = player.choose(&config, &moves, None).unwrap() else { break };
        let typed = match choice.mv["type"].as_str() {
            Some("play") => choice.mv["at"].as_str().unwrap().to_string(),
            _ => "pass".to_string(),
        };
        tokio::time::sleep(PLAYER_THINKS).await;
        type_move(&client, &typed).await;
        moves_reach(&client, "go", moves.len() + 1, Duration::from_secs(5), "the player's move").await;
        let took = moves_reach(&client, "go", moves.len() + 2, TOP_LEVEL_BUDGET * 8, "the computer's reply").await;
        replies.push((took, moves.len() + 1));
        let (config, moves) = saved(&client, "go").await;
        GameKind::Go.replay(&config, &moves).unwrap_or_else(|e| panic!("an illegal reply in {moves:?}: {e:?}"));
        wait_until(&client, "return document.getElementById('thinking').textContent === ''", 5, "thinking to end")
            .await;
        if typed == "pass" || moves.last().unwrap()["type"] != "play" {
            break;
        }
    }
    let times: Vec<Duration> = replies.iter().map(|r| r.0).collect();
    let mut sorted = times.clone();
    sorted.sort();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    println!(
        "Go level 5, {} replies over a game: mean {mean:?}, median {:?}, slowest {:?}; each {times:?}",
        times.len(),
        sorted[sorted.len() / 2],
        sorted[sorted.len() - 1]
    );
    assert!(replies.len() >= 10, "the game ended after {} replies", replies.len());
    let (slowest, before) = *replies.iter().max_by_key(|r| r.0).unwrap();
    let (config, moves) = saved(&client, "go").await;
    let (native, bound) = reply_bound("go", &config, &moves[..before], true);
    assert!(slowest < bound, "the slowest reply took {slowest:?}, over {bound:?} (native full budget {native:?})");
    client.close().await.unwrap();
}

/// POPUCOM playouts as the search plays them, in the worker (WASM in Chromium) and natively in
/// this test: the same sum of rewards from the same seed (the generator and the rules give the same
/// games on both targets), and each one's speed, printed for docs/PERFORMANCE.md. The native figure
/// here is the test build's (the engine optimised, debug assertions on); the release figure comes
/// from `tabula bench popucom`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn popucom_playouts_in_the_worker_equal_the_native_ones_and_are_timed() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/popucom/local", server.base)).await.unwrap();
    wait_for_app(&client).await;
    // A worker started as the page starts its own: the build's module script importing the `ai` bundle.
    let bench = |playouts: u32, seed: u64| {
        format!(
            "const worker = window.benchWorker || (window.benchWorker = new Worker(window.tabulaAi, {{ type: 'module' }}));
             return new Promise((resolve) => {{
               worker.onmessage = (event) => resolve(event.data);
               worker.postMessage(JSON.stringify({{ id: 1, bench: {{ playouts: {playouts}, seed: {seed} }} }}));
             }});"
        )
    };
    let (playouts, seed) = (100_000, 7);
    // The first run loads and compiles the bundle; the next three are timed.
    let mut wasm_rates = Vec::new();
    for round in 0..4 {
        let reply: Value =
            serde_json::from_str(js(&client, &bench(playouts, seed + round)).await.as_str().unwrap()).unwrap();
        let native = tabula_core::ai::playout_reward_sum(&Popucom::default(), playouts, seed + round);
        assert_eq!(reply["playouts"], playouts);
        assert_eq!(reply["rewardSum"].as_f64(), Some(native), "the worker's playouts are the native ones");
        if round > 0 {
            wasm_rates.push(f64::from(playouts) / reply["ms"].as_f64().unwrap() * 1000.0);
        }
    }
    let native_rates: Vec<f64> = (1..4)
        .map(|round| {
            let start = Instant::now();
            tabula_core::ai::playout_reward_sum(&Popucom::default(), playouts, seed + round);
            f64::from(playouts) / start.elapsed().as_secs_f64()
        })
        .collect();
    let rounded = |rates: &[f64]| rates.iter().map(|r| r.round() as u64).collect::<Vec<_>>();
    println!(
        "POPUCOM search playouts per second: WASM in Chromium {:?}; native test build {:?}",
        rounded(&wasm_rates),
        rounded(&native_rates)
    );
    // The best round of each (a busy moment slows one round, not all three) against
    // `WASM_SPEED_FLOOR`, which says why it is 40%: the same bundle and Chromium that ran at 78%
    // in a quiet hour ran at 49 to 67% in a slow one; a bundle built for size ran at 54%.
    let best = |rates: &[f64]| rates.iter().copied().fold(0.0, f64::max);
    let ratio = best(&wasm_rates) / best(&native_rates);
    assert!(ratio >= WASM_SPEED_FLOOR, "WASM at {:.0}% of native speed", ratio * 100.0);
    client.close().await.unwrap();
}

/// The review of a finished local game: the button opens it, the worker judges every position with
/// a progress bar, and the panel draws the first player's chance from the start to the result, each
/// side's accuracy and biggest mistakes; a mistake shows the replay before it with the better move
/// as a ghost; the button again closes it, and a new move closes it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_in_the_worker() {
    use rand::SeedableRng;

    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    // A whole game of uniformly random moves: both sides make mistakes.
    let mut game = Popucom::default();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    let mut moves = Vec::new();
    while let Some(cell) = game.random_move(&mut rng) {
        moves.push(serde_json::to_value(cell).unwrap());
        game.play_unchecked(&cell);
    }
    let first_chance = tabula_core::ai::reward(&game.status()).expect("the game is over");
    open_saved_local_game(&client, &server.base, "popucom", &serde_json::json!({}), &moves).await;

    let start = Instant::now();
    click(&client, "#review").await;
    wait_until(&client, "return !!document.querySelector('#review-panel progress')", 10, "the progress bar").await;
    wait_until(&client, "return !!document.getElementById('review-graph')", 60, "the review").await;
    println!("POPUCOM review of {} moves in the worker: {:?}", moves.len(), start.elapsed());
    let points = js(&client, "return document.querySelector('#review-graph .chance').getAttribute('points')").await;
    let points: Vec<(f64, f64)> = points
        .as_str()
        .unwrap()
        .split(' ')
        .map(|p| p.split_once(',').map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap())).unwrap())
        .collect();
    assert_eq!(points.len(), moves.len() + 1, "a chance for the start and after every move");
    assert_eq!(points.last().unwrap().1, 1000.0 - 1000.0 * f64::from(first_chance), "the last is the result");
    assert!(points.iter().all(|&(_, y)| (0.0..=1000.0).contains(&y)));
    let accuracy = text(&client, ".review-accuracy").await;
    assert!(accuracy.matches("accuracy").count() == 2, "{accuracy}");
    let mistakes =
        js(&client, "return [...document.querySelectorAll('.review-mistake')].map(b => b.textContent)").await;
    let mistakes: Vec<String> = serde_json::from_value(mistakes).unwrap();
    assert!(!mistakes.is_empty() && mistakes.len() <= 6, "{mistakes:?}");
    assert!(mistakes[0].starts_with("Move ") && mistakes[0].contains("better"), "{mistakes:?}");

    // The first mistake: the replay stands before it, the better move drawn as a ghost.
    click(&client, ".review-mistake").await;
    wait_until(&client, "return document.querySelectorAll('.board .ghost').length === 1", 5, "the better move").await;
    js(&client, "document.getElementById('review-panel').scrollIntoView(); return 1").await;
    screenshot(&client, "review").await;
    // The arrow keys walk the graph, and the replay follows.
    js(&client, "document.getElementById('review-graph').focus(); return 1").await;
    js(&client, "document.getElementById('review-graph').dispatchEvent(new KeyboardEvent('keydown', {key: 'Home', bubbles: true})); return 1").await;
    wait_until(
        &client,
        "return document.getElementById('review-graph').getAttribute('aria-valuenow') === '0'",
        5,
        "the start",
    )
    .await;
    assert_eq!(js(&client, "return document.querySelectorAll('.board .stone-1, .board .stone-2').length").await, 0);

    // Pressed again, the panel closes.
    click(&client, "#review").await;
    wait_until(&client, "return !document.getElementById('review-panel')", 5, "the panel closed").await;

    // Stopped at once, a review ends without a result; the worker, ended with it, starts again for
    // the next one.
    click(&client, "#review").await;
    click(&client, "#review-stop").await;
    wait_until(&client, "return !document.querySelector('#review-panel progress')", 5, "the review stopped").await;
    assert_eq!(js(&client, "return !!document.getElementById('review-graph')").await, serde_json::json!(false));
    click(&client, "#review").await;
    click(&client, "#review").await;
    wait_until(&client, "return !!document.getElementById('review-graph')", 60, "the review again").await;
    client.close().await.unwrap();
}

/// A reviewed chess game downloads as lichess exports an analysed one: every move with its
/// evaluation, the hung queen marked a blunder with the better move; it reads back to the same
/// moves. (SGF's notes: `core/src/go/sgf.rs` and `site/src/games/go/sgf.rs`.)
#[tokio::test]
async fn a_reviewed_game_downloads_with_its_review() {
    use tabula_core::fairy::pgn::Record;

    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    // 2...Qh4?? 3.Nxh4: Black gives its queen away.
    let moves = ["e2e4", "e7e5", "g1f3", "d8h4", "f3h4"];
    let played: Vec<Value> = moves.iter().map(|&m| m.into()).collect();
    open_saved_local_game(&client, &server.base, "chess", &serde_json::json!({}), &played).await;

    // Before a review, the record is bare.
    super::browser::capture_downloads(&client).await;
    click(&client, "#download-pgn").await;
    wait_until(&client, "return window.__downloads.length === 1", 5, "the PGN download").await;
    let bare = js(&client, "return window.__downloads[0][1]").await;
    assert!(!bare.as_str().unwrap().contains('{'), "{bare}");

    click(&client, "#review").await;
    wait_until(&client, "return !!document.getElementById('review-graph')", 60, "the review").await;
    click(&client, "#download-pgn").await;
    wait_until(&client, "return window.__downloads.length === 2", 5, "the reviewed PGN download").await;
    let pgn = js(&client, "return window.__downloads[1][1]").await;
    let pgn = pgn.as_str().unwrap();
    assert_eq!(pgn.matches("[%eval ").count(), moves.len(), "an evaluation after every move: {pgn}");
    let queen = pgn.find("Qh4").unwrap_or_else(|| panic!("{pgn}"));
    assert!(pgn[queen..].starts_with("Qh4 $4 { [%eval ") && pgn[queen..].contains("Better: "), "{pgn}");
    let record = Record::from_pgn(pgn).unwrap_or_else(|e| panic!("{e}: {pgn}"));
    let read: Vec<&str> = record.moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(read, moves);

    // A move changes the game: its record is bare again.
    click(&client, "#takeback").await;
    click(&client, "#download-pgn").await;
    wait_until(&client, "return window.__downloads.length === 3", 5, "the PGN after a takeback").await;
    let after = js(&client, "return window.__downloads[2][1]").await;
    assert!(!after.as_str().unwrap().contains('{'), "{after}");
    client.close().await.unwrap();
}

/// A spectator of a room game in progress reviews it: the room's "Review" hands the game to this
/// device's local screen (in a slot of its own, so the local game saved there stays), which opens
/// the review at once.
#[tokio::test]
async fn a_room_game_is_reviewed_on_the_local_screen() {
    use rand::SeedableRng;

    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let http = reqwest::Client::new();
    let (room, url) = (super::room_code(), format!("{}/api/game", server.base));
    let mut tokens = Vec::new();
    for seat in [1, 2] {
        let body = serde_json::json!({"roomId": room, "game": "popucom", "seat": seat});
        let joined: Value = http.post(&url).json(&body).send().await.unwrap().json().await.unwrap();
        tokens.push(joined["token"].as_str().expect("a seat's token").to_owned());
    }
    let (mut game, mut rng) = (Popucom::default(), rand::rngs::SmallRng::seed_from_u64(5));
    for ply in 0..8 {
        let cell = game.random_move(&mut rng).unwrap();
        game.play_unchecked(&cell);
        let body = serde_json::json!({"roomId": room, "token": tokens[ply % 2], "version": ply + 2, "move": cell});
        let view: Value = http.put(&url).json(&body).send().await.unwrap().json().await.unwrap();
        assert_eq!(view["version"], ply + 3, "{view}");
    }

    let client = driver.browser().await;
    let own = r#"{"config":{},"moves":[{"row":4,"col":4}]}"#;
    client.goto(&format!("{}/popucom/local", server.base)).await.unwrap();
    wait_for_app(&client).await;
    js(&client, &format!("localStorage.setItem('tabula.local.popucom', {own:?}); return 1")).await;
    client.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&client, "return document.querySelectorAll('ol.moves li').length === 8", 10, "the room's moves").await;
    click(&client, "#review").await;
    wait_until(&client, "return location.pathname === '/popucom/local'", 10, "the local screen").await;
    wait_until(&client, "return !!document.getElementById('review-graph')", 60, "the review, opened at once").await;
    let points = js(&client, "return document.querySelector('#review-graph .chance').getAttribute('points')").await;
    assert_eq!(points.as_str().unwrap().split(' ').count(), 9, "the room's 8 moves and the start: {points}");
    assert_eq!(js(&client, "return document.querySelectorAll('ol.moves li').length").await, 8);
    let kept = js(&client, "return localStorage.getItem('tabula.local.popucom')").await;
    assert_eq!(kept.as_str(), Some(own), "the player's own local game is kept");
    client.close().await.unwrap();
}

/// A whole chess game (120 plies) and a 9x9 Go game (60 moves), each played by the computer at
/// level 3 against itself (`data/review-games.jsonl`, written by `xtask/measure/self_play.py`), are
/// reviewed in the worker: a chance for every position, each side's accuracy. The time each took
/// is printed (docs/AI.md: the budget is meant to keep such games under about 20 seconds on a
/// phone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_chess_and_go_games_are_reviewed_in_the_worker() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    let games: Vec<Value> =
        include_str!("data/review-games.jsonl").lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.len(), 2);
    for record in games {
        let (game, moves) = (record["game"].as_str().unwrap(), record["moves"].as_array().unwrap());
        open_saved_local_game(&client, &server.base, game, &record["config"], moves).await;
        let start = Instant::now();
        click(&client, "#review").await;
        wait_until(&client, "return !!document.getElementById('review-graph')", 300, "the review").await;
        println!("{game}: {} moves reviewed in the worker in {:?}", moves.len(), start.elapsed());
        let points = js(&client, "return document.querySelector('#review-graph .chance').getAttribute('points')").await;
        assert_eq!(points.as_str().unwrap().split(' ').count(), moves.len() + 1, "{game}: a chance for every position");
        let accuracy = text(&client, ".review-accuracy").await;
        assert_eq!(accuracy.matches("accuracy").count(), 2, "{game}: {accuracy}");
    }
    client.close().await.unwrap();
}
