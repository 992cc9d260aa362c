//! "Notify me when it is my move" in the browser: a seated player's room shows the switch where the
//! server has Web Push keys (none where it has not), the switch asks the browser (which, here,
//! cannot reach a real push service, so the page says why), and the site's service worker shows a
//! pushed message as a notification that names the room (Chromium's DevTools deliver the push),
//! and a click on it opens the room, or focuses the room's tab where one is open (the desktop's
//! notification service is played by `desktop.rs`).

use serde_json::{json, Value};

use crate::browser::{cdp, click, js, screenshot, site_dist, text, try_cdp, wait_until, Driver};
use crate::common::Server;
use crate::desktop::Desktop;
use crate::services::webhook_service;
use crate::{create_room, exclusive, take_seat};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_offer_push_where_the_server_has_keys_and_the_worker_shows_pushes() {
    let _one = exclusive().await;
    let desktop = Desktop::start().await;
    let driver = Driver::start_with_env(&[("DBUS_SESSION_BUS_ADDRESS", &desktop.address)]);

    // No keys: no switch (the script asks the server and draws nothing).
    let plain = Server::start(site_dist());
    let page = driver.browser().await;
    let room = create_room(&plain, "popucom", json!({})).await;
    take_seat(&page, &plain, &room, 1).await;
    wait_until(&page, "return !!document.querySelector('script[src=\"/web-push.js\"]')", 10, "the script loaded").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(js(&page, "return document.querySelector('#push-room').children.length").await, 0);
    drop(plain);

    // With keys: the switch; turning it on asks for permission and subscribes (which this
    // Chromium cannot: no push service), and the page says it could not.
    let server = server_with_keys(&[]);
    let page = driver.browser().await;
    let origin = server.base.clone();
    cdp(&page, "Browser.grantPermissions", json!({"origin": origin, "permissions": ["notifications"]})).await;
    let room = create_room(&server, "popucom", json!({})).await;
    take_seat(&page, &server, &room, 1).await;
    wait_until(&page, "return !!document.querySelector('#push-room-on')", 10, "the notify switch").await;
    assert_eq!(
        js(&page, "return document.querySelector('#push-room-on').checked").await,
        Value::Bool(false),
        "off by default (the device's notification setting is off)"
    );
    click(&page, "#push-room-on").await;
    wait_until(&page, "return document.querySelector('#push-failed').textContent !== ''", 20, "the switch's answer")
        .await;
    let failed = text(&page, "#push-failed").await;
    assert!(failed.starts_with("Notifications could not be turned on ("), "{failed}");
    assert_eq!(js(&page, "return document.querySelector('#push-room-on').checked").await, Value::Bool(false));

    // The site's one worker, registered at scope "/" by the switch, shows a push as a
    // notification with the room's address. DevTools deliver it by the registration's id, which
    // Chromium numbers from 0 in a new profile.
    let scope = js(&page, "return navigator.serviceWorker.getRegistration('/').then((r) => r ? r.scope : '')").await;
    assert_eq!(scope, format!("{origin}/"), "one worker for the whole site");
    let payload = json!({"title": "Your move", "body": "Your move in POPUCOM against Ana, move 2", "url": format!("/room/{room}"), "tag": format!("room-{room}")});
    cdp(&page, "ServiceWorker.enable", json!({})).await;
    deliver_until_shown(&page, &origin, &payload).await;
    let notification = js(&page, SHOWN).await;
    assert_eq!(
        notification,
        json!([["Your move", "Your move in POPUCOM against Ana, move 2", format!("{origin}/room/{room}")]])
    );

    // A click opens the room where no tab has it open (this tab went home meanwhile) ...
    let shown = wait_for_desktop(&desktop, 1).await;
    assert_eq!(shown.summary, "Your move");
    assert!(shown.body.contains("Your move in POPUCOM against Ana, move 2"), "{shown:?}");
    page.goto(&format!("{origin}/")).await.unwrap();
    let room_url = format!("{origin}/room/{room}");
    assert_eq!(tabs_at(&page, &room_url).await, 0);
    desktop.click(shown.id).await;
    let start = std::time::Instant::now();
    while tabs_at(&page, &room_url).await == 0 {
        assert!(start.elapsed() < std::time::Duration::from_secs(20), "the click opened no tab of the room");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // ... and focuses the room's tab, opening no second one, where it is open.
    deliver_until_shown(&page, &origin, &payload).await;
    let again = wait_for_desktop(&desktop, 2).await;
    desktop.click(again.id).await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    assert_eq!(tabs_at(&page, &room_url).await, 1, "a second click opened a second tab of the room");
}

/// `tabula serve` with fresh VAPID keys, and `more` settings.
fn server_with_keys(more: &[(&str, &str)]) -> Server {
    let (public, private) = tabula_api::webpush::VapidKeys::generate().unwrap();
    let keys = [
        ("VAPID_PUBLIC_KEY", public.as_str()),
        ("VAPID_PRIVATE_KEY", private.as_str()),
        ("VAPID_SUBJECT", "mailto:e2e@tabula.invalid"),
    ];
    Server::start_with_env(site_dist(), &[&keys[..], more].concat())
}

/// The worker's notifications, as the page sees them.
const SHOWN: &str = "return navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((all) => \
    all.map((n) => [n.title, n.body, n.data && n.data.url]))";

/// Delivers `payload` by DevTools until the worker shows it. A worker stopped between tries wakes
/// for the push; a busy machine may take a while, so the push is sent again (to the first
/// registration ids, which Chromium numbers from 0 in a new profile) for up to a minute.
async fn deliver_until_shown(page: &fantoccini::Client, origin: &str, payload: &Value) {
    let showing = || async { js(page, SHOWN).await.as_array().is_some_and(|all| !all.is_empty()) };
    let mut delivered = Vec::new();
    for _ in 0..6 {
        for id in ["0", "1"] {
            let params = json!({"origin": origin, "registrationId": id, "data": payload.to_string()});
            delivered.push(try_cdp(page, "ServiceWorker.deliverPushMessage", params).await.is_ok());
        }
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(10) {
            if showing().await {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
    }
    panic!("no notification shown after a minute; DevTools delivered: {delivered:?}");
}

/// The `count`th notification the browser asked the desktop to show.
async fn wait_for_desktop(desktop: &Desktop, count: usize) -> crate::desktop::Shown {
    let start = std::time::Instant::now();
    loop {
        if let Some(shown) = desktop.shown().get(count - 1) {
            return shown.clone();
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "the desktop was asked to show {:?}",
            desktop.shown()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// How many of the browser's tabs show `url`.
async fn tabs_at(page: &fantoccini::Client, url: &str) -> usize {
    let targets = try_cdp(page, "Target.getTargets", json!({})).await.expect("the browser's targets");
    targets["targetInfos"]
        .as_array()
        .expect("targetInfos")
        .iter()
        .filter(|target| target["type"] == "page" && target["url"] == url)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_can_have_its_moves_posted_to_a_discord_channel() {
    let _one = exclusive().await;
    let (service, posts) = webhook_service().await;
    let server = server_with_keys(&[("PUSH_SERVICE_HOSTS", "localhost")]);
    let driver = Driver::start();
    let page = driver.browser().await;
    let room = create_room(&server, "popucom", json!({})).await;
    take_seat(&page, &server, &room, 1).await;
    wait_until(&page, "return !!document.querySelector('.push-webhook')", 10, "the webhook field").await;
    js(&page, "document.querySelector('.push-webhook').open = true; return true").await;

    // An address that is no webhook is refused, with the server's reason; Discord's is taken.
    let fill = |address: String| {
        format!(
            "const f = document.getElementById('push-webhook'); f.value = {address:?}; \
             document.getElementById('push-webhook-said').textContent = ''; return true"
        )
    };
    js(&page, &fill(format!("{service}/not-a-webhook"))).await;
    click(&page, "#push-webhook-save").await;
    wait_until(&page, "return document.getElementById('push-webhook-said').textContent !== ''", 10, "an answer").await;
    let said = text(&page, "#push-webhook-said").await;
    assert!(said.starts_with("Not taken (") && said.contains("webhook"), "{said}");
    js(&page, &fill(format!("{service}/api/webhooks/1/e2e"))).await;
    click(&page, "#push-webhook-save").await;
    wait_until(&page, "return document.getElementById('push-webhook-said').textContent === 'Done.'", 10, "taken").await;
    screenshot(&page, "room-webhook").await;

    // Red's page closes (a poll without `visible` says it no longer looks); Blue sits down and
    // both move: Red's turn comes, posted to the channel with the room's address.
    let red = js(&page, "return document.querySelector('script[src=\"/web-push.js\"]').dataset.token").await;
    let red = red.as_str().expect("the seat's token").to_owned();
    page.goto("about:blank").await.unwrap();
    let http = reqwest::Client::new();
    let api = format!("{}/api/game", server.base);
    let poll = http.get(&api).query(&[("roomId", room.as_str())]).header("x-tabula-token", &red).send().await.unwrap();
    assert_eq!(poll.status(), 200);
    let joined: Value =
        http.post(&api).json(&json!({"roomId": room, "seat": 2})).send().await.unwrap().json().await.unwrap();
    let blue = joined["token"].as_str().expect("Blue's token").to_owned();
    let view: Value = http.get(&api).query(&[("roomId", room.as_str())]).send().await.unwrap().json().await.unwrap();
    let mut version = view["version"].as_i64().expect("a version");
    for (token, cell) in [(&red, json!({"row": 4, "col": 4})), (&blue, json!({"row": 0, "col": 0}))] {
        let body = json!({"roomId": room, "token": token, "version": version, "move": cell});
        let moved: Value = http.put(&api).json(&body).send().await.unwrap().json().await.unwrap();
        version = moved["version"].as_i64().unwrap_or_else(|| panic!("a move: {moved}"));
    }
    let posted = posts.lock().unwrap().clone();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert_eq!(posted[0].0, "/api/webhooks/1/e2e");
    let content = posted[0].1["content"].as_str().unwrap();
    assert!(content.starts_with("**Your move**") && content.ends_with(&format!("/room/{room}")), "{content}");
}
