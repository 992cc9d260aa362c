//! The lobby in Chromium: a room made public on a game's page is listed while its player waits;
//! quick play seats a player in a public room and a second player's quick play joins the same
//! room; the lobby then lists that game to watch, and its link opens it.

use crate::browser::{click, js, site_dist, wait_for_app, wait_until, Driver};
use crate::common::Server;
use crate::exclusive;

/// Whether the lobby's list `list` (`waiting` or `playing`) links to `room`.
fn lists(list: &str, room: &str) -> String {
    format!(
        "return [...document.querySelectorAll('#lobby-{list} a')].some(a => a.getAttribute('href') === '/room/{room}')"
    )
}

async fn room_of(client: &fantoccini::Client) -> String {
    wait_until(client, "return location.pathname.startsWith('/room/')", 15, "a room to open").await;
    js(client, "return location.pathname.slice('/room/'.length)").await.as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_play_meets_in_one_room_that_the_lobby_lists() {
    let _one = exclusive().await;
    let server = Server::start(site_dist());
    let driver = Driver::start();
    let (ann, bo, cy, watcher) =
        (driver.browser().await, driver.browser().await, driver.browser().await, driver.browser().await);
    watcher.goto(&format!("{}/lobby", server.base)).await.unwrap();
    wait_until(&watcher, "return document.querySelectorAll('.lobby-empty').length === 2", 15, "an empty lobby").await;

    // A room created public, with its creator seated, waits in the lobby.
    cy.goto(&format!("{}/edges", server.base)).await.unwrap();
    // The live page's controls, not the pre-rendered ones (which do nothing).
    wait_for_app(&cy).await;
    click(&cy, "#public-room").await;
    click(&cy, "#create-room").await;
    let public = room_of(&cy).await;
    click(&cy, "#take-seat-1").await;
    wait_until(&watcher, &lists("waiting", &public), 15, "the public room in the lobby").await;

    // Quick play: Ann waits in a public room, Bo's quick play joins it.
    ann.goto(&format!("{}/go", server.base)).await.unwrap();
    wait_for_app(&ann).await;
    click(&ann, "#quick-play").await;
    let room = room_of(&ann).await;
    assert_ne!(room, public);
    wait_until(&watcher, &lists("waiting", &room), 15, "Ann's room in the lobby").await;
    // Its options in words, as the Go page names them (not message ids).
    let row = format!(
        "return [...document.querySelectorAll('#lobby-waiting li')].find(li => li.querySelector('a[href=\"/room/{room}\"]'))?.textContent ?? ''"
    );
    let text = js(&watcher, &row).await.as_str().unwrap_or_default().to_owned();
    assert!(text.contains("Board") && text.contains("Komi") && !text.contains("option"), "{text}");
    bo.goto(&format!("{}/go", server.base)).await.unwrap();
    wait_until(&bo, &lists("waiting", &room), 15, "Ann's room on the Go page's lobby panel").await;
    click(&bo, "#quick-play").await;
    assert_eq!(room_of(&bo).await, room, "quick play joins the player waiting");
    // Both seated: neither page offers a seat any more.
    for page in [&ann, &bo] {
        wait_until(page, "return !document.querySelector('[id^=take-seat-]')", 15, "both seats taken").await;
    }
    wait_until(&watcher, &lists("playing", &room), 15, "the game listed to watch").await;
    assert_eq!(js(&watcher, &lists("waiting", &room)).await, false, "no longer waiting");

    click(&watcher, &format!("#lobby-playing a[href='/room/{room}']")).await;
    assert_eq!(room_of(&watcher).await, room);
}
