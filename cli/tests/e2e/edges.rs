//! Edges & Blocks in the browser: reference games (`shared/vectors/edges-public.jsonl`) replayed
//! through clicks, locally and online between two browsers with a watcher, every board checked
//! against the vector's step; illegal taps refused with the reason and nothing sent; the phone fit.

use std::path::PathBuf;

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{cdp, click, js, screenshot, settles_to, site_dist, text, wait_for_app, wait_until, Driver};
use crate::common::Server;
use crate::{create_room, exclusive, no_horizontal_overflow, take_seat};

/// A reference game: its actions and the state after each.
struct Reference {
    actions: Vec<Value>,
    steps: Vec<Value>,
}

fn reference(index: usize) -> Reference {
    let shared = std::env::var_os("TABULA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let text = std::fs::read_to_string(shared.join("vectors/edges-public.jsonl")).expect("reference vectors");
    let record: Value = serde_json::from_str(text.lines().nth(index).expect("the game")).unwrap();
    Reference {
        actions: record["actions"].as_array().unwrap().clone(),
        steps: record["steps"].as_array().unwrap().clone(),
    }
}

/// The board as the page shows it, in the vectors' alphabet: every edge's colour, every cell's
/// owner (`.`, `0` black, `1` red) and the two supplies.
async fn shown(client: &Client) -> Value {
    let script = "const code = (e, kind) => { for (const [c, s] of [['1', '0'], ['2', '1']]) \
            if (e.classList.contains(kind + '-' + c)) return s; return '.'; }; \
        const edges = [...document.querySelectorAll('.edges-board button.edge')]; \
        const blocks = [...document.querySelectorAll('.edges-board .block:not(.step)')]; \
        const supply = (n) => Number(document.getElementById('supply-' + n)?.dataset.supply); \
        return { edges: edges.map(e => code(e, 'colour')).join(''), cells: blocks.map(b => code(b, 'owner')).join(''), \
            supply: [supply(1), supply(2)] }";
    js(client, script).await
}

fn expected(step: &Value) -> Value {
    json!({"edges": step["edges"], "cells": step["cells"], "supply": step["supply"]})
}

async fn see(client: &Client, step: &Value, what: &str) {
    let want = expected(step);
    settles_to(|| shown(client), &want, what).await;
}

/// Plays one reference action with clicks: an edge to place, or one of yours then where it goes.
async fn act(client: &Client, action: &Value) {
    match action["type"].as_str().unwrap() {
        "place" => click(client, &format!("#edge-{}", action["edge"])).await,
        "move" => {
            click(client, &format!("#edge-{}", action["from"])).await;
            wait_until(
                client,
                &format!("return document.getElementById('edge-{}').classList.contains('target')", action["to"]),
                5,
                "the destinations",
            )
            .await;
            click(client, &format!("#edge-{}", action["to"])).await;
        }
        _ => click(client, "#pass").await,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reference_game_replayed_by_clicks_on_one_device_shows_every_recorded_state() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/edges/local", server.base)).await.unwrap();
    wait_for_app(&client).await;
    // Seed 92: 84 actions with moves, passes, chains and two priority steps; red wins.
    let game = reference(91);
    let mut animated = 0;
    for (index, (action, step)) in game.actions.iter().zip(&game.steps).enumerate() {
        act(&client, action).await;
        see(&client, step, &format!("after action {index}: {action}")).await;
        // What the engine did is animated step by step, and said in one line.
        let ev = step["ev"].as_array().unwrap();
        if ev[0].as_u64() > Some(0) {
            let changed = js(&client, "return document.querySelectorAll('.edges-board .step.block').length").await;
            assert!(changed.as_u64() > Some(0), "action {index} captured: its cells animate");
            let line = text(&client, "#happened").await;
            assert!(line.contains("captured"), "action {index}: {line}");
            animated += 1;
        }
    }
    assert!(animated > 3, "{animated} actions captured cells");
    let last = game.steps.last().unwrap();
    assert_eq!(last["result"], 1, "red won this reference game");
    wait_until(
        &client,
        "return document.querySelector('.turn.result')?.textContent.startsWith('Red wins')",
        5,
        "the result",
    )
    .await;
    screenshot(&client, "edges-local-end").await;

    // Takeback on one device is unlimited: two back, then the state two steps before.
    for _ in 0..2 {
        click(&client, "#takeback").await;
    }
    see(&client, &game.steps[game.steps.len() - 3], "two actions taken back").await;

    // A place with no supply left is refused with the reason, and nothing changes.
    client.goto(&format!("{}/edges/local?size=8&cells_to_win=5&supply.0=1&supply.1=1", server.base)).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#new-game").await;
    click(&client, "#edge-0").await;
    click(&client, "#edge-70").await;
    let before = shown(&client).await;
    click(&client, "#edge-20").await;
    wait_until(
        &client,
        "return document.getElementById('notice').textContent.includes('no edges left')",
        5,
        "the no-supply refusal",
    )
    .await;
    assert_eq!(shown(&client).await, before, "a refused place changes nothing");
    client.close().await.unwrap();
}

/// The room's version as the API has it.
async fn version(server: &Server, room: &str) -> u64 {
    let answer: Value =
        reqwest::get(format!("{}/api/game?roomId={room}", server.base)).await.unwrap().json().await.unwrap();
    answer["version"].as_u64().unwrap()
}

async fn refused(client: &Client, server: &Server, room: &str, tap: &str, reason: &str) {
    let version_before = version(server, room).await;
    let board_before = shown(client).await;
    click(client, tap).await;
    wait_until(
        client,
        &format!("return document.getElementById('notice')?.textContent.includes({reason:?})"),
        5,
        &format!("{tap} refused: {reason}"),
    )
    .await;
    assert_eq!(version(server, room).await, version_before, "{tap}: nothing was sent");
    assert_eq!(shown(client).await, board_before, "{tap}: the board did not change");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_reference_game_looks_the_same_to_both_players_and_a_watcher() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "edges", json!({})).await;
    let (black, red, watcher) = (driver.browser().await, driver.browser().await, driver.browser().await);
    take_seat(&black, &server, &room, 1).await;
    take_seat(&red, &server, &room, 2).await;
    watcher.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&watcher, "return !!document.querySelector('.edges-board')", 10, "the watcher's board").await;
    wait_until(&black, "return document.getElementById('role')?.textContent === 'Your turn'", 10, "black's turn").await;

    // Taps that are no actions send nothing and say why.
    refused(&red, &server, &room, "#edge-5", "not your turn").await;
    refused(&watcher, &server, &room, "#edge-5", "watching").await;

    // Seed 151: 44 actions, a priority step, red wins.
    let game = reference(150);
    for (index, (action, step)) in game.actions.iter().zip(&game.steps).enumerate() {
        let player = action["player"].as_u64().unwrap();
        let (mover, other) = if player == 0 { (&black, &red) } else { (&red, &black) };
        wait_until(
            mover,
            "return document.getElementById('role')?.textContent === 'Your turn'",
            10,
            "the mover's turn",
        )
        .await;
        if index == 1 {
            // Red taps black's first edge, then (having none of its own yet) nothing else.
            let theirs = format!("#edge-{}", game.actions[0]["edge"]);
            refused(mover, &server, &room, &theirs, "not yours to move").await;
        }
        act(mover, action).await;
        for (who, client) in [("mover", mover), ("other", other), ("watcher", &watcher)] {
            see(client, step, &format!("{who} after action {index}: {action}")).await;
        }
        if index == 3 {
            // The side to move selects one of its edges and taps a far empty edge: not next to it.
            let (next, own_colour) = if player == 0 { (&red, b'1') } else { (&black, b'0') };
            let edges = step["edges"].as_str().unwrap().as_bytes();
            let own = (0..128).find(|&e| edges[e] == own_colour).expect("an edge of the side to move");
            let torus = tabula_core::edges::Torus::new(8);
            let far = (0..128).find(|&e| edges[e] == b'.' && !torus.adjacent(own).contains(&e)).unwrap();
            click(next, &format!("#edge-{own}")).await;
            refused(next, &server, &room, &format!("#edge-{far}"), "next to it").await;
        }
    }
    for client in [&black, &red, &watcher] {
        wait_until(
            client,
            "return document.querySelector('.turn.result')?.textContent.startsWith('Red wins')",
            10,
            "the result",
        )
        .await;
    }
    screenshot(&watcher, "edges-online-watcher").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_fits_a_phone_and_its_edges_are_big_enough_to_tap() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    for width in [375, 320] {
        client.set_window_size(width, 700).await.unwrap();
        client.goto(&format!("{}/edges/local", server.base)).await.unwrap();
        wait_for_app(&client).await;
        no_horizontal_overflow(&client, &format!("the local game at {width} px")).await;
        let board = js(&client, "return document.querySelector('.edges-board').getBoundingClientRect().right").await;
        assert!(board.as_f64().unwrap() <= width as f64, "the board is inside the screen at {width} px");
        if width == 375 {
            // Each edge's target spans a cell pitch both ways (the diamond between its two cells).
            let sizes = js(
                &client,
                "return [...document.querySelectorAll('.edges-board button.edge')].map(e => { \
                const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })",
            )
            .await;
            let smallest = sizes.as_array().unwrap().iter().map(|s| s.as_f64().unwrap()).fold(f64::MAX, f64::min);
            assert!(smallest >= 40.0, "the smallest edge target is {smallest} px at 375 px");
            // A tap where the bars are not drawn, inside an edge's diamond, still reaches that edge.
            let hit = js(
                &client,
                "const r = document.getElementById('edge-27').getBoundingClientRect(); \
                const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height * 0.3); return e && e.id",
            )
            .await;
            assert_eq!(hit, json!("edge-27"));
            // The far border repeats the near border's edges, and they act the same.
            click(&client, "#edge-3-wrap").await;
            wait_until(
                &client,
                "return document.getElementById('edge-3').classList.contains('colour-1')",
                5,
                "a place through the far border",
            )
            .await;
            screenshot(&client, "edges-phone-375").await;
            // The keyboard: arrows walk the edges, Enter acts, Escape drops a selection.
            js(&client, "document.getElementById('edge-36').focus()").await;
            client.active_element().await.unwrap().send_keys("\u{E014}").await.unwrap();
            assert_eq!(
                js(&client, "return document.activeElement.id").await,
                json!("edge-101"),
                "right of H5,5 is V6,5"
            );
            client.active_element().await.unwrap().send_keys("\u{E007}").await.unwrap();
            wait_until(
                &client,
                "return document.getElementById('edge-101').classList.contains('colour-2')",
                5,
                "red's place by Enter",
            )
            .await;
            js(&client, "document.getElementById('edge-3').focus()").await;
            client.active_element().await.unwrap().send_keys("\u{E007}").await.unwrap();
            wait_until(&client, "return document.getElementById('edge-3').classList.contains('selected') && document.querySelectorAll('button.edge.target').length === 6", 5, "black's edge selected by Enter").await;
            client.active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap();
            wait_until(
                &client,
                "return !document.querySelector('.edges-board .selected, .edges-board .target')",
                5,
                "Escape cancels",
            )
            .await;
            click(&client, "#new-game").await;
        }
    }
    // What an action did is animated, but not for a reader who asked for reduced motion: black
    // closes the top-left cell (red passes), once with motion and once without.
    for reduced in [false, true] {
        let value = if reduced { "reduce" } else { "no-preference" };
        cdp(
            &client,
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-reduced-motion", "value": value}]}),
        )
        .await;
        click(&client, "#new-game").await;
        for edge in [0, 8, 64] {
            click(&client, &format!("#edge-{edge}")).await;
            click(&client, "#pass").await;
        }
        click(&client, "#edge-65").await;
        wait_until(
            &client,
            "return document.querySelector('.edges-board .block').classList.contains('owner-1')",
            5,
            "the capture",
        )
        .await;
        let animation =
            js(&client, "return getComputedStyle(document.querySelector('.edges-board .step.block')).animationName")
                .await;
        assert_eq!(animation, json!(if reduced { "none" } else { "edges-step" }), "reduced motion: {reduced}");
        assert_eq!(text(&client, "#happened").await, "Black places V2,1; 1 cell captured");
    }
    client.close().await.unwrap();
}
