//! End-to-end tests in headless Chromium against `tabula serve` with the built site: POPUCOM's
//! scenarios here, Go's in `go.rs`, the site's addresses in `site.rs`. One scenario at a time
//! (browsers are heavy on 2 cores).

mod browser;
mod chess;
mod clocks;
mod comforts;
#[path = "../common/mod.rs"]
mod common;
mod computer;
mod desktop;
mod edges;
mod go;
mod layout;
mod live;
mod lobby;
mod notify;
mod realtime;
#[path = "../../../api/_tests/integration/services.rs"]
mod services;
mod site;
mod targets;
mod triplex;

use std::time::{Duration, Instant};

use fantoccini::Client;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::{Game, Seat};

use browser::{board, click, js, screenshot, site_dist, text, wait_until, Driver};
use common::Server;

/// The browser tests take turns: each drives a browser, and some time what the page does. An
/// async lock, held across the test's awaits (a failed test's guard is dropped as it unwinds).
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn exclusive() -> tokio::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().await
}

fn index(cell: Cell) -> usize {
    cell.row as usize * 9 + cell.col as usize
}

/// The classes each cell should have for `game` (the page's `board()` without transient classes).
fn expected_board(game: &Popucom) -> Vec<String> {
    (0..81u8)
        .map(|i| {
            let cell = Cell::new(i / 9, i % 9);
            let mut class = "cell".to_owned();
            for seat in Seat::ALL {
                if game.stones(seat).contains(cell) {
                    class += &format!(" stone-{}", seat.number());
                }
            }
            for seat in Seat::ALL {
                if game.territory(seat).contains(cell) {
                    class += &format!(" land-{}", seat.number());
                }
            }
            class
        })
        .collect()
}

/// The English result line's headline for a finished game.
fn expected_headline(game: &Popucom) -> &'static str {
    match game.status().outcome().and_then(|o| o.winner) {
        Some(Seat::One) => "Red wins",
        Some(Seat::Two) => "Blue wins",
        None => "Draw",
    }
}

fn random_move(game: &Popucom, rng: &mut SmallRng) -> Option<Cell> {
    let legal = game.legal_moves();
    (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())])
}

async fn no_horizontal_overflow(client: &Client, screen: &str) {
    let viewport = js(client, "return window.innerWidth").await.as_u64().unwrap();
    let window = client.get_window_size().await.unwrap().0 as u64;
    assert_eq!(viewport, window, "{screen}: the page is as wide as the window (no desktop-width fallback)");
    let fits = js(client, "return document.documentElement.scrollWidth <= window.innerWidth").await;
    let width = js(client, "return window.innerWidth").await;
    assert_eq!(fits, Value::Bool(true), "{screen} overflows horizontally at width {width}");
}

