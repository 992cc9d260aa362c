//! Web Push over HTTP, on both stores, against a real push service stand-in (`web-push-testing`,
//! which checks each push's VAPID signature and decrypts its payload): subscriptions checked and
//! kept, a move pushed to the seat now on move with the room's address, nothing while that seat's
//! page is visible, a game's end pushed, and a subscription the service expired deleted after the
//! next push. Discord and Slack webhooks against a stand-in that records what each is posted.

use serde_json::{json, Value};
use tabula_api::notify::SUBSCRIPTIONS_PER_SEAT;
use tabula_api::room::RoomId;
use tabula_api::webpush::PushHosts;

use crate::client::{room_id, Backend, Reply, TestApi, CRON_SECRET};
use crate::services::{web_push_service, webhook_service};

/// A browser's subscription at the stand-in (`PushSubscription.toJSON()`), and its id there.
async fn browser_subscription(public_key: &str) -> (Value, String) {
    let http = reqwest::Client::new();
    let answer: Value = http
        .post(format!("{}/subscribe", web_push_service()))
        // (Its `userVisibleOnly` would have to be the text "true", as a form sends it.)
        .json(&json!({"applicationServerKey": public_key}))
        .send()
        .await
        .expect("the push service stand-in answers")
        .json()
        .await
        .expect("a subscription");
    let data = &answer["data"];
    let hash = data["clientHash"].as_str().unwrap_or_else(|| panic!("a subscription: {answer}")).to_owned();
    (json!({"endpoint": data["endpoint"], "keys": data["keys"]}), hash)
}

