//! The site's addresses: every page loads directly (not only by in-app navigation) with its own
//! title, back and forward work across page loads and in-app moves, rooms of games not playable yet
//! and unknown rooms say so, no other site can frame a room, and the crawler files are real files.

use serde_json::Value;

use crate::browser::{cdp, click, js, screenshot, site_dist, text, wait_for_app, wait_until, Driver};
use crate::common::Server;
use crate::{create_room, exclusive, no_horizontal_overflow};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_address_loads_directly_with_its_own_title() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "go", serde_json::json!({"size": 9})).await;
    let client = driver.browser().await;
    let pages = [
        ("/", "#popucom", "Tabula — board games, played fairly"),
        ("/popucom", "#play-local", "POPUCOM three-match chess — rules and play — Tabula"),
        ("/go", "#option-size", "Go — rules and play — Tabula"),
        ("/edges", "#option-cells_to_win", "Edges & Blocks — rules and play — Tabula"),
        ("/chess", "#option-variant", "Fairy chess — rules and play — Tabula"),
        ("/triplex", "#level-1", "Triplex — rules and play — Tabula"),
        ("/triplex/5", "#tx-cell-0-0", "Triplex level 5 — Tabula"),
        ("/popucom/local", "#cell-40", "POPUCOM three-match chess on this device — Tabula"),
        ("/go/local?size=13", "#point-168", "Go on this device — Tabula"),
        ("/edges/local?size=12", "#edge-287", "Edges & Blocks on this device — Tabula"),
        ("/chess/local?variant=big12", "#square-l12", "Fairy chess on this device — Tabula"),
        ("/local", "#cell-40", "POPUCOM three-match chess on this device — Tabula"),
        (&format!("/room/{room}"), "#take-seat-1", &format!("Room {room} — Tabula")),
        ("/no/such/page", ".not-found", "Page not found — Tabula"),
    ];
    for (path, marker, title) in pages {
        client.goto(&format!("{}{path}", server.base)).await.unwrap();
        // The pre-rendered page has most markers too: the app must have replaced it.
        wait_for_app(&client).await;
        wait_until(&client, &format!("return !!document.querySelector('{marker}')"), 10, path).await;
        wait_until(&client, &format!("return document.title === {title:?}"), 10, &format!("{path}'s title")).await;
        let description = js(&client, "return document.querySelector('meta[name=description]').content").await;
        assert!(description.as_str().is_some_and(|d| d.len() > 20), "{path}: description {description}");
        no_horizontal_overflow(&client, path).await;
    }
    // The query string chose the board: a 13x13 board has 169 points.
    client.goto(&format!("{}/go/local?size=13", server.base)).await.unwrap();
    wait_until(&client, "return document.querySelectorAll('.go-board .pt').length === 169", 10, "13x13").await;
    client.close().await.unwrap();
}