/// Creates a room of `game` with `config` through the API, as the game page's "Create a room" does.
async fn create_room(server: &Server, game: &str, config: Value) -> String {
    let room = room_code();
    let created = reqwest::Client::new()
        .post(format!("{}/api/game", server.base))
        .json(&serde_json::json!({"roomId": room, "game": game, "config": config}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 200);
    room
}

async fn take_seat(client: &Client, server: &Server, room: &str, seat: u8) {
    client.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    click(client, &format!("#take-seat-{seat}")).await;
    wait_until(
        client,
        &format!("return !document.querySelector('#take-seat-{}')", 3 - seat),
        10,
        "the seat to be taken",
    )
    .await;
}

/// Two browsers seated in a new room, red having opened at the centre and blue having seen it.
async fn opened_game(driver: &Driver, server: &Server) -> (Client, Client) {
    let room = create_room(server, "popucom", serde_json::json!({})).await;
    let (red, blue) = (driver.browser().await, driver.browser().await);
    take_seat(&red, server, &room, 1).await;
    take_seat(&blue, server, &room, 2).await;
    click(&red, "#cell-40").await;
    wait_until(&blue, "return document.getElementById('cell-40').classList.contains('stone-1')", 10, "red's move")
        .await;
    (red, blue)
}

fn room_code() -> String {
    format!("e2e{:08x}", rand::random::<u32>())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_game_played_to_the_end_shows_the_right_winner() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&server.base).await.unwrap();
    assert_eq!(js(&client, "return window.innerWidth").await, Value::from(375), "a 375 px wide viewport");
    wait_until(&client, "return !!document.getElementById('popucom')", 10, "the home screen").await;
    no_horizontal_overflow(&client, "home").await;
    screenshot(&client, "home").await;
    click(&client, "#popucom").await;
    wait_until(&client, "return location.pathname === '/popucom'", 10, "POPUCOM's page").await;
    click(&client, "#play-local").await;
    wait_until(&client, "return location.pathname === '/popucom/local'", 10, "the local game").await;
    let mut rng = SmallRng::seed_from_u64(11);
    let mut game = Popucom::default();
    while let Some(cell) = random_move(&game, &mut rng) {
        click(&client, &format!("#cell-{}", index(cell))).await;
        game.play(&cell).unwrap();
        if game.moves_played() == 20 {
            no_horizontal_overflow(&client, "game").await;
            screenshot(&client, "game").await;
        }
    }
    let line = text(&client, ".turn.result").await;
    assert!(line.starts_with(expected_headline(&game)), "result line {line:?}, engine says {:?}", game.status());
    assert_eq!(board(&client).await, expected_board(&game), "the page shows the engine's final board");
    no_horizontal_overflow(&client, "result").await;
    screenshot(&client, "result").await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_finish_an_online_game_while_a_third_watches() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "popucom", serde_json::json!({})).await;
    let (red, blue, watcher) = (driver.browser().await, driver.browser().await, driver.browser().await);
    take_seat(&red, &server, &room, 1).await;
    take_seat(&blue, &server, &room, 2).await;
    watcher.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&watcher, "return !!document.querySelector('.board')", 10, "the watcher's board").await;
    let mut rng = SmallRng::seed_from_u64(23);
    let mut game = Popucom::default();
    while let Some(cell) = random_move(&game, &mut rng) {
        let (mover, other) = if game.status().to_move() == Some(Seat::One) { (&red, &blue) } else { (&blue, &red) };
        click(mover, &format!("#cell-{}", index(cell))).await;
        game.play(&cell).unwrap();
        let seen = format!("return document.querySelectorAll('.board .cell.stone-1, .board .cell.stone-2').length === {} && document.getElementById('cell-{}').classList.contains('last')", game.stones(Seat::One).len() + game.stones(Seat::Two).len(), index(cell));
        wait_until(other, &seen, 10, "the opponent to see the move").await;
    }
    let expected = expected_board(&game);
    for (who, client) in [("red", &red), ("blue", &blue), ("watcher", &watcher)] {
        wait_until(client, "return !!document.querySelector('.turn.result')", 10, "the result").await;
        assert_eq!(board(client).await, expected, "{who}'s final board");
        let line = text(client, ".turn.result").await;
        assert!(line.starts_with(expected_headline(&game)), "{who}: {line:?}");
    }
    assert_eq!(text(&watcher, "#role").await, "You are watching this game.");
    screenshot(&watcher, "online-result-watcher").await;
    for client in [red, blue, watcher] {
        client.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reloading_resumes_the_seat_and_moves_arrive_within_three_seconds() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let (red, blue) = opened_game(&driver, &server).await;
    red.refresh().await.unwrap();
    wait_until(&red, "return !!document.querySelector('.board')", 10, "the board after reload").await;
    wait_until(
        &red,
        "return document.getElementById('role').textContent === 'Waiting for your opponent'",
        10,
        "red's seat to resume",
    )
    .await;
    assert_eq!(js(&red, "return !document.querySelector('#take-seat-1, #take-seat-2')").await, Value::Bool(true));
    let start = Instant::now();
    click(&blue, "#cell-0").await;
    wait_until(
        &red,
        "return document.getElementById('cell-0').classList.contains('stone-2')",
        3,
        "blue's move on red's screen",
    )
    .await;
    println!("blue's move reached red in {:?}", start.elapsed());
    assert!(start.elapsed() <= Duration::from_secs(3));
    click(&red, "#cell-80").await;
    wait_until(
        &blue,
        "return document.getElementById('cell-80').classList.contains('stone-1')",
        3,
        "red plays on after the reload",
    )
    .await;
    // The home offers to continue the game.
    let room = js(&red, "return location.pathname.split('/')[2]").await.as_str().unwrap().to_owned();
    red.goto(&server.base).await.unwrap();
    let link = format!("return [...document.querySelectorAll('a.continue')].some(a => a.getAttribute('href') === '/room/{room}' && a.textContent.includes('POPUCOM'))");
    wait_until(&red, &link, 10, "the continue link on the home").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_tap_sends_no_request_and_says_why() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let (red, blue) = opened_game(&driver, &server).await;
    let count_puts = "window.__puts = 0; const original = window.fetch; window.fetch = (input, init) => { \
        const method = (init && init.method) || (input && input.method) || 'GET'; \
        if (method.toUpperCase() === 'PUT') window.__puts++; return original(input, init); }; return true";
    for client in [&red, &blue] {
        js(client, count_puts).await;
    }
    click(&blue, "#cell-40").await;
    wait_until(&blue, "return document.getElementById('notice').textContent.length > 0", 3, "a message").await;
    assert_eq!(text(&blue, "#notice").await, "That cell already holds a stone.");
    click(&red, "#cell-0").await;
    wait_until(&red, "return document.getElementById('notice').textContent.length > 0", 3, "a message").await;
    assert_eq!(text(&red, "#notice").await, "It is not your turn.");
    tokio::time::sleep(Duration::from_millis(500)).await;
    for client in [&red, &blue] {
        assert_eq!(js(client, "return window.__puts").await, Value::from(0), "an illegal tap sent a request");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_keyboard_plays_and_320_pixels_still_fit() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.set_window_size(320, 640).await.unwrap();
    client.goto(&format!("{}/local", server.base)).await.unwrap();
    wait_until(&client, "return !!document.getElementById('cell-40')", 10, "the board").await;
    no_horizontal_overflow(&client, "local game at 320 px").await;
    js(&client, "document.getElementById('cell-40').focus(); return true").await;
    // WebDriver key codes: ArrowRight, ArrowDown, Enter.
    client.active_element().await.unwrap().send_keys("\u{E014}").await.unwrap();
    client.active_element().await.unwrap().send_keys("\u{E015}").await.unwrap();
    client.active_element().await.unwrap().send_keys("\u{E007}").await.unwrap();
    wait_until(
        &client,
        "return document.getElementById('cell-50').classList.contains('stone-1')",
        3,
        "a move by keyboard",
    )
    .await;
    let label = js(&client, "return document.getElementById('cell-50').getAttribute('aria-label')").await;
    assert_eq!(label, Value::from("Row 6, column 6: Red stone, last move"));
    // Focus stays on the board as it changes: blue plays next by keyboard too.
    client.active_element().await.unwrap().send_keys("\u{E012}").await.unwrap();
    client.active_element().await.unwrap().send_keys("\u{E007}").await.unwrap();
    wait_until(
        &client,
        "return document.getElementById('cell-49').classList.contains('stone-2')",
        3,
        "a second move by keyboard",
    )
    .await;
    screenshot(&client, "local-320px").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_connection_is_shown_and_recovers_by_itself() {
    let _one = exclusive().await;
    let (mut server, driver) = (Server::start(site_dist()), Driver::start());
    let (red, blue) = opened_game(&driver, &server).await;
    server.stop();
    wait_until(
        &red,
        "return !!document.getElementById('connection-lost')?.checkVisibility()",
        10,
        "the connection-lost notice",
    )
    .await;
    assert_eq!(text(&red, "#connection-lost").await, "Connection lost, retrying…");
    server.restart();
    wait_until(
        &red,
        "return !document.getElementById('connection-lost')?.checkVisibility()",
        20,
        "the notice to clear",
    )
    .await;
    click(&blue, "#cell-0").await;
    wait_until(&red, "return document.getElementById('cell-0').classList.contains('stone-2')", 5, "play to go on")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_is_asked_and_accepted_between_two_browsers() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let (red, blue) = opened_game(&driver, &server).await;
    click(&blue, "#cell-0").await;
    wait_until(&red, "return document.getElementById('cell-0').classList.contains('stone-2')", 10, "blue's move").await;
    click(&red, "#takeback").await;
    wait_until(
        &blue,
        "return !!document.getElementById('accept-takeback')?.checkVisibility()",
        10,
        "the request on blue's screen",
    )
    .await;
    assert_eq!(text(&blue, "#role").await, "Your opponent asks to take back their last move and your reply (2 moves).");
    assert_eq!(text(&red, "#role").await, "You asked to take back your last move and your opponent's reply (2 moves).");
    click(&blue, "#accept-takeback").await;
    let empty = "return document.querySelectorAll('.board .cell.stone-1, .board .cell.stone-2').length === 0";
    for (who, client) in [("red", &red), ("blue", &blue)] {
        wait_until(client, empty, 10, &format!("{who}'s board back at the start")).await;
        assert_eq!(board(client).await, expected_board(&Popucom::default()), "{who}");
    }
    wait_until(&red, "return document.getElementById('role').textContent === 'Your turn'", 10, "red to move again")
        .await;
    click(&red, "#cell-80").await;
    wait_until(&blue, "return document.getElementById('cell-80').classList.contains('stone-1')", 10, "play goes on")
        .await;
    // Asked before the other side replies: only the asker's own move, and blue may refuse.
    click(&red, "#takeback").await;
    wait_until(
        &blue,
        "return !!document.getElementById('decline-takeback')?.checkVisibility()",
        10,
        "the second request",
    )
    .await;
    assert_eq!(text(&blue, "#role").await, "Your opponent asks to take back their last move.");
    click(&blue, "#decline-takeback").await;
    wait_until(
        &red,
        "return document.getElementById('role').textContent === 'Waiting for your opponent'",
        10,
        "refused",
    )
    .await;
    assert_eq!(js(&red, "return document.getElementById('cell-80').classList.contains('stone-1')").await, true);
}
