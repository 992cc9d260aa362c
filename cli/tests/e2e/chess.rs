//! Fairy chess in the browser: games played by clicks (a promotion through the chooser, castling
//! by moving the king), locally and online between two browsers with a watcher, every board checked
//! against the engine's position; the 12 x 12 board on a phone.

use std::collections::BTreeMap;

use fantoccini::Client;
use serde_json::json;
use tabula_core::fairy::pgn::Record;
use tabula_core::fairy::{Chess, ChessConfig, UciMove};
use tabula_core::Game;

use crate::browser::{
    capture_downloads, cdp, click, drag_between, js, open_file, screenshot, settles_to, site_dist, type_move,
    wait_for_app, wait_until, Driver,
};
use crate::common::Server;
use crate::{create_room, exclusive, no_horizontal_overflow, take_seat};

/// The pieces the page shows, by square name: FEN letters, upper case for White.
async fn shown(client: &Client) -> BTreeMap<String, char> {
    let script = "const out = {}; for (const sq of document.querySelectorAll('.chess-board .sq')) { \
            const piece = sq.querySelector('.piece'); if (!piece) continue; \
            const letter = piece.dataset.letter; \
            out[sq.id.replace('square-', '')] = piece.classList.contains('side-1') ? letter.toUpperCase() : letter.toLowerCase(); } \
        return out;";
    let value = js(client, script).await;
    value
        .as_object()
        .expect("an object")
        .iter()
        .map(|(square, letter)| (square.clone(), letter.as_str().unwrap().chars().next().unwrap()))
        .collect()
}

/// The pieces of a FEN by square name (`e4`, `j10`), read independently of the site's code.
fn expected(fen: &str) -> BTreeMap<String, char> {
    let rows: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
    let mut out = BTreeMap::new();
    for (row, text) in rows.iter().enumerate() {
        let rank = rows.len() - row;
        let (mut file, mut digits) = (0u8, 0u8);
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                digits = digits * 10 + d as u8;
                continue;
            }
            file += std::mem::take(&mut digits);
            out.insert(format!("{}{rank}", (b'a' + file) as char), c);
            file += 1;
        }
    }
    out
}

async fn see(client: &Client, game: &Chess, what: &str) {
    let want = expected(&game.fen());
    settles_to(|| shown(client), &want, what).await;
}

/// Plays a UCI move with two clicks (and the chooser's button for a promotion), after checking
/// that the destination lights up once the piece is selected.
async fn play(client: &Client, uci: &str) {
    let digits = |s: &str| s.chars().skip(1).take_while(char::is_ascii_digit).count();
    let from = &uci[..1 + digits(uci)];
    let rest = &uci[from.len()..];
    let to = &rest[..1 + digits(rest)];
    let promotion = &rest[to.len()..];
    click(client, &format!("#square-{from}")).await;
    wait_until(
        client,
        &format!("return document.getElementById('square-{to}').classList.contains('target')"),
        5,
        &format!("{to} lit as a destination of {from}"),
    )
    .await;
    click(client, &format!("#square-{to}")).await;
    if !promotion.is_empty() {
        wait_until(client, "return !!document.querySelector('.promotion')", 5, "the promotion chooser").await;
        click(client, &format!("#promote-{promotion}")).await;
    }
}