/// A language chosen on the home shows at once, after a reload (the home reads its messages with
/// code it loads on demand) and on a game's page (whose bundle has that code built in), and English
/// comes back when chosen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chosen_language_shows_at_once_after_a_reload_and_on_other_pages() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    let choose = |tag: &str| {
        format!(
            "const s = document.getElementById('language'); s.value = {tag:?}; \
             s.dispatchEvent(new Event('change', {{bubbles: true}})); return s.value"
        )
    };
    let heading = "return document.querySelector('.page-title').textContent";
    client.goto(&format!("{}/", server.base)).await.unwrap();
    wait_for_app(&client).await;
    assert_eq!(js(&client, heading).await, "Board games, played fairly");
    assert_eq!(js(&client, &choose("de")).await, "de");
    let german = "return document.querySelector('.page-title').textContent === 'Brettspiele, fair gespielt'";
    wait_until(&client, german, 10, "the home in German").await;
    client.refresh().await.unwrap();
    wait_for_app(&client).await;
    wait_until(&client, german, 10, "the home in German after a reload").await;
    client.goto(&format!("{}/go", server.base)).await.unwrap();
    wait_for_app(&client).await;
    wait_until(&client, "return document.title === 'Go — Regeln und Spiel — Tabula'", 10, "the Go page in German")
        .await;
    // The rules pictures, loaded after the live page's first paint: boards drawn, captions in German.
    let first_caption = |text: &str| {
        format!(
            "const c = [...document.querySelectorAll('.diagrams .diagram')].filter(d => d.querySelector('.go-board')) \
             .map(d => d.querySelector('figcaption').textContent); return c.length === 2 && c[0].startsWith({text:?})"
        )
    };
    wait_until(&client, &first_caption("Schwarz nimmt mit D6"), 10, "the live page's diagrams in German").await;
    // A room's bundle reads a language's file itself (not on demand): its words in German too.
    let room = create_room(&server, "go", serde_json::json!({"size": 9})).await;
    client.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_for_app(&client).await;
    let intro = "return document.querySelector('.room-intro')?.textContent.startsWith('Zwei Spieler nehmen') === true";
    wait_until(&client, intro, 10, "the room in German").await;
    client.goto(&format!("{}/go", server.base)).await.unwrap();
    wait_for_app(&client).await;
    assert_eq!(js(&client, &choose("en")).await, "en");
    wait_until(&client, "return document.title === 'Go — rules and play — Tabula'", 10, "English again").await;
    wait_until(&client, &first_caption("Black's stone on D6"), 10, "the diagrams' captions in English").await;
    client.close().await.unwrap();
}