/// The payloads the stand-in received for a subscription, decrypted.
async fn received(client_hash: &str) -> Vec<Value> {
    let answer: Value = reqwest::Client::new()
        .post(format!("{}/get-notifications", web_push_service()))
        .json(&json!({"clientHash": client_hash}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let messages = answer["data"]["messages"].as_array().unwrap_or_else(|| panic!("messages: {answer}"));
    messages.iter().map(|m| serde_json::from_str(m.as_str().unwrap()).expect("a JSON payload")).collect()
}

async fn notify(api: &TestApi, method: reqwest::Method, body: Value) -> Reply {
    api.send(api.http.request(method, format!("{}/api/notify", api.base)).json(&body)).await
}

async fn subscribe(api: &TestApi, room: &str, token: &str, subscription: &Value) -> Reply {
    notify(api, reqwest::Method::POST, json!({"roomId": room, "token": token, "subscription": subscription})).await
}

/// A seated player's poll from a page that is visible.
async fn look(api: &TestApi, room: &str, token: &str) {
    let request = api.http.get(api.url()).query(&[("roomId", room), ("visible", "1")]).header("x-tabula-token", token);
    assert_eq!(api.send(request).await.status, 200);
}

fn version(reply: &Reply) -> i64 {
    reply.body["version"].as_i64().unwrap_or_else(|| panic!("a room: {}", reply.raw))
}

pub async fn subscriptions_are_checked_and_kept_apart_from_views(backend: Backend) {
    let plain = TestApi::start(backend).await;
    let reply = plain.send(plain.http.get(format!("{}/api/notify", plain.base))).await;
    assert_eq!((reply.status.as_u16(), reply.code()), (404, "not_configured"));

    let hosts = PushHosts::parse(Some("localhost, push.test, *.corp.test"))
        .resolving("push.test", vec!["93.184.216.34".parse().unwrap()])
        .resolving("a.corp.test", vec!["10.0.0.1".parse().unwrap()]);
    let (api, public_key) = TestApi::start_notifying(backend, hosts).await;
    let reply = api.send(api.http.get(format!("{}/api/notify", api.base))).await;
    assert_eq!(reply.body, json!({"publicKey": public_key}));
    let push = api.send(api.http.get(format!("{}/api/push", api.base))).await;
    assert_eq!(push.body["webPush"], true, "pages learn there are keys: {}", push.raw);

    let room = room_id();
    let [_red, blue] = api.seated_room(&room).await;
    let (subscription, _) = browser_subscription(&public_key).await;
    let with_endpoint = |endpoint: &str| json!({"endpoint": endpoint, "keys": subscription["keys"]});
    let refusals = [
        (json!({"roomId": room, "token": "not-a-seat", "subscription": subscription}), 403, "not_a_player"),
        (json!({"roomId": room_id(), "token": blue, "subscription": subscription}), 404, "room_not_found"),
        (
            json!({"roomId": room, "token": blue, "subscription": with_endpoint("https://example.com/push")}),
            400,
            "endpoint_refused",
        ),
        (
            json!({"roomId": room, "token": blue, "subscription": with_endpoint("http://push.test/x")}),
            400,
            "endpoint_refused",
        ),
        (
            json!({"roomId": room, "token": blue, "subscription": with_endpoint("https://a.corp.test/x")}),
            400,
            "endpoint_refused",
        ),
        (
            json!({"roomId": room, "token": blue, "subscription": {"endpoint": subscription["endpoint"], "keys": {"p256dh": "abc", "auth": "abc"}}}),
            400,
            "bad_request",
        ),
        (json!({"roomId": room, "token": blue}), 400, "bad_request"),
    ];
    for (body, status, code) in refusals {
        let reply = notify(&api, reqwest::Method::POST, body.clone()).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (status, code), "{body}: {}", reply.raw);
    }
    let id = RoomId::parse(&room).unwrap();
    assert!(api.store.subscriptions(&id).await.unwrap().is_empty(), "a refusal keeps nothing");

    let reply = subscribe(&api, &room, &blue, &subscription).await;
    assert_eq!((reply.status.as_u16(), &reply.body), (200, &json!({"subscribed": true})), "{}", reply.raw);
    let kept = api.store.subscriptions(&id).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!((kept[0].seat, kept[0].endpoint.as_str()), (2, subscription["endpoint"].as_str().unwrap()));
    assert_ne!(kept[0].token_hash, blue, "kept by the token's hash");
    let endpoint = subscription["endpoint"].as_str().unwrap();
    assert!(!api.get(&room).await.raw.contains(endpoint), "never in a view");
    assert!(!api.poll(&room, &blue).await.raw.contains(endpoint), "not even the seat's own");

    // A seat keeps its newest few.
    let mut newer = Vec::new();
    for _ in 0..SUBSCRIPTIONS_PER_SEAT {
        let (another, _) = browser_subscription(&public_key).await;
        assert_eq!(subscribe(&api, &room, &blue, &another).await.status, 200);
        newer.push(another["endpoint"].as_str().unwrap().to_owned());
    }
    let mut kept: Vec<String> = api.store.subscriptions(&id).await.unwrap().into_iter().map(|s| s.endpoint).collect();
    kept.sort();
    newer.sort();
    assert_eq!(kept, newer, "the oldest made room");

    let last = json!({"endpoint": newer[0], "keys": subscription["keys"]});
    let reply =
        notify(&api, reqwest::Method::DELETE, json!({"roomId": room, "token": blue, "subscription": last})).await;
    assert_eq!(reply.body, json!({"subscribed": false}), "{}", reply.raw);
    assert_eq!(api.store.subscriptions(&id).await.unwrap().len(), SUBSCRIPTIONS_PER_SEAT - 1);
}

pub async fn a_move_is_pushed_to_the_seat_on_move_unless_it_looks(backend: Backend) {
    let (api, public_key) = TestApi::start_notifying(backend, PushHosts::parse(Some("localhost"))).await;
    let room = room_id();
    let [red, blue] = api.seated_room(&room).await;
    let (subscription, blue_browser) = browser_subscription(&public_key).await;
    assert_eq!(subscribe(&api, &room, &blue, &subscription).await.status, 200);

    let reply = api.play(&room, &red, version(&api.get(&room).await), json!({"row": 4, "col": 4})).await;
    let pushed = received(&blue_browser).await;
    assert_eq!(pushed.len(), 1, "{pushed:?}");
    assert_eq!(pushed[0]["url"], format!("/room/{room}"));
    assert_eq!(pushed[0]["title"], "Your move");
    assert!(pushed[0]["body"].as_str().unwrap().starts_with("Your move in POPUCOM"), "{pushed:?}");

    // Blue's page is visible: Red's next move tells Blue nothing.
    look(&api, &room, &blue).await;
    let reply = api.play(&room, &blue, version(&reply), json!({"row": 0, "col": 0})).await;
    let reply = api.play(&room, &red, version(&reply), json!({"row": 8, "col": 8})).await;
    assert_eq!(received(&blue_browser).await.len(), 1, "nothing while the page is visible");

    // The page went to the background (its polls stop saying visible): pushed again.
    assert_eq!(api.poll(&room, &blue).await.status, 200);
    let reply = api.play(&room, &blue, version(&reply), json!({"row": 0, "col": 8})).await;
    let reply = api.play(&room, &red, version(&reply), json!({"row": 8, "col": 0})).await;
    assert_eq!(received(&blue_browser).await.len(), 2);

    // The game's end reaches both seats (Red has no subscription).
    api.act(&room, &red, version(&reply), "resign").await;
    let pushed = received(&blue_browser).await;
    assert_eq!(pushed.len(), 3);
    assert_eq!(
        (pushed[2]["title"].as_str(), pushed[2]["body"].as_str().map(|b| b.starts_with("You won"))),
        (Some("Game over"), Some(true)),
        "{pushed:?}"
    );
}

pub async fn a_subscription_the_push_service_expired_is_deleted_after_the_next_push(backend: Backend) {
    let (api, public_key) = TestApi::start_notifying(backend, PushHosts::parse(Some("localhost"))).await;
    let room = room_id();
    let [red, blue] = api.seated_room(&room).await;
    let (subscription, blue_browser) = browser_subscription(&public_key).await;
    assert_eq!(subscribe(&api, &room, &blue, &subscription).await.status, 200);
    let id = RoomId::parse(&room).unwrap();
    assert_eq!(api.store.subscriptions(&id).await.unwrap().len(), 1);
    let expired = reqwest::Client::new()
        .post(format!("{}/expire-subscription/{blue_browser}", web_push_service()))
        .send()
        .await
        .unwrap();
    assert!(expired.status().is_success());
    let reply = api.play(&room, &red, version(&api.get(&room).await), json!({"row": 4, "col": 4})).await;
    assert_eq!(reply.status, 200, "a push that fails never fails the move: {}", reply.raw);
    assert!(api.store.subscriptions(&id).await.unwrap().is_empty(), "the 410 deleted it");
    assert!(received(&blue_browser).await.is_empty());
}

async fn cron_clocks(api: &TestApi) -> Value {
    let reply = api
        .send(api.http.get(format!("{}/api/cron", api.base)).query(&[("task", "clocks")]).bearer_auth(CRON_SECRET))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.raw);
    reply.body
}