fn new_game(variant: &str) -> Chess {
    Chess::new(ChessConfig { variant: variant.into(), ..ChessConfig::default() }).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_game_with_a_promotion_and_castling_shows_the_engines_position() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/chess/local?variant=chess", server.base)).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#new-game").await;
    let mut game = new_game("chess");
    see(&client, &game, "the start").await;
    // e2 selected: its two pushes light up, nothing else.
    click(&client, "#square-e2").await;
    let targets = js(&client, "return [...document.querySelectorAll('.sq.target')].map(s => s.id).sort()").await;
    assert_eq!(targets, json!(["square-e3", "square-e4"]));
    click(&client, "#square-e2").await;
    // The first move by keyboard (WebDriver's Enter, ArrowUp): the focus stays on the board while
    // its squares are drawn again.
    js(&client, "document.getElementById('square-e2').focus(); return true").await;
    let active = "return document.activeElement.id";
    client.active_element().await.unwrap().send_keys("\u{E007}").await.unwrap();
    wait_until(&client, "return document.getElementById('square-e4').classList.contains('target')", 5, "e2 selected")
        .await;
    assert_eq!(js(&client, active).await, json!("square-e2"), "the selected square keeps the focus");
    for _ in 0..2 {
        client.active_element().await.unwrap().send_keys("\u{E013}").await.unwrap();
    }
    wait_until(&client, "return document.activeElement.id === 'square-e4'", 5, "two squares up").await;
    client.active_element().await.unwrap().send_keys("\u{E007}").await.unwrap();
    game.play_unchecked(&UciMove("e2e4".into()));
    see(&client, &game, "e2e4 by keyboard").await;
    assert_eq!(js(&client, active).await, json!("square-e4"), "the focus after the move");
    // b7xa8=Q through the chooser, then both sides castle short.
    let moves = "d7d5 e4d5 c7c6 d5c6 g8f6 c6b7 c8d7 b7a8q e7e6 g1f3 f8e7 f1c4 e8g8 e1g1";
    for (index, uci) in moves.split(' ').enumerate() {
        play(&client, uci).await;
        game.check(&UciMove(uci.into())).unwrap();
        game.play_unchecked(&UciMove(uci.into()));
        see(&client, &game, &format!("after move {index}: {uci}")).await;
    }
    // The last move's squares are marked.
    let last = js(&client, "return [...document.querySelectorAll('.sq.last')].map(s => s.id).sort()").await;
    assert_eq!(last, json!(["square-e1", "square-g1"]));
    screenshot(&client, "chess-local").await;

    // A tap that is no move is refused with the engine's reason, and changes nothing.
    let before = shown(&client).await;
    click(&client, "#square-a8").await;
    click(&client, "#square-a1").await;
    wait_until(
        &client,
        "return document.getElementById('notice')?.textContent.includes('not a legal move')",
        5,
        "the refusal",
    )
    .await;
    assert_eq!(shown(&client).await, before, "a refused move changes nothing");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_capablanca_game_looks_the_same_to_both_players_and_a_watcher() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "chess", json!({"variant": "capablanca"})).await;
    let (white, black, watcher) = (driver.browser().await, driver.browser().await, driver.browser().await);
    take_seat(&white, &server, &room, 1).await;
    take_seat(&black, &server, &room, 2).await;
    watcher.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&watcher, "return !!document.querySelector('.chess-board')", 10, "the watcher's board").await;
    let mut game = new_game("capablanca");
    for client in [&white, &black, &watcher] {
        see(client, &game, "the start").await;
    }
    // Black sees the board from its side (its first rank at the bottom), once its seat is known.
    wait_until(
        &black,
        "return document.querySelector('.chess-board .sq').id === 'square-j1'",
        10,
        "black's board turned",
    )
    .await;
    let corner = js(&white, "return document.querySelector('.chess-board .sq').id").await;
    assert_eq!(corner, json!("square-a8"), "white's board is not turned");

    // Knights, chancellors and bishops out of the way, then both kings castle to the i-file.
    let moves = "i1j3 i8j6 h1i3 h8i6 h2h3 h7h6 g1h2 g8h7 f1i1 f8i8";
    for (index, uci) in moves.split(' ').enumerate() {
        let mover = if index % 2 == 0 { &white } else { &black };
        wait_until(
            mover,
            "return document.getElementById('role')?.textContent === 'Your turn'",
            10,
            "the mover's turn",
        )
        .await;
        play(mover, uci).await;
        game.check(&UciMove(uci.into())).unwrap();
        game.play_unchecked(&UciMove(uci.into()));
        for (who, client) in [("white", &white), ("black", &black), ("watcher", &watcher)] {
            see(client, &game, &format!("{who} after move {index}: {uci}")).await;
        }
    }
    let king = expected(&game.fen());
    assert_eq!((king.get("i1"), king.get("h1")), (Some(&'K'), Some(&'R')), "white castled");
    // The watcher's move list is in SAN, and its "Download PGN" is the server's record of the room.
    let list = move_list(&watcher).await;
    assert_eq!((list.first().map(String::as_str), list.last().map(String::as_str)), (Some("1. Nj3"), Some("10. O-O")));
    let pgn = js(&watcher, "return fetch(document.getElementById('download-pgn').href).then(r => r.text())").await;
    let record = Record::from_pgn(pgn.as_str().unwrap()).unwrap_or_else(|e| panic!("{e}: {pgn}"));
    let played: Vec<UciMove> = moves.split(' ').map(|m| UciMove(m.into())).collect();
    assert_eq!((record.config.variant.as_str(), record.moves), ("capablanca", played));
    screenshot(&watcher, "chess-online-watcher").await;
    for client in [white, black, watcher] {
        client.close().await.unwrap();
    }
}

