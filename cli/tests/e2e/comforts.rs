//! The game screen's comforts, for every game: moves confirmed on touch screens, "your move" when
//! the tab is in the background, the home listing rooms waiting for this player first, abandoned
//! games claimed, each room's takeback policy, colour-blind boards under simulated colour vision
//! deficiencies, a watcher who steps back staying put, and moves said and typed.

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{cdp, click, js, screenshot, site_dist, text, type_move, wait_for_app, wait_until, Driver};
use crate::common::Server;
use crate::{create_room, exclusive, take_seat};

/// The number of stones on a POPUCOM board.
async fn stones(client: &Client) -> u64 {
    js(client, "return document.querySelectorAll('.board .cell.stone-1, .board .cell.stone-2').length")
        .await
        .as_u64()
        .unwrap()
}

async fn choose(client: &Client, select: &str, value: &str) {
    let script = format!(
        "const s = document.querySelector({select:?}); s.value = {value:?}; s.dispatchEvent(new Event('change', {{bubbles: true}})); return s.value"
    );
    assert_eq!(js(client, &script).await, Value::from(value), "{select} offers {value}");
}

/// Opens the settings: their code loads when they are first opened.
async fn open_settings(client: &Client) {
    click(client, ".settings summary").await;
    wait_until(client, "return !!document.getElementById('setting-confirm')", 10, "the settings").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_touch_screen_confirms_moves_and_the_setting_overrides_the_device() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let phone = driver.browser().await;
    cdp(&phone, "Emulation.setTouchEmulationEnabled", json!({"enabled": true, "maxTouchPoints": 5})).await;
    phone.goto(&format!("{}/popucom/local", server.base)).await.unwrap();
    wait_for_app(&phone).await;
    assert_eq!(js(&phone, "return matchMedia('(pointer: coarse)').matches").await, Value::Bool(true));

    // One tap shows a ghost and plays nothing; a second tap on the same cell plays it.
    click(&phone, "#cell-40").await;
    wait_until(&phone, "return document.getElementById('cell-40').classList.contains('ghost')", 5, "a ghost").await;
    assert_eq!(stones(&phone).await, 0, "a single tap on a phone plays nothing");
    screenshot(&phone, "confirm-ghost-popucom").await;
    click(&phone, "#cell-40").await;
    wait_until(&phone, "return document.getElementById('cell-40').classList.contains('stone-1')", 5, "the move").await;
    // Or the confirm button, which sits apart from pass and resign (hidden while no move waits).
    let confirm_shown = "return document.getElementById('confirm-move').checkVisibility({visibilityProperty: true})";
    assert_eq!(js(&phone, confirm_shown).await, Value::Bool(false), "no move waits");
    click(&phone, "#cell-0").await;
    wait_until(&phone, confirm_shown, 5, "the confirm button").await;
    click(&phone, "#confirm-move").await;
    wait_until(&phone, "return document.getElementById('cell-0').classList.contains('stone-2')", 5, "blue's move")
        .await;
    // The board takes swipes (no back gesture from it), but not pinch zoom.
    let touch = js(&phone, "return [getComputedStyle(document.querySelector('.board')).touchAction, getComputedStyle(document.documentElement).overscrollBehaviorX]").await;
    assert_eq!(touch, json!(["pinch-zoom", "none"]));

    // "Never" plays on the first tap, on this device, after a reload too.
    open_settings(&phone).await;
    choose(&phone, "#setting-confirm", "never").await;
    phone.refresh().await.unwrap();
    wait_for_app(&phone).await;
    open_settings(&phone).await;
    assert_eq!(js(&phone, "return document.getElementById('setting-confirm').value").await, "never");
    click(&phone, "#cell-80").await;
    wait_until(&phone, "return document.getElementById('cell-80').classList.contains('stone-1')", 5, "one tap").await;

    // With a mouse, moves on a 9x9 board play at once, unless the player asks for confirmation.
    let desktop = driver.browser().await;
    desktop.goto(&format!("{}/popucom/local", server.base)).await.unwrap();
    wait_for_app(&desktop).await;
    click(&desktop, "#cell-40").await;
    wait_until(&desktop, "return document.getElementById('cell-40').classList.contains('stone-1')", 5, "a click").await;
    open_settings(&desktop).await;
    choose(&desktop, "#setting-confirm", "always").await;
    click(&desktop, "#cell-0").await;
    wait_until(&desktop, "return document.getElementById('cell-0').classList.contains('ghost')", 5, "a ghost").await;
    assert_eq!(stones(&desktop).await, 1, "\"always\" asks for a confirmation with a mouse too");
    for client in [phone, desktop] {
        client.close().await.unwrap();
    }
}

