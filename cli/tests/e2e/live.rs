//! Live rooms: a move reaches the other player and a spectator by push (Server-Sent Events from
//! `tabula serve`) over a whole POPUCOM game, measured from the mover's tap to the move in the
//! other pages' move lists. With the push cut off (the server restarted while the pages may not
//! reconnect to it) moves still arrive, by polling; once the push may reconnect, it is back.

use fantoccini::Client;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::json;
use tabula_core::popucom::Popucom;
use tabula_core::Game;

use crate::browser::{cdp, js, site_dist, wait_until, Driver};
use crate::common::Server;
use crate::{create_room, exclusive, index, random_move, take_seat};

/// Records, in the page, when its move list grows: `window.moveTimes[n]` is the time (ms since
/// the epoch, the same clock for every page of the machine) at which it first showed `n` moves.
const WATCH_MOVES: &str = "
    window.moveTimes = {};
    const note = () => {
        const n = document.querySelectorAll('ol.moves li').length;
        if (!(n in window.moveTimes)) window.moveTimes[n] = performance.timeOrigin + performance.now();
    };
    new MutationObserver(note).observe(document.body, {childList: true, subtree: true});
    note();
    return true";

/// Taps a cell and returns when (the same clock as `WATCH_MOVES`).
pub(crate) async fn tap(client: &Client, cell: usize) -> f64 {
    let script = format!(
        "const t = performance.timeOrigin + performance.now(); document.getElementById('cell-{cell}').click(); return t"
    );
    js(client, &script).await.as_f64().expect("a time")
}

/// Waits until `client` shows `moves` moves and returns the delay since `since`, in ms.
pub(crate) async fn seen_after(client: &Client, moves: usize, since: f64, seconds: u64) -> f64 {
    let shown = format!("return window.moveTimes[{moves}] !== undefined");
    wait_until(client, &shown, seconds, &format!("move {moves} in the other pages")).await;
    js(client, &format!("return window.moveTimes[{moves}]")).await.as_f64().unwrap() - since
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

pub(crate) fn summary(delays: &mut [f64]) -> (f64, f64, f64) {
    delays.sort_by(f64::total_cmp);
    (percentile(delays, 0.5), percentile(delays, 0.95), delays[delays.len() - 1])
}

/// A new POPUCOM room with red and blue seated and a spectator, each in their own browser, each
/// with its push live and its move list watched (`WATCH_MOVES`).
pub(crate) async fn live_game(server: &Server, driver: &Driver) -> (String, [Client; 3]) {
    let room = create_room(server, "popucom", json!({})).await;
    let (red, blue, watcher) = (driver.browser().await, driver.browser().await, driver.browser().await);
    take_seat(&red, server, &room, 1).await;
    take_seat(&blue, server, &room, 2).await;
    watcher.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    for page in [&red, &blue, &watcher] {
        push_is(page, "live", 10).await;
        js(page, WATCH_MOVES).await;
    }
    (room, [red, blue, watcher])
}

pub(crate) async fn push_is(client: &Client, state: &str, seconds: u64) {
    let script = format!("return document.documentElement.dataset.push === '{state}'");
    wait_until(client, &script, seconds, &format!("the push to be {state}")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_reach_the_other_player_and_a_spectator_by_push_and_by_polling_without_it() {
    let _one = exclusive().await;
    let mut server = Server::start(site_dist());
    let driver = Driver::start();
    let (_room, [red, blue, watcher]) = live_game(&server, &driver).await;
    let pages = [&red, &blue, &watcher];

    let mut game = Popucom::default();
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut pushed, mut polled) = (Vec::new(), Vec::new());
    // Moves 1-20 by push; 21-30 with the push cut off; 31-50 by push again.
    while let Some(cell) = random_move(&game, &mut rng) {
        let number = game.moves_played() as usize + 1;
        if number == 21 {
            // The pages may not reach the event stream any more, and the server's restart closes
            // the streams they have: what is left is polling.
            for page in pages {
                cdp(page, "Network.enable", json!({})).await;
                cdp(page, "Network.setBlockedURLs", json!({"urls": ["*/api/events*"]})).await;
            }
            server.stop();
            server.restart();
            for page in pages {
                push_is(page, "off", 10).await;
            }
        }
        if number == 31 {
            for page in pages {
                cdp(page, "Network.setBlockedURLs", json!({"urls": []})).await;
            }
            for page in pages {
                // A channel the browser gave up on is opened anew every 10 s.
                push_is(page, "live", 25).await;
            }
        }
        let (mover, others) = if number % 2 == 1 { (&red, [&blue, &watcher]) } else { (&blue, [&red, &watcher]) };
        let since = tap(mover, index(cell)).await;
        game.play(&cell).unwrap();
        for other in others {
            let seconds = if (21..=30).contains(&number) { 10 } else { 5 };
            let delay = seen_after(other, number, since, seconds).await;
            if (21..=30).contains(&number) {
                polled.push(delay)
            } else {
                pushed.push(delay)
            }
        }
    }
    assert!(game.status().is_over());
    let (p50, p95, max) = summary(&mut pushed);
    let (poll50, poll95, poll_max) = summary(&mut polled);
    eprintln!(
        "push: {} deliveries, median {p50:.0} ms, p95 {p95:.0} ms, max {max:.0} ms; \
         polling (push cut off): {} deliveries, median {poll50:.0} ms, p95 {poll95:.0} ms, max {poll_max:.0} ms",
        pushed.len(),
        polled.len()
    );
    assert!(p95 <= 150.0, "a move reaches the other pages by push in {p95:.0} ms at p95 (goal: 150)");
    // Polling still delivers every move, at its own pace (a poll a second, plus the request).
    assert!(poll95 <= 2_500.0, "without the push, moves arrived in {poll95:.0} ms at p95");
    for page in pages {
        assert_eq!(
            js(page, "return !document.querySelector('.offline')?.checkVisibility()").await,
            json!(true),
            "nothing alarming shown"
        );
        page.clone().close().await.unwrap();
    }
}