/// Chooses the "Custom" variant on the chess page and waits for its definition box.
async fn choose_custom(client: &Client) {
    let choose = "const s = document.getElementById('option-variant'); s.value = 'custom'; \
        s.dispatchEvent(new Event('change')); return 1";
    js(client, choose).await;
    wait_until(client, "return !!document.getElementById('chess-definition')", 5, "the definition box").await;
}

/// Sets the custom variant's definition box as if typed, and returns its new text.
async fn edit_definition(client: &Client, edit: &str) -> String {
    let script = format!(
        "const t = document.getElementById('chess-definition'); t.value = ({edit})(t.value); \
         t.dispatchEvent(new Event('input')); return t.value"
    );
    js(client, &script).await.as_str().unwrap().to_owned()
}

/// A custom variant begun from the griffin (a tree piece: a diagonal step, then rook rides) on the
/// chess page, renamed, refused while broken, then played online: a promotion to the griffin and
/// a castling, with every board equal to the engine's and the room keeping its definition.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_griffin_variant_is_written_on_the_page_and_played_online_with_a_watcher() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let (white, black, watcher) = (driver.browser().await, driver.browser().await, driver.browser().await);
    white.goto(&format!("{}/chess", server.base)).await.unwrap();
    wait_for_app(&white).await;
    choose_custom(&white).await;
    js(&white, "const s = document.getElementById('chess-start-from'); s.value = 'griffin-seed'; s.dispatchEvent(new Event('change')); return 1").await;
    let heading = "return document.querySelector('#variant-card h2')?.textContent";
    wait_until(&white, &format!("{heading} === 'my-griffin-seed · 8 × 8'"), 5, "the copy of griffin-seed").await;

    // Broken, it is refused with the field at fault, and no room can be made of it.
    edit_definition(&white, r#"v => v.replace('"promotion": [', '"promotion": ["Z", ')"#).await;
    let message = "return document.getElementById('options-message').textContent";
    wait_until(&white, &format!("{message}.includes('definition.promotion[0]: no piece')"), 5, "the refusal").await;
    assert_eq!(js(&white, "return document.getElementById('create-room').disabled").await, json!(true));
    edit_definition(&white, r#"v => v.replace('"Z", ', '')"#).await;
    let text = edit_definition(&white, r#"v => v.replace('"my-griffin-seed"', '"e2e-griffin"')"#).await;
    wait_until(&white, &format!("{heading} === 'e2e-griffin · 8 × 8'"), 5, "the renamed variant").await;
    assert_eq!(js(&white, message).await, json!(""), "nothing refused: {text}");
    let card = js(&white, "return document.getElementById('variant-card').textContent").await;
    assert!(card.as_str().unwrap().contains("its first diagonal step cannot capture"), "its description: {card}");
    screenshot(&white, "chess-custom-variant").await;

    click(&white, "#create-room").await;
    wait_until(&white, "return location.pathname.startsWith('/room/')", 10, "the new room").await;
    let room = js(&white, "return location.pathname.split('/')[2]").await.as_str().unwrap().to_owned();
    let definition: serde_json::Value = serde_json::from_str(&text).unwrap();
    let config = ChessConfig { variant: "e2e-griffin".into(), definition: Some(definition), ..ChessConfig::default() };
    let mut game = Chess::new(config).unwrap();
    take_seat(&white, &server, &room, 1).await;
    take_seat(&black, &server, &room, 2).await;
    watcher.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    for client in [&white, &black, &watcher] {
        see(client, &game, "the start").await;
    }
    // White's g-pawn runs to h7, White castles short, and the pawn takes on g8 to become a griffin.
    let moves = "g2g4 a7a6 g4g5 a6a5 g5g6 a5a4 g6h7 a4a3 g1f3 a3b2 f1g2 b7b6 e1g1 b6b5 h7g8g";
    let mut fens = vec![game.fen()];
    for (index, uci) in moves.split(' ').enumerate() {
        let mover = if index % 2 == 0 { &white } else { &black };
        wait_until(mover, "return document.getElementById('role')?.textContent === 'Your turn'", 10, "the turn").await;
        play(mover, uci).await;
        game.check(&UciMove(uci.into())).unwrap();
        game.play_unchecked(&UciMove(uci.into()));
        fens.push(game.fen());
        for (who, client) in [("white", &white), ("black", &black), ("watcher", &watcher)] {
            see(client, &game, &format!("{who} after move {index}: {uci}")).await;
        }
    }
    let end = expected(&game.fen());
    assert_eq!((end.get("g1"), end.get("f1"), end.get("g8")), (Some(&'K'), Some(&'R'), Some(&'G')));
    let view: serde_json::Value =
        reqwest::get(format!("{}/api/game?roomId={room}", server.base)).await.unwrap().json().await.unwrap();
    assert_eq!(view["config"]["variant"], "e2e-griffin");
    assert_eq!(view["config"]["definition"]["name"], "e2e-griffin", "the room keeps the definition it was made with");
    assert_eq!(view["state"]["fen"], json!(game.fen()));
    // "Copy FEN" in a room copies the shown position's, also of a step being replayed.
    let clipboard = "window.__copied = []; \
        navigator.clipboard.writeText = text => { window.__copied.push(text); return Promise.resolve(); }; return true";
    js(&watcher, clipboard).await;
    let label = js(&watcher, "return document.getElementById('copy-fen').textContent").await;
    assert_eq!(label, json!("Copy FEN"), "the button's words, not its message id");
    click(&watcher, "#copy-fen").await;
    click(&watcher, ".moves li:nth-child(3) button").await;
    click(&watcher, "#copy-fen").await;
    let copied = js(&watcher, "return window.__copied").await;
    assert_eq!(copied, json!([game.fen(), fens[3]]), "the FEN of the live position, then of step 3");
    screenshot(&watcher, "chess-custom-online-watcher").await;
    for client in [white, black, watcher] {
        client.close().await.unwrap();
    }
}

/// The move list's entries.
async fn move_list(client: &Client) -> Vec<String> {
    let texts = js(client, "return [...document.querySelectorAll('.moves li')].map(li => li.textContent.trim())").await;
    serde_json::from_value(texts).unwrap()
}

async fn fen_shown(client: &Client) -> String {
    js(client, "return document.getElementById('fen').value").await.as_str().unwrap().to_owned()
}

/// Puts `text` in the paste box and loads it.
async fn paste(client: &Client, text: &str) {
    let script = format!(
        "const box = document.getElementById('paste-record'); box.value = {text:?}; \
         box.dispatchEvent(new Event('input', {{bubbles: true}})); return true"
    );
    js(client, &script).await;
    click(client, "#load-pasted").await;
}

async fn notice_says(client: &Client, want: &str) {
    let script = format!("return document.getElementById('notice')?.textContent.includes({want:?})");
    wait_until(client, &script, 5, want).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_are_typed_and_listed_in_san_and_records_go_out_as_pgn_and_come_in_as_pgn_or_fen() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/chess/local?variant=capablanca", server.base)).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#new-game").await;
    let mut game = new_game("capablanca");
    let mut fens = vec![game.fen()];
    let mut sans = Vec::new();
    // Typed in SAN, in UCI, and with castling written with zeros: the king goes from f1 to i1.
    let typed = ["Nj3", "e5", "h1i3", "i6", "h3", "Nh6", "Bh2", "Nc6", "0-0"];
    for (index, text) in typed.iter().enumerate() {
        type_move(&client, text).await;
        let mv = game.read_move(text).unwrap_or_else(|| panic!("{text} is legal"));
        sans.push(format!("{}. {}", index + 1, game.san(&mv).unwrap()));
        game.play(&mv).unwrap();
        fens.push(game.fen());
        wait_until(
            &client,
            &format!("return document.querySelectorAll('.moves li').length === {}", index + 1),
            5,
            text,
        )
        .await;
    }
    see(&client, &game, "after the typed moves").await;
    assert_eq!(move_list(&client).await, sans, "the move list is the engine's SAN");
    assert_eq!(sans.last().map(String::as_str), Some("9. O-O"));
    assert_eq!(fen_shown(&client).await, game.fen());
    // Stepping back shows that step's FEN.
    click(&client, ".moves li:nth-child(2) button").await;
    settles_to(|| fen_shown(&client), &fens[2], "the FEN of step 2").await;
    click(&client, ".moves li:nth-child(9) button").await;

    // The downloaded PGN reads back to the same moves.
    capture_downloads(&client).await;
    click(&client, "#download-pgn").await;
    wait_until(&client, "return window.__downloads.length === 1", 5, "the PGN download").await;
    let download = js(&client, "return window.__downloads[0]").await;
    assert_eq!(download[0], "tabula-chess.pgn");
    let pgn = download[1].as_str().unwrap();
    let record = Record::from_pgn(pgn).unwrap_or_else(|e| panic!("{e}: {pgn}"));
    assert_eq!((record.config.variant.as_str(), record.moves.len()), ("capablanca", typed.len()), "{pgn}");
    assert!(pgn.contains("[Variant \"capablanca\"]") && pgn.contains("[Result \"*\"]"), "{pgn}");

    // A FEN pasted starts a game from it, in the variant being played.
    let fen = "r4k3r/1P8/10/10/10/10/10/R4K3R w KQkq - 0 1";
    paste(&client, fen).await;
    let mut pasted =
        Chess::new(ChessConfig { variant: "capablanca".into(), fen: Some(fen.into()), ..ChessConfig::default() })
            .unwrap();
    see(&client, &pasted, "the pasted FEN").await;
    assert_eq!(move_list(&client).await, Vec::<String>::new());
    type_move(&client, "bxa8=Q").await;
    pasted.play(&UciMove("b7a8q".into())).unwrap();
    see(&client, &pasted, "a promotion typed in SAN").await;
    assert_eq!(move_list(&client).await, ["1. bxa8=Q+"]);
    // A PGN file opens as a game to step through; a bad one is explained.
    open_file(&client, "open-pgn", "game.pgn", "[Variant \"chess\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")
        .await;
    notice_says(&client, "Game loaded: 7 moves").await;
    let mut mate = new_game("chess");
    for mv in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
        mate.play(&UciMove(mv.into())).unwrap();
    }
    see(&client, &mate, "the opened PGN").await;
    assert_eq!(move_list(&client).await.last().map(String::as_str), Some("7. Qxf7#"));
    paste(&client, "1. e4 e5 2. Ke3").await;
    notice_says(&client, "Move 3 (Ke3) is illegal here.").await;
    see(&client, &mate, "a refused paste changes nothing").await;
    client.close().await.unwrap();
}

