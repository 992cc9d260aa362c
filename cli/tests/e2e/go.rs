//! Go in the browser: an online game played through passes and the scoring phase with a watcher,
//! with the room's SGF from the server, the 19x19 board on a phone (a move needs a confirmation),
//! SGF read back by GNU Go, bad SGF files explained, and a takeback between two browsers. The engine
//! is the judge of every board shown.

use std::process::{Command, Stdio};

use fantoccini::Client;
use serde_json::{json, Value};
use tabula_core::go::{Go, GoMove, Vertex, BLACK, EMPTY, WHITE};
use tabula_core::{Game, Seat};

use crate::browser::{
    capture_downloads, click, js, open_file, screenshot, settles_to, site_dist, text, wait_for_app, wait_until, Driver,
};
use crate::common::Server;
use crate::{create_room, exclusive, no_horizontal_overflow, take_seat};

const GNUGO: &str = "/usr/games/gnugo";

fn at(vertex: &str) -> Vertex {
    vertex.parse().unwrap()
}

fn play(vertex: &str) -> GoMove {
    GoMove::Play { at: at(vertex), colour: None }
}

/// The point's button id on a board of `size`: rows from the top.
fn point_id(size: usize, vertex: &str) -> String {
    let v = at(vertex);
    format!("#point-{}", (size - v.row as usize) * size + v.col as usize)
}

/// Every point as the page shows it: the stone, and while scoring whether it is marked dead and
/// whose area it is.
async fn shown(client: &Client) -> Vec<String> {
    let script = "return [...document.querySelectorAll('.go-board .pt')].map(p => \
        ['stone-1', 'stone-2', 'dead', 'area-1', 'area-2'].filter(c => p.classList.contains(c)).join(' '))";
    serde_json::from_value(js(client, script).await).unwrap()
}

/// The same, as the engine says it should be.
fn expected(game: &Go) -> Vec<String> {
    let board = game.board();
    let scoring = game.scoring().is_some();
    let owners = game.area_owners();
    let size = game.config().size;
    let mut points = Vec::new();
    for row in 0..size {
        for col in 0..size {
            let point = board.point(row, col);
            let stone = board.colour(point);
            let dead = game.is_dead(point);
            let mut classes = Vec::new();
            match stone {
                BLACK => classes.push("stone-1"),
                WHITE => classes.push("stone-2"),
                _ => {}
            }
            if dead {
                classes.push("dead");
            }
            if scoring && (stone == EMPTY || dead) {
                match owners[point] {
                    BLACK => classes.push("area-1"),
                    WHITE => classes.push("area-2"),
                    _ => {}
                }
            }
            points.push(classes.join(" "));
        }
    }
    points
}

async fn stones(client: &Client) -> u64 {
    js(client, "return document.querySelectorAll('.go-board .pt.stone-1, .go-board .pt.stone-2').length")
        .await
        .as_u64()
        .unwrap()
}