pub async fn the_cron_ends_games_out_of_time_and_reminds_correspondence_players(backend: Backend) {
    let (api, public_key) = TestApi::start_notifying(backend, PushHosts::parse(Some("localhost"))).await;
    let reply = api
        .send(api.http.get(format!("{}/api/cron", api.base)).query(&[("task", "all")]).bearer_auth(CRON_SECRET))
        .await;
    assert_eq!((reply.status.as_u16(), reply.code()), (400, "bad_request"));

    // A live game whose side on move runs out of time while nobody looks at it.
    let room = room_id();
    let live = json!({"clock": {"kind": "live", "initialSeconds": 1, "incrementSeconds": 0}});
    let [red, blue] = api.seated_room_of(&room, live).await;
    let (subscription, blue_browser) = browser_subscription(&public_key).await;
    assert_eq!(subscribe(&api, &room, &blue, &subscription).await.status, 200);
    let reply = api.play(&room, &red, version(&api.get(&room).await), json!({"row": 4, "col": 4})).await;
    api.play(&room, &blue, version(&reply), json!({"row": 0, "col": 0})).await;
    let id = RoomId::parse(&room).unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert!(cron_clocks(&api).await["ended"].as_u64().unwrap() >= 1);
    let stored = api.store.load(&id).await.unwrap().unwrap();
    assert!(stored.clock.unwrap().ended.is_some(), "written by the cron, not by a reader");
    let pushed = received(&blue_browser).await;
    let last = pushed.last().expect("the end pushed to Blue");
    assert_eq!(last["title"], "Game over");
    assert!(last["body"].as_str().unwrap().starts_with("You won on time"), "{pushed:?}");

    // A correspondence game (2 days a move) whose side on move has less than an hour left: one
    // reminder, once.
    let room = room_id();
    let correspondence = json!({"clock": {"kind": "correspondence", "daysPerMove": 2}});
    let [red, blue] = api.seated_room_of(&room, correspondence).await;
    let (subscription, blue_browser) = browser_subscription(&public_key).await;
    assert_eq!(subscribe(&api, &room, &blue, &subscription).await.status, 200);
    let reply = api.play(&room, &red, version(&api.get(&room).await), json!({"row": 4, "col": 4})).await;
    let reply = api.play(&room, &blue, version(&reply), json!({"row": 0, "col": 0})).await;
    api.play(&room, &red, version(&reply), json!({"row": 8, "col": 8})).await;
    let pushed_before = received(&blue_browser).await.len();
    cron_clocks(&api).await;
    assert_eq!(received(&blue_browser).await.len(), pushed_before, "two days left: no reminder");
    // Blue got the move 47.5 hours ago.
    let id = RoomId::parse(&room).unwrap();
    let mut stored = api.store.load(&id).await.unwrap().unwrap();
    let clock = stored.clock.as_mut().unwrap();
    clock.since -= chrono::Duration::minutes(47 * 60 + 30);
    stored.version += 1;
    assert!(api.store.replace(&stored, stored.version - 1).await.unwrap());
    cron_clocks(&api).await;
    cron_clocks(&api).await;
    let pushed = received(&blue_browser).await;
    assert_eq!(pushed.len(), pushed_before + 1, "one reminder: {pushed:?}");
    let reminder = pushed.last().unwrap();
    assert!(reminder["body"].as_str().unwrap().starts_with("1 hour left: your move"), "{reminder}");
    assert_eq!(reminder["url"], format!("/room/{room}"));
}