/// Drags the piece on `from` to `to` through the browser's own input (DevTools), by mouse or by
/// touch, in a few steps.
async fn drag(client: &Client, from: &str, to: &str, touch: bool) {
    js(client, "document.querySelector('.chess-board').scrollIntoView({ block: 'center' }); return 1").await;
    let centre = |square: &str| {
        format!("const r = document.getElementById('square-{square}').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];")
    };
    let (a, b) = (js(client, &centre(from)).await, js(client, &centre(to)).await);
    let point = |v: &serde_json::Value| (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    drag_between(client, point(&a), point(&b), touch).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pieces_are_drawn_and_move_by_drag_and_drop_with_a_mouse_or_a_finger() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/chess/local?variant=capablanca", server.base)).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#new-game").await;
    let mut game = new_game("capablanca");
    see(&client, &game, "the start").await;
    // Every piece is a drawing, and the drawings have loaded (a shape has a size).
    let drawn = "const pieces = [...document.querySelectorAll('.chess-board .piece')]; \
        return pieces.length === 40 && pieces.every(p => p.matches('svg.figure') && p.querySelector('use').getBBox().width > 10);";
    wait_until(&client, drawn, 10, "40 drawn pieces").await;
    let names = js(&client, "return [...new Set([...document.querySelectorAll('.chess-board use')].map(u => u.getAttribute('href').split('#')[1]))].sort()").await;
    let want = json!(["archbishop", "bishop", "chancellor", "king", "knight", "pawn", "queen", "rook"]);
    assert_eq!(names, want, "the figures of capablanca's pieces");
    screenshot(&client, "chess-figures").await;

    // Mouse, finger, then click-click: each plays its move.
    cdp(&client, "Emulation.setTouchEmulationEnabled", json!({"enabled": true, "maxTouchPoints": 1})).await;
    for (uci, how) in [("e2e4", "mouse"), ("e7e5", "touch"), ("b1c3", "clicks"), ("c8d6", "mouse")] {
        match how {
            "clicks" => play(&client, uci).await,
            _ => drag(&client, &uci[..2], &uci[2..], how == "touch").await,
        }
        game.check(&UciMove(uci.into())).unwrap();
        game.play_unchecked(&UciMove(uci.into()));
        see(&client, &game, &format!("{uci} by {how}")).await;
    }
    // A drop where the piece cannot go is refused; the piece is back on its square.
    let before = shown(&client).await;
    drag(&client, "a1", "a5", false).await;
    notice_says(&client, "not a legal move").await;
    assert_eq!(shown(&client).await, before);
    let lifted = js(&client, "return document.querySelectorAll('.chess-board .sq[style]').length").await;
    assert_eq!(lifted, json!(0), "no piece left lifted");
    // A press whose release is missed (let go off the board before moving far): hovering the board
    // afterwards lifts nothing.
    let a2 = js(&client, "const r = document.getElementById('square-a2').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];").await;
    let (x, y) = (a2[0].as_f64().unwrap(), a2[1].as_f64().unwrap());
    let mouse = |kind: &str, x: f64, y: f64, buttons: u8| json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1});
    cdp(&client, "Input.dispatchMouseEvent", mouse("mousePressed", x, y, 1)).await;
    cdp(&client, "Input.dispatchMouseEvent", mouse("mouseMoved", x + 3.0, y, 1)).await;
    cdp(&client, "Input.dispatchMouseEvent", mouse("mouseReleased", x + 3.0, y + 400.0, 0)).await;
    for step in 1..=4 {
        cdp(
            &client,
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x + 20.0 * step as f64, "y": y - 30.0, "buttons": 0}),
        )
        .await;
    }
    let lifted = js(&client, "return document.querySelectorAll('.chess-board .sq[style]').length").await;
    assert_eq!(lifted, json!(0), "no piece follows a pointer without a button");
    // A plain click after a drag is a tap again: it selects.
    click(&client, "#square-a1").await;
    wait_until(&client, "return document.getElementById('square-a1').classList.contains('selected')", 5, "a1 selected")
        .await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chess_page_explains_the_chosen_variant_and_draws_where_each_piece_goes() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/chess", server.base)).await.unwrap();
    wait_for_app(&client).await;
    let heading = "return document.querySelector('#variant-card h2')?.textContent";
    assert_eq!(js(&client, heading).await, json!("chess · 8 × 8"));
    // Choosing a variant changes the card: its description, its start, its eight kinds of piece.
    js(&client, "const s = document.getElementById('option-variant'); s.value = 'capablanca'; s.dispatchEvent(new Event('change')); return 1").await;
    wait_until(&client, &format!("{heading} === 'capablanca · 10 × 8'"), 5, "the capablanca card").await;
    let text = js(&client, "return document.getElementById('variant-card').textContent").await;
    let text = text.as_str().unwrap();
    assert!(text.contains("archbishop (bishop and knight)"), "{text}");
    for name in ["Archbishop (A)", "Chancellor (C)", "Knight (N)", "Pawn (P)"] {
        assert!(text.contains(name), "{name} in {text}");
    }
    let pieces = js(&client, "return document.querySelectorAll('#variant-card .reach.start .piece').length").await;
    assert_eq!(pieces, json!(40), "the start position's pieces");
    // The knight stands in the middle of the empty board: its eight leaps, each a move or a capture.
    let knight = "const li = [...document.querySelectorAll('.piece-moves li')].find(l => l.textContent.includes('(N)')); \
        return [li.querySelectorAll('.reach .to-move.to-capture').length, li.querySelectorAll('.reach [class*=to-]').length]";
    assert_eq!(js(&client, knight).await, json!([8, 8]));
    // The rook's lines from e4 on 10 x 8: 9 squares along the rank, 7 along the file.
    let rook = knight.replace("'(N)'", "'(R)'");
    assert_eq!(js(&client, &rook).await, json!([16, 16]));
    screenshot(&client, "chess-variant-card").await;
    js(&client, "document.querySelector('.piece-moves').scrollIntoView(); return 1").await;
    screenshot(&client, "chess-variant-pieces").await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_twelve_by_twelve_board_fits_a_phone() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/chess/local?variant=big12", server.base)).await.unwrap();
    wait_for_app(&client).await;
    wait_until(&client, "return !!document.getElementById('square-l12')", 10, "the 12 x 12 board").await;
    no_horizontal_overflow(&client, "/chess/local?variant=big12").await;
    let width = js(&client, "return document.getElementById('square-a1').getBoundingClientRect().width").await;
    let width = width.as_f64().unwrap();
    assert!(width >= 24.0, "a square is {width} px wide at 375 px");
    let inside =
        js(&client, "return document.getElementById('square-l1').getBoundingClientRect().right <= innerWidth").await;
    assert_eq!(inside, json!(true), "the last file is on screen");
    screenshot(&client, "chess-phone-big12").await;
    client.close().await.unwrap();
}