/// What the home's game cards show, in the page: each card's picture (loaded, 240 wide, with its
/// text alternative and lazy), and its ways in, by game.
const CARDS: &str = r#"
return [...document.querySelectorAll('.game-card')].map((card) => {
  const img = card.querySelector('img');
  return {
    game: card.querySelector('.card-link').id,
    picture: img && img.getAttribute('src'),
    loaded: !!img && img.complete && img.naturalWidth === 240,
    alt: img ? img.alt : '',
    lazy: !!img && img.loading === 'lazy',
    ways: [...card.querySelectorAll('.card-ways a')].map((a) => a.pathname + a.search),
  };
});
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_shows_each_game_s_picture_and_its_shortest_ways_in() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    // The first screen on a laptop and on a phone, for people to look at (`docs/screenshots/`).
    for (width, height) in [(1280, 800), (390, 844)] {
        let metrics = serde_json::json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false});
        cdp(&client, "Emulation.setDeviceMetricsOverride", metrics).await;
        client.goto(&server.base).await.unwrap();
        wait_for_app(&client).await;
        let visible_loaded = "return [...document.querySelectorAll('.game-card img')]
            .filter((i) => i.getBoundingClientRect().top < window.innerHeight)
            .every((i) => i.complete && i.naturalWidth > 0)";
        wait_until(&client, visible_loaded, 10, "the pictures on the first screen").await;
        let fits = js(&client, "return document.documentElement.scrollWidth <= window.innerWidth").await;
        assert_eq!(fits, Value::Bool(true), "the home overflows sideways at {width}x{height}");
        screenshot(&client, &format!("home-{width}x{height}")).await;
    }
    // Lazy pictures load as they come near the viewport: scroll to the end.
    js(&client, "window.scrollTo(0, document.body.scrollHeight); return true").await;
    let all_loaded =
        "return [...document.querySelectorAll('.game-card img')].every((i) => i.complete && i.naturalWidth > 0)";
    wait_until(&client, all_loaded, 10, "every card's picture").await;
    let cards = js(&client, CARDS).await;
    let cards = cards.as_array().expect("a list of cards");
    let games: Vec<&str> = cards.iter().map(|c| c["game"].as_str().unwrap_or_default()).collect();
    assert_eq!(games, ["popucom", "go", "edges", "chess", "triplex"]);
    for card in cards {
        let game = card["game"].as_str().unwrap();
        assert_eq!(card["picture"], format!("/pictures/{game}.svg"), "{game}");
        assert_eq!(card["loaded"], true, "{game}'s picture loaded at its size: {card}");
        assert_eq!(card["lazy"], true, "{game}'s picture waits until it is near the screen");
        let alt = card["alt"].as_str().unwrap_or_default();
        assert!(alt.len() > 10 && alt.contains(&text(&client, &format!("#{game} h3")).await), "{game}'s alt: {alt:?}");
        let ways: Vec<&str> = card["ways"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        let expected = match game {
            "triplex" => vec!["/triplex/1".to_owned()],
            _ => vec![format!("/{game}/local?computer=2&side=1"), format!("/{game}?quick"), format!("/{game}/local")],
        };
        assert_eq!(ways, expected, "{game}'s ways in");
    }
    // Each way in opens what it says: a board against the computer, a board for two, a level.
    click(&client, "#go-computer").await;
    let computer = "return location.pathname === '/go/local' && !!document.getElementById('computer-line') \
                    && !!document.getElementById('point-40')";
    wait_until(&client, computer, 15, "Go against the computer").await;
    client.goto(&server.base).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#edges-local").await;
    let local = "return location.pathname === '/edges/local' && !document.getElementById('computer-line') \
                 && !!document.getElementById('edge-0')";
    wait_until(&client, local, 15, "Edges & Blocks for two").await;
    client.goto(&server.base).await.unwrap();
    wait_for_app(&client).await;
    // Quick play: a seat in a room of the game (a new public one: nobody waits), and going back
    // leads to the game's page without starting another.
    click(&client, "#popucom-quick").await;
    let seated = "return location.pathname.startsWith('/room/') && !!document.querySelector('.board') \
                  && !document.getElementById('take-seat-1')";
    wait_until(&client, seated, 15, "a seat by quick play").await;
    let room = js(&client, "return location.pathname").await;
    client.back().await.unwrap();
    wait_until(
        &client,
        "return location.pathname + location.search === '/popucom' && !!document.getElementById('quick-play')",
        15,
        "back on the game's page",
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(js(&client, "return location.pathname").await, "/popucom", "no second quick play (was in {room})");
    client.goto(&server.base).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#triplex-first").await;
    wait_until(&client, "return !!document.getElementById('tx-cell-0-0')", 15, "Triplex level 1").await;
    assert!(js(&client, "return location.pathname").await == "/triplex/1");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn back_and_forward_work_across_page_loads_and_in_app_moves() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&server.base).await.unwrap();
    click(&client, "#go").await;
    wait_until(
        &client,
        "return location.pathname === '/go' && !!document.getElementById('play-local')",
        10,
        "Go's page",
    )
    .await;
    click(&client, "#play-local").await;
    wait_until(
        &client,
        "return location.pathname === '/go/local' && !!document.getElementById('point-40')",
        10,
        "the game",
    )
    .await;
    client.back().await.unwrap();
    wait_until(
        &client,
        "return location.pathname === '/go' && !!document.getElementById('option-size')",
        10,
        "back to Go's page",
    )
    .await;
    client.back().await.unwrap();
    wait_until(&client, "return location.pathname === '/' && !!document.getElementById('popucom')", 10, "back home")
        .await;
    client.forward().await.unwrap();
    wait_until(
        &client,
        "return location.pathname === '/go' && !!document.getElementById('option-size')",
        10,
        "forward to Go",
    )
    .await;
    client.forward().await.unwrap();
    wait_until(
        &client,
        "return location.pathname === '/go/local' && !!document.getElementById('point-40')",
        10,
        "forward to the game",
    )
    .await;
    client.close().await.unwrap();
}

/// The security policy's `frame-ancestors 'none'`: another site cannot show a room in a frame of
/// its own (where the room could be clicked into moves).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_does_not_render_in_another_site_s_frame() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "popucom", serde_json::json!({})).await;
    let url = format!("{}/room/{room}", server.base);
    let other_site = framing_site(&url);
    let client = driver.browser().await;
    client.goto(&other_site).await.unwrap();
    client.enter_frame(0).await.unwrap();
    // What the frame shows once it has loaded something: Chromium's error page, not the room.
    let mut shown = String::new();
    for _ in 0..100 {
        let script = "return location.href + ' ' + !!document.querySelector('.room-name')";
        shown = match client.execute(script, vec![]).await {
            Ok(value) => value.as_str().unwrap_or_default().to_owned(),
            Err(error) => format!("no script runs there: {error}"),
        };
        if !shown.starts_with("about:blank") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(!shown.starts_with("about:blank"), "the frame never loaded");
    assert!(!shown.starts_with(&url) && !shown.ends_with("true"), "the room rendered in another site's frame: {shown}");
    client.close().await.unwrap();
}

