//! `tabula serve` as a user runs it: the API on one port, rooms kept in a file across restarts.

mod common;

use serde_json::{json, Value};

use common::Server;

#[test]
fn serve_keeps_rooms_across_restarts_and_explains_a_missing_site() {
    let mut server = Server::start("no-site-here".into());
    let http = reqwest::blocking::Client::new();
    let room = "serve-test";
    let home = http.get(&server.base).send().unwrap().text().unwrap();
    assert!(home.contains("not built") && home.contains("/api/game"), "{home}");
    let unknown = http.get(format!("{}/api/nothing", server.base)).send().unwrap();
    assert_eq!(unknown.status(), 404);
    assert_eq!(unknown.json::<Value>().unwrap()["error"]["code"], "not_found");
    let joined: Value = http
        .post(format!("{}/api/game", server.base))
        .json(&json!({"roomId": room, "seat": 1}))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let body = json!({"roomId": room, "token": joined["token"], "version": joined["room"]["version"], "move": [4, 4]});
    let moved = http.put(format!("{}/api/game", server.base)).json(&body).send().unwrap();
    assert_eq!(moved.status(), 200);
    assert!(moved.headers().get("x-ratelimit-limit").is_none(), "no limit unless configured");

    server.stop();
    server.restart();
    let view: Value =
        http.get(format!("{}/api/game", server.base)).query(&[("roomId", room)]).send().unwrap().json().unwrap();
    assert_eq!(view["moves"], json!([{"row": 4, "col": 4}]), "the move survived the restart");
    assert_eq!(view["seats"][0]["taken"], true);
}

/// A link-preview crawler asking for a room gets the room's share card (its tags and its board as
/// a PNG); a browser asking for the same address gets the site's room page.
#[test]
fn crawlers_get_a_rooms_share_card_and_browsers_its_page() {
    let site = std::env::temp_dir().join(format!("tabula-card-site-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    for page in ["index.html", "room.html", "404.html"] {
        std::fs::write(site.join(page), format!("<!doctype html><title>{page}</title>")).unwrap();
    }
    let server = Server::start(site);
    let http = reqwest::blocking::Client::new();
    let room = "card-serve";
    let joined: Value = http
        .post(format!("{}/api/game", server.base))
        .json(&json!({"roomId": room, "seat": 1, "name": "Ann"}))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let token = joined["token"].as_str().unwrap();
    let page = |agent: &str| {
        let response = http.get(format!("{}/room/{room}", server.base)).header("user-agent", agent).send().unwrap();
        assert_eq!(response.status(), 200);
        response.text().unwrap()
    };
    let browser = page("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36");
    assert!(browser.contains("<title>room.html</title>"), "{browser}");
    let crawler = page("Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)");
    assert!(crawler.contains("Ann is waiting for an opponent: POPUCOM three-match chess"), "{crawler}");
    let image = format!("{}/api/card?roomId={room}&amp;v=1", server.base);
    assert!(crawler.contains(&format!(r#"<meta property="og:image" content="{image}">"#)), "{crawler}");
    assert!(!crawler.contains(token), "no token in a card");

    let png = http.get(image.replace("&amp;", "&")).send().unwrap();
    assert_eq!(png.headers()["content-type"], "image/png");
    let png = png.bytes().unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The width and height, in the PNG's header chunk.
    assert_eq!((&png[16..20], &png[20..24]), (&1200u32.to_be_bytes()[..], &630u32.to_be_bytes()[..]));

    let unknown_room =
        http.get(format!("{}/room/no-such-room", server.base)).header("user-agent", "Twitterbot/1.0").send().unwrap();
    assert_eq!(unknown_room.status(), 200, "an unknown room gets the generic card");
    let unknown_room = unknown_room.text().unwrap();
    assert!(unknown_room.contains("<title>Tabula: board games with a friend, online</title>"), "{unknown_room}");
}

/// Every answer (pages, assets, the 404 page, API answers and refusals, a crawler's card) carries
/// the security headers of `vercel.json`'s rule for every path, as the deployment does: no inline
/// script, no framing. Without HSTS (plain HTTP), and with a Realtime configured on this machine
/// allowed in `connect-src`, since the pages open its websocket.
#[test]
fn every_answer_carries_vercel_json_s_security_headers() {
    let vercel: Value = serde_json::from_str(include_str!("../../vercel.json")).unwrap();
    let rule = vercel["headers"].as_array().unwrap().iter().find(|r| r["source"] == "/(.*)").cloned();
    let wanted: Vec<(String, String)> = rule.expect("a headers rule for every path")["headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["key"].as_str().unwrap().to_lowercase(), h["value"].as_str().unwrap().to_owned()))
        .collect();
    let policy = &wanted.iter().find(|(key, _)| key == "content-security-policy").expect("a policy").1;
    assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval';") && policy.contains("frame-ancestors 'none'"));

    let site = std::env::temp_dir().join(format!("tabula-headers-site-{}", std::process::id()));
    std::fs::create_dir_all(site.join("assets")).unwrap();
    for page in ["index.html", "room.html", "404.html"] {
        std::fs::write(site.join(page), format!("<!doctype html><title>{page}</title>")).unwrap();
    }
    std::fs::write(site.join("assets/start-home-0a1b2c3d.js"), "console.log(1)").unwrap();
    let realtime = [("SUPABASE_REALTIME_URL", "http://127.0.0.1:9/realtime/v1"), ("SUPABASE_ANON_KEY", "k")];
    let server = Server::start_with_env(site, &realtime);
    let http = reqwest::blocking::Client::new();
    let crawler = "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)";
    let answers = [
        ("/", http.get(format!("{}/", server.base))),
        ("/room/abc", http.get(format!("{}/room/abc", server.base))),
        ("an asset", http.get(format!("{}/assets/start-home-0a1b2c3d.js", server.base))),
        ("the 404 page", http.get(format!("{}/no/such/page", server.base))),
        ("a room read", http.get(format!("{}/api/game?roomId=nothing-here", server.base))),
        ("a refused write", http.post(format!("{}/api/game", server.base)).body("{")),
        ("the lobby", http.get(format!("{}/api/lobby", server.base))),
        ("a crawler's card", http.get(format!("{}/room/abc", server.base)).header("user-agent", crawler)),
    ];
    for (what, request) in answers {
        let answer = request.send().unwrap();
        let headers = answer.headers();
        for (key, value) in &wanted {
            let sent = headers.get(key.as_str()).map(|v| v.to_str().unwrap().to_owned());
            match key.as_str() {
                "strict-transport-security" => assert_eq!(sent, None, "{what}: no HSTS over plain HTTP"),
                "content-security-policy" => {
                    let local = value.replace(
                        "connect-src 'self' wss://*.supabase.co",
                        "connect-src 'self' wss://*.supabase.co ws://127.0.0.1:9",
                    );
                    assert_ne!(&local, value, "vercel.json's connect-src changed: update this test");
                    assert_eq!(sent.as_ref(), Some(&local), "{what} ({})", answer.status());
                }
                _ => assert_eq!(sent.as_ref(), Some(value), "{what} ({}): {key}", answer.status()),
            }
        }
    }
}