/// The board's own furniture: coordinates on both edges, the flip button turning the board and its
/// labels, the king in check marked, en passant played by clicks, and a pasted Chess960 position
/// castled by taking one's own rook with the king.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_is_labelled_flips_marks_check_and_plays_en_passant_and_chess960_castling() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/chess/local?variant=chess", server.base)).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#new-game").await;
    let labels =
        "return [[...document.querySelectorAll('.chess-frame .files .coord')].map(c => c.textContent).join(''), \
        [...document.querySelectorAll('.chess-frame .ranks .coord')].map(c => c.textContent).join('')]";
    let first_square = "return document.querySelector('.chess-board .sq').id";
    assert_eq!(js(&client, labels).await, json!(["abcdefgh", "87654321"]));
    assert_eq!(js(&client, first_square).await, json!("square-a8"));
    click(&client, "#flip").await;
    assert_eq!(js(&client, labels).await, json!(["hgfedcba", "12345678"]), "turned, the labels run the other way");
    assert_eq!(js(&client, first_square).await, json!("square-h1"), "Black's side at the bottom");
    click(&client, "#flip").await;
    assert_eq!(js(&client, first_square).await, json!("square-a8"));

    // e5xd6 en passant takes the pawn that passed, then Bb5+ checks the king through d7.
    let mut game = new_game("chess");
    let checks = "return [...document.querySelectorAll('.chess-board .sq.check')].map(s => s.id)";
    for uci in "e2e4 a7a6 e4e5 d7d5 e5d6 a6a5 f1b5".split(' ') {
        assert_eq!(js(&client, checks).await, json!([]), "no check before {uci}");
        play(&client, uci).await;
        game.play(&UciMove(uci.into())).unwrap();
        see(&client, &game, uci).await;
    }
    assert!(!shown(&client).await.contains_key("d5"), "the pawn taken en passant is gone");
    wait_until(&client, &format!("{checks}.join() === 'square-e8'"), 5, "the king in check marked").await;
    screenshot(&client, "chess-check").await;

    // Chess960 (an X-FEN: castling rights with the kings on b): the king takes its own rook.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    paste(&client, fen).await;
    let config = ChessConfig { fen: Some(fen.into()), chess960: true, ..ChessConfig::default() };
    let mut chess960 = Chess::new(config).unwrap();
    see(&client, &chess960, "the pasted Chess960 position").await;
    play(&client, "b1h1").await;
    chess960.play(&UciMove("b1h1".into())).unwrap();
    see(&client, &chess960, "castled king-takes-rook").await;
    let end = expected(&chess960.fen());
    assert_eq!((end.get("g1"), end.get("f1")), (Some(&'K'), Some(&'R')), "{}", chess960.fen());
    assert_eq!(move_list(&client).await, ["1. O-O"]);
    client.close().await.unwrap();
}