/// Another site (another loopback port, with no policy of its own): a page framing `url`. Serves
/// until the test process ends.
fn framing_site(url: &str) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let page =
        format!("<!doctype html><title>Another site</title><iframe src=\"{url}\" width=600 height=600></iframe>");
    let answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
        page.len()
    );
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    format!("http://{address}/")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_rooms_say_so() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/room/nosuchroom", server.base)).await.unwrap();
    wait_until(
        &client,
        "return !!document.getElementById('room-missing')?.checkVisibility()",
        10,
        "the missing-room notice",
    )
    .await;
    assert_eq!(text(&client, "#room-missing").await, "There is no room nosuchroom.");
    client.close().await.unwrap();

    let http = reqwest::Client::new();
    for (path, kind) in [("/robots.txt", "text/plain"), ("/sitemap.xml", "text/xml")] {
        let answer = http.get(format!("{}{path}", server.base)).send().await.unwrap();
        assert_eq!(answer.status(), 200, "{path}");
        let content_type = answer.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(content_type.starts_with(kind), "{path} is {content_type}");
        assert!(!answer.text().await.unwrap().contains("<html"), "{path} is not the app's page");
    }
    let missing = http.get(format!("{}/no/such/page", server.base)).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    // Compressed as the browser asks, pages revalidated, hashed assets cached for good.
    let page = http.get(format!("{}/go", server.base)).header("accept-encoding", "br, gzip").send().await.unwrap();
    assert_eq!(page.headers()["content-encoding"], "br");
    assert_eq!(page.headers()["cache-control"], "no-cache");
    let html = std::fs::read_to_string(crate::browser::site_dist().join("go.html")).unwrap();
    let asset = html.split("\"").find(|s| s.starts_with("/assets/go-") && s.ends_with(".wasm")).unwrap().to_owned();
    let wasm = http.get(format!("{}{asset}", server.base)).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(wasm.headers()["content-encoding"], "gzip");
    assert_eq!(wasm.headers()["cache-control"], "public, max-age=31536000, immutable");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_made_on_a_game_page_has_the_options_chosen_there() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/go", server.base)).await.unwrap();
    wait_for_app(&client).await;
    // A handicap of 5 on an even board is refused by the engine: the page says so, offers nothing.
    js(&client, "const s = document.getElementById('option-size'); s.value = '12'; s.dispatchEvent(new Event('change')); \
        const h = document.getElementById('option-handicap'); h.value = '5'; h.dispatchEvent(new Event('change')); return true").await;
    wait_until(&client, "return document.getElementById('create-room').disabled", 5, "the refusal").await;
    assert!(text(&client, "#options-message").await.starts_with("These options cannot be played"));
    js(&client, "const s = document.getElementById('option-size'); s.value = '13'; s.dispatchEvent(new Event('change')); \
        const h = document.getElementById('option-handicap'); h.value = '2'; h.dispatchEvent(new Event('change')); \
        const k = document.getElementById('option-komi'); k.value = '0.5'; k.dispatchEvent(new Event('change')); return true").await;
    wait_until(&client, "return !document.getElementById('create-room').disabled", 5, "valid options").await;
    click(&client, "#create-room").await;
    wait_until(
        &client,
        "return location.pathname.startsWith('/room/') && document.querySelectorAll('.go-board .pt').length === 169",
        10,
        "the new 13x13 room",
    )
    .await;
    let code = js(&client, "return location.pathname.split('/')[2]").await.as_str().unwrap().to_owned();
    let room: Value = reqwest::Client::new()
        .get(format!("{}/api/game?roomId={code}", server.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(room["config"], serde_json::json!({"size": 13, "komi": 0.5, "handicap": 2, "ko": "psk"}));
    assert_eq!(
        js(&client, "return document.querySelectorAll('.go-board .pt.stone-1').length").await,
        Value::from(2),
        "two handicap stones"
    );
}