/// Waits until the player's page has seen the other move (it polls about once a second), then
/// taps `cell`.
async fn play_in_turn(player: &Client, cell: usize) {
    wait_until(player, "return document.getElementById('role')?.textContent === 'Your turn'", 10, "the turn").await;
    click(player, &format!("#cell-{cell}")).await;
}

/// Makes the page believe it is in a background tab (or in front again), as switching tabs does.
async fn set_hidden(client: &Client, hidden: bool) {
    let script = format!(
        "Object.defineProperty(document, 'visibilityState', {{configurable: true, get: () => {state:?}}});
         Object.defineProperty(document, 'hidden', {{configurable: true, get: () => {hidden}}});
         document.dispatchEvent(new Event('visibilitychange')); return document.visibilityState",
        state = if hidden { "hidden" } else { "visible" },
    );
    js(client, &script).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_move_shows_in_a_background_tab_and_first_on_the_home() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let (red, blue) = (driver.browser().await, driver.browser().await);
    // Blue sits in two rooms: in `waiting` red has not moved yet; in `room` blue's move comes.
    let waiting = create_room(&server, "popucom", json!({})).await;
    take_seat(&blue, &server, &waiting, 2).await;
    let room = create_room(&server, "popucom", json!({})).await;
    take_seat(&red, &server, &room, 1).await;
    take_seat(&blue, &server, &room, 2).await;
    let title = js(&blue, "return document.title").await;
    set_hidden(&blue, true).await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(js(&blue, "return document.title").await, title, "nothing waits for blue yet");

    click(&red, "#cell-40").await;
    wait_until(&blue, "return document.title === '(1) Your move — Tabula'", 20, "the title in the background").await;
    let icon = js(&blue, "return document.querySelector('link[rel=icon]').getAttribute('href')").await;
    assert!(icon.as_str().unwrap().starts_with("data:image/svg+xml"), "the icon shows a waiting move: {icon}");
    // The move is said in words for screen readers.
    assert_eq!(text(&blue, "#move-said").await, "Red plays 5-5");
    set_hidden(&blue, false).await;
    wait_until(&blue, &format!("return document.title === {title}"), 5, "the title back").await;
    assert_eq!(js(&blue, "return document.querySelector('link[rel=icon]').getAttribute('href')").await, "/favicon.svg");

    // The home lists both rooms, the one waiting for blue first and marked.
    blue.goto(&server.base).await.unwrap();
    wait_for_app(&blue).await;
    wait_until(
        &blue,
        "return document.querySelectorAll('.continue-list li').length === 2 && !!document.querySelector('.your-move')",
        10,
        "the rooms",
    )
    .await;
    let listed = js(&blue, "return [...document.querySelectorAll('.continue-list li')].map(li => [li.querySelector('a').getAttribute('href'), !!li.querySelector('.your-move')])").await;
    assert_eq!(listed, json!([[format!("/room/{room}"), true], [format!("/room/{waiting}"), false]]));
    screenshot(&blue, "home-your-move").await;

    // A move typed in the game's notation is played like a tap.
    blue.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&blue, "return document.getElementById('role')?.textContent === 'Your turn'", 10, "blue's turn").await;
    type_move(&blue, "9-9").await;
    wait_until(&red, "return document.getElementById('cell-80').classList.contains('stone-2')", 10, "the typed move")
        .await;
    assert_eq!(text(&red, "#move-said").await, "Blue plays 9-9");
    type_move(&blue, "z9").await;
    wait_until(
        &blue,
        "return document.getElementById('notice').textContent.includes('5-5')",
        5,
        "a hint for a bad entry",
    )
    .await;
    for client in [red, blue] {
        client.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_who_steps_back_stays_put_until_live() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "popucom", json!({})).await;
    let (red, blue, watcher) = (driver.browser().await, driver.browser().await, driver.browser().await);
    take_seat(&red, &server, &room, 1).await;
    take_seat(&blue, &server, &room, 2).await;
    watcher.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    let moves = [(&red, 40), (&blue, 0), (&red, 80)];
    for (n, (player, cell)) in moves.iter().enumerate() {
        play_in_turn(player, *cell).await;
        wait_until(
            &watcher,
            &format!("return document.querySelectorAll('.moves li').length === {}", n + 1),
            10,
            "the move",
        )
        .await;
    }
    // Back to move 1: the board shows one stone, and stays there while two more moves arrive.
    click(&watcher, ".moves li:nth-child(1) button").await;
    wait_until(
        &watcher,
        "return document.querySelectorAll('.board .cell.stone-1, .board .cell.stone-2').length === 1",
        5,
        "move 1",
    )
    .await;
    assert_eq!(text(&watcher, "#replay-live").await, "Live");
    play_in_turn(&blue, 8).await;
    play_in_turn(&red, 72).await;
    wait_until(&watcher, "return document.querySelectorAll('.moves li').length === 5", 10, "the new moves").await;
    assert_eq!(stones(&watcher).await, 1, "the watcher was not pulled along");
    assert_eq!(text(&watcher, "#replay-live").await, "Live (+2)");
    screenshot(&watcher, "watcher-stays-put").await;
    click(&watcher, "#replay-live").await;
    wait_until(
        &watcher,
        "return document.querySelectorAll('.board .cell.stone-1, .board .cell.stone-2').length === 5",
        5,
        "live",
    )
    .await;
    assert_eq!(text(&watcher, "#replay-live").await, "Live");
    for client in [red, blue, watcher] {
        client.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_can_be_claimed_against_and_takebacks_follow_the_room() {
    let _one = exclusive().await;
    let server = Server::start_with_env(site_dist(), &[("TABULA_ABANDON_SECONDS", "3")]);
    let driver = Driver::start();
    let (red, blue) = (driver.browser().await, driver.browser().await);
    // Created on the game page without takebacks: the room says so before anyone sits down.
    red.goto(&format!("{}/popucom", server.base)).await.unwrap();
    wait_for_app(&red).await;
    choose(&red, "#takebacks", "never").await;
    click(&red, "#create-room").await;
    wait_until(&red, "return location.pathname.startsWith('/room/')", 10, "the new room").await;
    let path = js(&red, "return location.pathname").await.as_str().unwrap().to_owned();
    let room = path.trim_start_matches("/room/").to_owned();
    wait_until(
        &red,
        "return document.getElementById('takeback-policy')?.textContent === 'Takebacks: never'",
        10,
        "the policy",
    )
    .await;
    take_seat(&red, &server, &room, 1).await;
    take_seat(&blue, &server, &room, 2).await;
    click(&red, "#cell-40").await;
    wait_until(&blue, "return document.getElementById('cell-40').classList.contains('stone-1')", 10, "red's move")
        .await;
    assert_eq!(
        js(&red, "return !document.getElementById('takeback')?.checkVisibility()").await,
        Value::Bool(true),
        "no takeback button"
    );

    // Blue stays: after the abandonment time nothing is offered.
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    assert_eq!(
        js(&red, "return !document.getElementById('opponent-away')?.checkVisibility()").await,
        Value::Bool(true)
    );
    // Blue leaves: red is offered the claim, and the win says why.
    blue.close().await.unwrap();
    wait_until(&red, "return !!document.getElementById('claim-win')?.checkVisibility()", 15, "the claim").await;
    screenshot(&red, "opponent-away").await;
    click(&red, "#claim-win").await;
    wait_until(&red, "return !!document.querySelector('.turn.result')", 10, "the result").await;
    let line = text(&red, ".turn.result").await;
    assert!(line.starts_with("Red wins") && line.contains("because the other player left"), "{line:?}");
    let view: Value =
        reqwest::get(format!("{}/api/game?roomId={room}", server.base)).await.unwrap().json().await.unwrap();
    assert_eq!(view["state"]["result"], json!({"winner": 1, "reason": "abandoned"}));
    red.close().await.unwrap();
}

/// Turns on the colour-blind setting, then takes a screenshot under each simulated deficiency.
async fn colour_blind_screenshots(client: &Client, name: &str) {
    open_settings(client).await;
    js(
        client,
        "const c = document.getElementById('setting-colour-blind'); if (!c.checked) c.click(); return c.checked",
    )
    .await;
    wait_until(client, "return document.documentElement.classList.contains('colour-blind')", 5, "the setting").await;
    js(client, "document.querySelector('.board').scrollIntoView(); return 1").await;
    screenshot(client, &format!("colour-blind-{name}-normal-vision")).await;
    for deficiency in ["deuteranopia", "protanopia"] {
        cdp(client, "Emulation.setEmulatedVisionDeficiency", json!({"type": deficiency})).await;
        screenshot(client, &format!("colour-blind-{name}-{deficiency}")).await;
    }
    cdp(client, "Emulation.setEmulatedVisionDeficiency", json!({"type": "none"})).await;
}

/// A computed style of the first element matching `css` (or of its `::after`).
async fn style(client: &Client, css: &str, pseudo: &str, property: &str) -> String {
    let script = format!("return getComputedStyle(document.querySelector({css:?}), {pseudo:?}).{property}");
    js(client, &script).await.as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn colour_blind_boards_tell_the_sides_apart_by_shape() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.set_window_size(800, 900).await.unwrap();
    client.goto(&format!("{}/popucom/local", server.base)).await.unwrap();
    wait_for_app(&client).await;
    // Each side pops a row of three (painting territory), then plays one more stone.
    for cell in [0, 80, 1, 79, 2, 78, 30, 60] {
        click(&client, &format!("#cell-{cell}")).await;
    }
    wait_until(&client, "return !!document.querySelector('.cell.land-1') && !!document.querySelector('.cell.land-2') && !!document.querySelector('.cell.stone-2')", 5, "stones and territory").await;
    let before = [
        style(&client, ".cell.stone-1", "::after", "borderRadius").await,
        style(&client, ".cell.stone-2", "::after", "borderRadius").await,
    ];
    colour_blind_screenshots(&client, "popucom").await;
    // Without colour the two sides still differ: stone shapes, territory patterns.
    let stone_1 = style(&client, ".cell.stone-1", "::after", "borderRadius").await;
    let stone_2 = style(&client, ".cell.stone-2", "::after", "borderRadius").await;
    assert_eq!(before[0], before[1], "the same shape without the setting");
    assert_ne!(stone_1, stone_2, "stone shapes differ with the setting");
    let land = [
        style(&client, ".cell.land-1", "", "backgroundImage").await,
        style(&client, ".cell.land-2", "", "backgroundImage").await,
    ];
    assert!(land.iter().all(|l| l.contains("gradient")), "territory has patterns: {land:?}");
    assert_ne!(land[0], land[1], "each side's territory its own pattern");

    client.goto(&format!("{}/go/local?size=9", server.base)).await.unwrap();
    wait_for_app(&client).await;
    assert_eq!(
        js(&client, "return document.documentElement.classList.contains('colour-blind')").await,
        Value::Bool(true),
        "the setting is the device's"
    );
    for vertex in ["#point-40", "#point-41", "#point-30", "#point-50"] {
        click(&client, vertex).await;
    }
    // The board is drawn as designed (wood, square points, stones), and the page's own rules hold.
    let look = js(&client, "const p = document.querySelector('.pt').getBoundingClientRect(); return [getComputedStyle(document.querySelector('.go-board')).backgroundColor, Math.round(p.width) === Math.round(p.height), getComputedStyle(document.querySelector('#point-40'), '::after').borderRadius, getComputedStyle(document.querySelector('.replay')).display]").await;
    assert_eq!(look, json!(["rgb(220, 179, 92)", true, "50%", "flex"]));
    colour_blind_screenshots(&client, "go").await;
    client.close().await.unwrap();
}