/// A variant written on the page with a piece no drawing shows: the card and the board show it as
/// its letter in a disc, and it is played in a local game by its own moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_piece_without_a_drawing_is_a_letter_in_a_disc_and_plays_locally() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/chess", server.base)).await.unwrap();
    wait_for_app(&client).await;
    choose_custom(&client).await;
    // Q leaps (2,1) like a knight and (3,3): no drawing has those moves.
    let definition = json!({
        "name": "e2e-leapers", "board": [6, 6], "castling": false, "promotion": ["N"],
        "start": "k1n3/6/6/6/6/3Q1K w - - 0 1",
        "pieces": {
            "K": {"moves": [{"move": {"type": "leaper", "direction": [1, 1]}}, {"move": {"type": "leaper", "direction": [1, 0]}}], "expandMoves": "X", "royal": true},
            "N": {"moves": [{"move": {"type": "leaper", "direction": [2, 1]}}], "expandMoves": "X"},
            "Q": {"moves": [{"move": {"type": "leaper", "direction": [2, 1]}}, {"move": {"type": "leaper", "direction": [3, 3]}}], "expandMoves": "X"}
        }
    });
    edit_definition(&client, &format!("_ => {:?}", definition.to_string())).await;
    let heading = "return document.querySelector('#variant-card h2')?.textContent";
    wait_until(&client, &format!("{heading} === 'e2e-leapers · 6 × 6'"), 5, "the new variant's card").await;
    let message = js(&client, "return document.getElementById('options-message').textContent").await;
    assert_eq!(message, json!(""), "the definition is accepted");
    let discs =
        "return [...document.querySelectorAll('#variant-card .piece-moves span.piece')].map(p => p.textContent)";
    assert_eq!(js(&client, discs).await, json!(["Q"]), "only the new piece is a letter in the card");

    click(&client, "#play-local").await;
    wait_until(&client, "return !!document.getElementById('square-d1')", 10, "the local game").await;
    let config = ChessConfig { variant: "e2e-leapers".into(), definition: Some(definition), ..ChessConfig::default() };
    let mut game = Chess::new(config).unwrap();
    see(&client, &game, "the start").await;
    let piece = "const p = document.querySelector('#square-d1 .piece'); \
        return [p.tagName, p.textContent, getComputedStyle(p).borderRadius, p.getBoundingClientRect().width > 10]";
    assert_eq!(js(&client, piece).await, json!(["SPAN", "Q", "50%", true]), "a letter in a disc");
    let drawn = "return document.querySelector('#square-f1 .piece').tagName.toLowerCase()";
    assert_eq!(js(&client, drawn).await, json!("svg"), "the king is drawn");
    // The (3,3) leap, which only the new piece has; then a knight reply.
    for uci in ["d1a4", "c6b4"] {
        play(&client, uci).await;
        game.play(&UciMove(uci.into())).unwrap();
        see(&client, &game, uci).await;
    }
    screenshot(&client, "chess-custom-piece").await;
    client.close().await.unwrap();
}