async fn see(client: &Client, game: &Go, what: &str) {
    let want = expected(game);
    settles_to(|| shown(client), &want, what).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_game_is_scored_alike_by_both_players_and_a_watcher() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "go", json!({"size": 9, "komi": 7.5})).await;
    let (black, white, watcher) = (driver.browser().await, driver.browser().await, driver.browser().await);
    take_seat(&black, &server, &room, 1).await;
    take_seat(&white, &server, &room, 2).await;
    watcher.goto(&format!("{}/room/{room}", server.base)).await.unwrap();
    wait_until(&watcher, "return !!document.querySelector('.go-board')", 10, "the watcher's board").await;

    // Two walls, a stone of each colour thrown into the other's area, then two passes.
    let mut moves: Vec<GoMove> = Vec::new();
    for row in 1..=9 {
        moves.push(play(&format!("D{row}")));
        moves.push(play(&format!("F{row}")));
    }
    moves.push(play("H5"));
    moves.push(play("B5"));
    let mut game = Go::new(serde_json::from_value(json!({"size": 9, "komi": 7.5})).unwrap()).unwrap();
    for mv in &moves {
        let (mover, other) =
            if game.status().to_move() == Some(Seat::One) { (&black, &white) } else { (&white, &black) };
        let GoMove::Play { at, .. } = mv else { unreachable!() };
        click(mover, &point_id(9, &at.to_string())).await;
        game.play(mv).unwrap();
        let count = game.board().points().filter(|&p| game.board().colour(p) != EMPTY).count();
        wait_until(
            other,
            &format!(
                "return document.querySelectorAll('.go-board .pt.stone-1, .go-board .pt.stone-2').length === {count}"
            ),
            10,
            "the move",
        )
        .await;
    }
    click(&black, "#pass").await;
    game.play(&GoMove::Pass { colour: None }).unwrap();
    wait_until(
        &white,
        "return !!document.getElementById('pass') && document.getElementById('role').textContent === 'Your turn'",
        10,
        "white's turn",
    )
    .await;
    click(&white, "#pass").await;
    game.play(&GoMove::Pass { colour: None }).unwrap();
    assert!(game.scoring().is_some(), "two passes open the scoring phase");
    for (who, client) in [("black", &black), ("white", &white), ("watcher", &watcher)] {
        see(client, &game, &format!("{who} sees the engine's proposal")).await;
    }
    // White disputes black's stone in white's area: it is alive after all (a toggle for white).
    click(&white, &point_id(9, "H5")).await;
    game.play(&GoMove::Toggle { at: at("H5"), colour: Some(Seat::Two) }).unwrap();
    for (who, client) in [("black", &black), ("white", &white), ("watcher", &watcher)] {
        see(client, &game, &format!("{who} sees the toggle")).await;
    }
    click(&black, "#accept-score").await;
    game.play(&GoMove::Accept { colour: Some(Seat::One) }).unwrap();
    wait_until(
        &white,
        "return document.querySelector('.turn').textContent.includes('Black accepted')",
        10,
        "black's acceptance",
    )
    .await;
    click(&white, "#accept-score").await;
    game.play(&GoMove::Accept { colour: Some(Seat::Two) }).unwrap();
    let score = game.final_score().expect("both accepted: the game is scored");
    let outcome = game.status().outcome().cloned().expect("over");
    let headline = match outcome.winner {
        Some(Seat::One) => "Black wins",
        Some(Seat::Two) => "White wins",
        None => "Draw",
    };
    let margin = (score.black - score.white).abs();
    for (who, client) in [("black", &black), ("white", &white), ("watcher", &watcher)] {
        wait_until(client, "return !!document.querySelector('.turn.result')", 10, "the result").await;
        see(client, &game, &format!("{who}'s final board")).await;
        let line = text(client, ".turn.result").await;
        assert!(
            line.starts_with(headline) && line.contains(&format!("by {margin} points")),
            "{who}: {line:?} vs {score:?}"
        );
        let scores = text(client, ".scores").await;
        assert!(scores.contains(&format!("{} points", score.black)), "{who}: {scores}");
    }
    // The watcher's "Download SGF" is the server's record of the room: the scored result and black's
    // area (white's region, shared with the live H5 stone, is nobody's).
    let sgf = js(&watcher, "return fetch(document.getElementById('download-sgf').href).then(r => r.text())").await;
    let sgf = sgf.as_str().unwrap_or_default();
    let letter = if outcome.winner == Some(Seat::One) { "B" } else { "W" };
    assert!(sgf.contains(&format!("RE[{letter}+{margin}]")) && sgf.contains("TB[aa]") && !sgf.contains("TW["), "{sgf}");
    let record = tabula_core::go::sgf::Record::from_sgf(sgf).unwrap_or_else(|e| panic!("{e}: {sgf}"));
    assert_eq!(record.moves.len(), moves.len() + 2, "the plays and the two passes: {sgf}");
    screenshot(&watcher, "go-scored-watcher").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_19x19_board_on_a_phone_needs_a_second_tap_or_a_confirmation() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/go/local?size=19", server.base)).await.unwrap();
    wait_for_app(&client).await;
    wait_until(&client, "return document.querySelectorAll('.go-board .pt').length === 361", 10, "the 19x19 board")
        .await;
    no_horizontal_overflow(&client, "19x19 at 375 px").await;
    let width = js(&client, "return document.getElementById('point-0').getBoundingClientRect().width").await;
    assert!(width.as_f64().unwrap() < 28.0, "points are small here: {width}");
    // One tap shows a ghost and plays nothing.
    click(&client, &point_id(19, "Q16")).await;
    wait_until(&client, "return document.querySelectorAll('.go-board .pt.ghost').length === 1", 5, "the ghost stone")
        .await;
    assert_eq!(stones(&client).await, 0, "a single tap played a move");
    // A tap elsewhere (the mis-tap corrected) moves the ghost; still nothing played.
    click(&client, &point_id(19, "Q17")).await;
    wait_until(
        &client,
        &format!("return document.querySelector('{}').classList.contains('ghost')", point_id(19, "Q17")),
        5,
        "the ghost moved",
    )
    .await;
    assert_eq!(stones(&client).await, 0);
    screenshot(&client, "go-19x19-ghost").await;
    // The confirm button plays it.
    click(&client, "#confirm-move").await;
    wait_until(
        &client,
        &format!("return document.querySelector('{}').classList.contains('stone-1')", point_id(19, "Q17")),
        5,
        "black's stone",
    )
    .await;
    // A second tap on the same point plays too.
    click(&client, &point_id(19, "D4")).await;
    assert_eq!(stones(&client).await, 1);
    click(&client, &point_id(19, "D4")).await;
    wait_until(
        &client,
        &format!("return document.querySelector('{}').classList.contains('stone-2')", point_id(19, "D4")),
        5,
        "white's stone",
    )
    .await;
    assert_eq!(stones(&client).await, 2);
    no_horizontal_overflow(&client, "19x19 after moves").await;
    screenshot(&client, "go-19x19").await;
}

