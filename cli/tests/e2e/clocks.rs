//! Time controls in the browser: a game's page creates a room with a clock, and a room shows both
//! clocks beside the board, the running one marked and ticking, low time marked and announced,
//! corrected by the server's answers, and a flag falling ends the game on every page.

use serde_json::{json, Value};

use crate::browser::{click, js, screenshot, site_dist, text, wait_for_app, wait_until, Driver};
use crate::common::Server;
use crate::{exclusive, room_code, take_seat};

/// A POPUCOM room with `clock`, both seats taken and both first moves made (so the clocks run),
/// through the API.
async fn running_room(server: &Server, clock: Value) -> String {
    running_room_with_tokens(server, clock).await.0
}

/// The same, with the seats' tokens (Red's, Blue's); Red is on move at version 4.
async fn running_room_with_tokens(server: &Server, clock: Value) -> (String, Vec<String>) {
    let http = reqwest::Client::new();
    let room = room_code();
    let url = format!("{}/api/game", server.base);
    let mut tokens = Vec::new();
    for seat in [1, 2] {
        let body = json!({"roomId": room, "game": "popucom", "clock": clock, "seat": seat});
        let joined: Value = http.post(&url).json(&body).send().await.unwrap().json().await.unwrap();
        tokens.push(joined["token"].as_str().expect("a seat's token").to_owned());
    }
    // Two seats taken: version 2.
    let moves = [(2, &tokens[0], json!({"row": 4, "col": 4})), (3, &tokens[1], json!({"row": 0, "col": 0}))];
    for (version, token, cell) in moves {
        let body = json!({"roomId": room, "token": token, "version": version, "move": cell});
        let view: Value = http.put(&url).json(&body).send().await.unwrap().json().await.unwrap();
        assert_eq!(view["version"], version + 1, "{view}");
    }
    (room, tokens)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_show_their_clocks_and_game_pages_choose_one() {
    let _one = exclusive().await;
    let server = Server::start(site_dist());
    let driver = Driver::start();
    let page = driver.browser().await;

    // Red's clock runs: marked, ticking; Blue's shows its whole time.
    let room = running_room(&server, json!({"kind": "live", "initialSeconds": 600, "incrementSeconds": 5})).await;
    page.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&page, "return !!document.querySelector('#clock-1.running')", 15, "Red's clock running").await;
    assert_eq!(text(&page, "#clock-2 .clock-time").await, "10:00");
    assert!(!js(&page, "return document.querySelector('#clock-2').classList.contains('running')")
        .await
        .as_bool()
        .unwrap());
    let first = text(&page, "#clock-1 .clock-time").await;
    assert!(first.starts_with("9:") || first == "10:00", "{first}");
    wait_until(
        &page,
        &format!("return document.querySelector('#clock-1 .clock-time').textContent !== {first:?}"),
        5,
        "Red's clock to tick",
    )
    .await;
    assert_eq!(text(&page, "#clock-alert").await, "", "plenty of time: nothing announced");

    // 30 seconds: low from the start, marked; the running side's announced.
    let room = running_room(&server, json!({"kind": "live", "initialSeconds": 30, "incrementSeconds": 0})).await;
    page.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&page, "return !!document.querySelector('#clock-1.running.low')", 15, "Red's clock low").await;
    let blue = js(&page, "return document.querySelector('#clock-2').className").await;
    assert_eq!(blue, json!("clock seat-2 low"), "Blue's 30 s are low too, and not running");
    let alert = text(&page, "#clock-alert").await;
    assert!(alert.contains("Red") && alert.contains("0:") && !alert.contains("Blue"), "only the running side: {alert}");
    screenshot(&page, "room-clocks-low").await;

    // A correspondence move's deadline is a date.
    let room = running_room(&server, json!({"kind": "correspondence", "daysPerMove": 3})).await;
    page.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&page, "return !!document.querySelector('#clock-1.running')", 15, "Red's clock running").await;
    assert_eq!(text(&page, "#clock-2 .clock-time").await, "3d 0h");
    assert!(text(&page, ".clock-deadline").await.contains("Red"), "the date Red must move by");

    // A game's page offers the time controls; a room created with one shows it.
    page.goto(&format!("{}/popucom", server.base)).await.unwrap();
    wait_for_app(&page).await;
    assert_eq!(js(&page, "return document.querySelectorAll('#clock option').length").await, json!(11));
    js(
        &page,
        "const s = document.getElementById('clock'); s.value = '1'; s.dispatchEvent(new Event('change')); return true",
    )
    .await;
    click(&page, "#create-room").await;
    wait_until(&page, "return location.pathname.startsWith('/room/')", 15, "the new room").await;
    let code = js(&page, "return location.pathname.slice(6)").await.as_str().unwrap().to_owned();
    let view: Value =
        reqwest::get(format!("{}/api/game?roomId={code}", server.base)).await.unwrap().json().await.unwrap();
    assert_eq!(view["clock"], json!({"kind": "live", "initialSeconds": 180, "incrementSeconds": 2}));
    wait_until(&page, "return !!document.querySelector('#clock-1')", 15, "the new room's clocks").await;
    assert_eq!(text(&page, "#clock-1 .clock-time").await, "3:00");

    // The lobby says a public room's clock.
    let clock = json!({"kind": "live", "initialSeconds": 90, "incrementSeconds": 3});
    let body =
        json!({"roomId": room_code(), "game": "popucom", "public": true, "seat": 1, "name": "Clocky", "clock": clock});
    let created = reqwest::Client::new().post(format!("{}/api/game", server.base)).json(&body).send().await.unwrap();
    assert_eq!(created.status(), 200);
    page.goto(&format!("{}/lobby", server.base)).await.unwrap();
    let row = "[...document.querySelectorAll('.lobby-room')].find(r => r.textContent.includes('Clocky'))";
    wait_until(&page, &format!("return !!{row}"), 15, "the room in the lobby").await;
    let listed = js(&page, &format!("return {row}.textContent")).await;
    assert!(listed.as_str().unwrap().contains("1:30 min + 3 s a move"), "{listed}");

    // The home's "Your games": the rooms where it is this player's move, the least time left
    // first, untimed last (taken in another order, so the list must sort them).
    let mut codes = Vec::new();
    for seconds in [60, 600, 0] {
        let clock = match seconds {
            0 => Value::Null,
            _ => json!({"kind": "live", "initialSeconds": seconds, "incrementSeconds": 0}),
        };
        let code = room_code();
        let body = json!({"roomId": code, "game": "popucom", "clock": clock});
        let created =
            reqwest::Client::new().post(format!("{}/api/game", server.base)).json(&body).send().await.unwrap();
        assert_eq!(created.status(), 200);
        // Seat 1 plays first: this player's move.
        take_seat(&page, &server, &code, 1).await;
        codes.push(format!("/room/{code}"));
    }
    page.goto(&server.base).await.unwrap();
    let badges = "return document.querySelectorAll('.continue-list .your-move').length === 3";
    wait_until(&page, badges, 15, "three rooms waiting for this player").await;
    let listed =
        js(&page, "return [...document.querySelectorAll('.continue-list li a')].map(a => a.getAttribute('href'))")
            .await;
    assert_eq!(listed, json!(codes), "one minute left, then ten, then no clock");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_follow_the_server_and_a_flag_ends_the_game_on_every_page() {
    let _one = exclusive().await;
    let server = Server::start(site_dist());
    let driver = Driver::start();
    let page = driver.browser().await;

    // A move made elsewhere: the page takes both clocks from the answer. Red's own ticking would
    // show less than 10:00; the server gave the 30 s increment back, and Blue's clock runs.
    let clock = json!({"kind": "live", "initialSeconds": 600, "incrementSeconds": 30});
    let (room, tokens) = running_room_with_tokens(&server, clock).await;
    page.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&page, "return !!document.querySelector('#clock-1.running')", 15, "Red's clock running").await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let ticked = text(&page, "#clock-1 .clock-time").await;
    assert!(ticked.starts_with("9:"), "Red's clock ticked down: {ticked}");
    let body = json!({"roomId": room, "token": tokens[0], "version": 4, "move": {"row": 8, "col": 8}});
    let moved = reqwest::Client::new().put(format!("{}/api/game", server.base)).json(&body).send().await.unwrap();
    assert_eq!(moved.status(), 200);
    wait_until(&page, "return !!document.querySelector('#clock-2.running')", 15, "Blue's clock running").await;
    let red = text(&page, "#clock-1 .clock-time").await;
    assert!(red.starts_with("10:"), "Red's time with the increment, from the server: {red}");

    // A 10-second clock runs out with no one moving, both pages (two spectators) open on it: they
    // show Blue's win on time within moments of zero (the page asks the server when its clock
    // reaches it; the next plain poll could be half a minute away), written by the server.
    let clock = json!({"kind": "live", "initialSeconds": 10, "incrementSeconds": 0});
    let (room, _) = running_room_with_tokens(&server, clock).await;
    let spectator = driver.browser().await;
    for page in [&page, &spectator] {
        page.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    }
    for page in [&page, &spectator] {
        wait_until(page, "return !!document.querySelector('#clock-1.running')", 10, "Red's clock running").await;
    }
    for page in [&page, &spectator] {
        let ended = "return document.querySelector('.status').textContent.includes('Blue wins · on time')";
        wait_until(page, ended, 18, "Blue's win on time").await;
    }
    let view: Value =
        reqwest::get(format!("{}/api/game?roomId={room}", server.base)).await.unwrap().json().await.unwrap();
    assert_eq!(view["state"]["result"], json!({"winner": 2, "reason": "timeout"}), "{view}");
}