/// A takeback in a chess room, asked by White after Black's reply and accepted: both moves go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_takeback_is_asked_and_accepted_between_two_browsers() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "chess", json!({"variant": "chess"})).await;
    let (white, black) = (driver.browser().await, driver.browser().await);
    take_seat(&white, &server, &room, 1).await;
    take_seat(&black, &server, &room, 2).await;
    let mut game = new_game("chess");
    for (mover, uci) in [(&white, "e2e4"), (&black, "c7c5"), (&white, "g1f3"), (&black, "d7d6")] {
        wait_until(mover, "return document.getElementById('role')?.textContent === 'Your turn'", 10, "the turn").await;
        play(mover, uci).await;
        game.play(&UciMove(uci.into())).unwrap();
        for client in [&white, &black] {
            see(client, &game, uci).await;
        }
    }
    wait_until(&white, "return document.getElementById('role')?.textContent === 'Your turn'", 10, "white's turn").await;
    click(&white, "#takeback").await;
    wait_until(&black, "return !!document.getElementById('accept-takeback')?.checkVisibility()", 10, "the request")
        .await;
    click(&black, "#accept-takeback").await;
    // White's last move and Black's reply go: White is to move again after 1. e4 c5.
    let mut expected_game = new_game("chess");
    for uci in ["e2e4", "c7c5"] {
        expected_game.play(&UciMove(uci.into())).unwrap();
    }
    for client in [&white, &black] {
        see(client, &expected_game, "after the takeback").await;
        assert_eq!(move_list(client).await, ["1. e4", "2. c5"]);
    }
    wait_until(&white, "return document.getElementById('role')?.textContent === 'Your turn'", 10, "white to move")
        .await;
    for client in [white, black] {
        client.close().await.unwrap();
    }
}