/// GNU Go's view of a position after loading `sgf`: its black and white stones.
fn gnugo_stones(sgf: &str) -> (Vec<String>, Vec<String>) {
    assert!(std::path::Path::new(GNUGO).is_file(), "GNU Go is missing: cargo xtask test installs Debian's gnugo");
    let file = std::env::temp_dir().join(format!("tabula-e2e-{}.sgf", std::process::id()));
    std::fs::write(&file, sgf).unwrap();
    let commands = format!("loadsgf {}\nlist_stones black\nlist_stones white\nquit\n", file.display());
    let mut child =
        Command::new(GNUGO).args(["--mode", "gtp"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), commands.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let answers: Vec<&str> = text.split("\n\n").map(str::trim).filter(|a| !a.is_empty()).collect();
    assert!(answers.len() >= 3 && answers.iter().all(|a| a.starts_with('=')), "GNU Go refused the SGF:\n{text}\n{sgf}");
    let stones = |answer: &str| {
        let mut list: Vec<String> = answer.trim_start_matches('=').split_whitespace().map(str::to_owned).collect();
        list.sort();
        list
    };
    (stones(answers[1]), stones(answers[2]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_downloaded_sgf_reads_back_in_gnu_go_and_bad_files_are_explained() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let client = driver.browser().await;
    client.goto(&format!("{}/go/local?size=9&komi=6.5", server.base)).await.unwrap();
    wait_for_app(&client).await;
    click(&client, "#new-game").await;
    // A capture (white's E5 is taken by black's E6), a pass, then play goes on.
    let moves = ["D5", "E5", "F5", "A1", "E4", "A2", "pass", "A3", "E6"];
    let mut game = Go::new(serde_json::from_value(json!({"size": 9, "komi": 6.5})).unwrap()).unwrap();
    for mv in moves {
        if mv == "pass" {
            click(&client, "#pass").await;
            game.play(&GoMove::Pass { colour: None }).unwrap();
        } else {
            click(&client, &point_id(9, mv)).await;
            game.play(&play(mv)).unwrap();
        }
        let played = game.moves_played();
        wait_until(&client, &format!("return document.querySelectorAll('.moves li').length === {played}"), 5, mv).await;
    }
    assert_eq!(game.board().captures(BLACK), 1, "the test's own game has its capture");
    see(&client, &game, "the local game").await;
    capture_downloads(&client).await;
    click(&client, "#download-sgf").await;
    wait_until(&client, "return window.__downloads.length === 1", 5, "the SGF download").await;
    let download = js(&client, "return window.__downloads[0]").await;
    assert_eq!(download[0], "tabula-go.sgf");
    let sgf = download[1].as_str().unwrap().to_owned();
    let (black, white) = gnugo_stones(&sgf);
    let ours = |colour: u8| {
        let board = game.board();
        let mut list: Vec<String> =
            board.points().filter(|&p| board.colour(p) == colour).map(|p| game.vertex_of(p).to_string()).collect();
        list.sort();
        list
    };
    assert_eq!((black, white), (ours(BLACK), ours(WHITE)), "GNU Go reads the same position from {sgf}");

    // Bad files: each says what is wrong, and the game stays as it was.
    let bad = [
        ("not a game record", "This file is not an SGF game record (expected ( to open a game, byte 0)."),
        ("(;GM[1]SZ[9];B[ee]", "This file is not an SGF game record (unclosed game tree, byte 18)."),
        ("(;GM[3]SZ[9])", "This SGF file records a game other than Go."),
        ("(;GM[1]SZ[25])", "Boards of 25 are not supported (square, 5 to 19)."),
        ("(;GM[1]SZ[9]AW[ee])", "Only the standard handicap stones can be set up; this file places others."),
        ("(;GM[1]SZ[9];B[ee];W[ee])", "Move 2 (E5) is illegal: That point already holds a stone."),
        ("", "The file holds no game."),
    ];
    for (content, message) in bad {
        open_file(&client, "open-sgf", "game.sgf", content).await;
        wait_until(
            &client,
            &format!("return document.getElementById('notice').textContent === {message:?}"),
            5,
            message,
        )
        .await;
        see(&client, &game, "the game is unchanged").await;
    }
    // A good file replaces the game: it can be replayed, and played on.
    open_file(&client, "open-sgf", "game.sgf", &sgf).await;
    wait_until(
        &client,
        "return document.getElementById('notice').textContent.startsWith('Game loaded: 9 moves')",
        5,
        "the loaded game",
    )
    .await;
    see(&client, &game, "the loaded game").await;
    click(&client, &point_id(9, "J9")).await;
    game.play(&play("J9")).unwrap();
    see(&client, &game, "play goes on after loading").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_takeback_is_asked_and_accepted_between_two_browsers() {
    let _one = exclusive().await;
    let (server, driver) = (Server::start(site_dist()), Driver::start());
    let room = create_room(&server, "go", json!({"size": 9})).await;
    let (black, white) = (driver.browser().await, driver.browser().await);
    take_seat(&black, &server, &room, 1).await;
    take_seat(&white, &server, &room, 2).await;
    click(&black, &point_id(9, "E5")).await;
    wait_until(&white, "return document.querySelectorAll('.go-board .pt.stone-1').length === 1", 10, "black's stone")
        .await;
    click(&white, &point_id(9, "C3")).await;
    wait_until(&black, "return document.querySelectorAll('.go-board .pt.stone-2').length === 1", 10, "white's stone")
        .await;
    click(&white, "#takeback").await;
    wait_until(&black, "return !!document.getElementById('accept-takeback')?.checkVisibility()", 10, "the request")
        .await;
    click(&black, "#accept-takeback").await;
    // White asked before black replied: only white's own move goes, and white moves again.
    let mut expected = Go::new(serde_json::from_value(json!({"size": 9})).unwrap()).unwrap();
    expected.play(&play("E5")).unwrap();
    for (who, client) in [("black", &black), ("white", &white)] {
        see(client, &expected, &format!("{who}'s board after the takeback")).await;
    }
    assert_eq!(js(&black, "return document.querySelectorAll('.moves li').length").await, Value::from(1));
    wait_until(&white, "return document.getElementById('role').textContent === 'Your turn'", 10, "white to move").await;
}