pub async fn webhooks_post_each_seat_s_notices_to_discord_or_slack(backend: Backend) {
    let (api, _) = TestApi::start_notifying(backend, PushHosts::parse(Some("localhost"))).await;
    let (service, posts) = webhook_service().await;
    let room = room_id();
    let [red, blue] = api.seated_room(&room).await;
    let webhook = |token: &str, address: String| json!({"roomId": room, "token": token, "webhook": address});
    let refusals = [
        (webhook(&red, format!("{service}/not/a/webhook")), 400, "endpoint_refused"),
        (webhook(&red, "https://example.com/api/webhooks/1/x".into()), 400, "endpoint_refused"),
        (webhook("not-a-seat", format!("{service}/api/webhooks/1/red")), 403, "not_a_player"),
    ];
    for (body, status, code) in refusals {
        let reply = notify(&api, reqwest::Method::POST, body.clone()).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (status, code), "{body}: {}", reply.raw);
    }
    let subscription = json!({"endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": "k", "auth": "a"}});
    let both = json!({"roomId": room, "token": red, "webhook": format!("{service}/api/webhooks/1/red"), "subscription": subscription});
    let reply = notify(&api, reqwest::Method::POST, both).await;
    assert_eq!((reply.status.as_u16(), reply.code()), (400, "bad_request"));
    assert!(reply.raw.contains("either"), "one or the other: {}", reply.raw);
    let subscribed = notify(&api, reqwest::Method::POST, webhook(&red, format!("{service}/api/webhooks/1/red"))).await;
    assert_eq!(subscribed.body, json!({"subscribed": true}), "{}", subscribed.raw);
    let subscribed =
        notify(&api, reqwest::Method::POST, webhook(&blue, format!("{service}/services/T1/B2/blue"))).await;
    assert_eq!(subscribed.body, json!({"subscribed": true}), "{}", subscribed.raw);
    assert!(!api.get(&room).await.raw.contains("/services/T1"), "never in a view");

    // Red's move: Blue's Slack channel hears it; Blue's move: Red's Discord channel.
    let reply = api.play(&room, &red, version(&api.get(&room).await), json!({"row": 4, "col": 4})).await;
    api.play(&room, &blue, version(&reply), json!({"row": 0, "col": 0})).await;
    let posted = posts.lock().unwrap().clone();
    assert_eq!(posted.len(), 2, "{posted:?}");
    assert_eq!(posted[0].0, "/services/T1/B2/blue");
    let slack = posted[0].1["text"].as_str().unwrap();
    assert!(
        slack.starts_with("*Your move*: Your move in POPUCOM") && slack.ends_with(&format!("/room/{room}")),
        "{slack}"
    );
    assert_eq!(posted[1].0, "/api/webhooks/1/red");
    let discord = posted[1].1["content"].as_str().unwrap();
    assert!(discord.starts_with("**Your move**: Your move in POPUCOM"), "{discord}");
    assert_eq!(posted[1].1["allowed_mentions"], json!({"parse": []}), "no one pinged");

    // A webhook deleted in the chat (404) is deleted here after the next notice; DELETE stops one.
    let gone = notify(&api, reqwest::Method::POST, webhook(&red, format!("{service}/api/webhooks/2/gone"))).await;
    assert_eq!(gone.status, 200);
    let stopped = notify(&api, reqwest::Method::DELETE, webhook(&blue, format!("{service}/services/T1/B2/blue"))).await;
    assert_eq!(stopped.body, json!({"subscribed": false}));
    let id = RoomId::parse(&room).unwrap();
    assert_eq!(api.store.subscriptions(&id).await.unwrap().len(), 2);
    let reply = api.play(&room, &red, version(&api.get(&room).await), json!({"row": 8, "col": 8})).await;
    api.play(&room, &blue, version(&reply), json!({"row": 0, "col": 8})).await;
    let kept: Vec<String> = api.store.subscriptions(&id).await.unwrap().into_iter().map(|s| s.endpoint).collect();
    assert_eq!(kept, vec![format!("{service}/api/webhooks/1/red")], "the 404 deleted the gone one");
    let paths: Vec<String> = posts.lock().unwrap().iter().skip(2).map(|(path, _)| path.clone()).collect();
    assert_eq!(paths.len(), 2, "Red's two webhooks, and Blue's stopped Slack nothing: {paths:?}");
    assert!(paths.iter().all(|path| path.starts_with("/api/webhooks/")), "{paths:?}");
}

both_stores!(
    webhooks_post_each_seat_s_notices_to_discord_or_slack,
    the_cron_ends_games_out_of_time_and_reminds_correspondence_players,
    subscriptions_are_checked_and_kept_apart_from_views,
    a_move_is_pushed_to_the_seat_on_move_unless_it_looks,
    a_subscription_the_push_service_expired_is_deleted_after_the_next_push,
);
