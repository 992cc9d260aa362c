//! The share cards drawn for every game and answered as PNG or as a crawler's page, and the
//! link-preview User-Agents told apart from browsers.

use serde_json::{json, Value};
use tabula_core::GameKind;
use tiny_skia::Pixmap;

use super::draw::{self, Grid};
use super::*;
use crate::room::{now, Room, RoomId};

/// The view of a room of `kind` after `moves` (each in any shape the game reads).
fn view_after(kind: GameKind, config: Value, moves: &[Value]) -> Value {
    let mut game = kind.new_game(&config).unwrap();
    let mut room = Room::new(RoomId::parse("card-test").unwrap(), &game, now());
    for mv in moves {
        let canonical = game.normalize_move(mv).unwrap();
        game.play(&canonical).unwrap();
        room.moves.push(canonical);
    }
    room.load().unwrap().view()
}

fn decode(png: &[u8]) -> Pixmap {
    let pixmap = Pixmap::decode_png(png).expect("the card is a PNG");
    assert_eq!((pixmap.width(), pixmap.height()), (1200, 630), "a card is 1200x630");
    pixmap
}

fn colour_at(pixmap: &Pixmap, (x, y): (f32, f32)) -> [u8; 3] {
    let pixel = pixmap.pixel(x.round() as u32, y.round() as u32).expect("inside the card");
    assert_eq!(pixel.alpha(), 255, "cards are opaque");
    [pixel.red(), pixel.green(), pixel.blue()]
}

const RED: [u8; 3] = [0xff, 0x54, 0x70];
const BLUE: [u8; 3] = [0x3d, 0xa9, 0xfc];

#[test]
fn a_popucom_card_shows_each_stone_in_its_colour() {
    // Red at (4,4) and (0,8); Blue at (8,0).
    let view = view_after(GameKind::Popucom, Value::Null, &[json!([4, 4]), json!([8, 0]), json!([0, 8])]);
    let board = &view["state"]["board"];
    assert_eq!((board[4][4].as_u64(), board[8][0].as_u64(), board[0][8].as_u64()), (Some(1), Some(2), Some(1)));
    let card = decode(&draw::room_card(&view));
    let grid = Grid::fit(9, 9);
    assert_eq!(colour_at(&card, grid.centre(4, 4)), RED);
    assert_eq!(colour_at(&card, grid.centre(8, 0)), RED);
    assert_eq!(colour_at(&card, grid.centre(0, 8)), BLUE);
    for (column, row) in [(0, 0), (3, 5), (8, 8)] {
        let empty = colour_at(&card, grid.centre(column, row));
        assert!(empty != RED && empty != BLUE, "({column}, {row}) holds no stone: {empty:?}");
    }
}

#[test]
fn a_go_card_puts_stones_on_their_points() {
    // C3 is column 2, row 6 counted from the top of a 9x9 board; G7 is column 6, row 2.
    let moves = [json!({"type": "play", "at": "C3"}), json!({"type": "play", "at": "G7"})];
    let view = view_after(GameKind::Go, json!({"size": 9}), &moves);
    let card = decode(&draw::room_card(&view));
    let grid = Grid::fit(9, 9);
    assert_eq!(colour_at(&card, grid.centre(2, 6)), [0x11, 0x11, 0x11], "black stone");
    assert_eq!(colour_at(&card, grid.centre(6, 2)), [0xf4, 0xf4, 0xf4], "white stone");
    let empty = colour_at(&card, grid.centre(4, 4));
    assert!(empty != [0x11, 0x11, 0x11] && empty != [0xf4, 0xf4, 0xf4], "E5 is empty: {empty:?}");
}

#[test]
fn an_edges_card_colours_placed_edges_and_owned_cells() {
    let game = GameKind::Edges.new_game(&Value::Null).unwrap();
    let n = game.view()["size"].as_u64().unwrap() as usize;
    // Black places the top of cell (1, 1); Red the left of cell (2, 3).
    let top = n + 1;
    let left = n * n + 3 * n + 2;
    let moves = [json!({"type": "place", "edge": top}), json!({"type": "place", "edge": left})];
    let view = view_after(GameKind::Edges, Value::Null, &moves);
    let card = decode(&draw::room_card(&view));
    let grid = Grid::fit(n, n);
    let (x, y) = grid.centre(1, 1);
    assert_eq!(colour_at(&card, (x, y - grid.cell / 2.0)), super::edges::BLACK.channels());
    let (x, y) = grid.centre(2, 3);
    assert_eq!(colour_at(&card, (x - grid.cell / 2.0, y)), super::edges::RED.channels());
    let (x, y) = grid.centre(0, 0);
    assert_eq!(colour_at(&card, (x, y - grid.cell / 2.0)), super::edges::EMPTY_EDGE.channels());
    assert_eq!(colour_at(&card, grid.centre(1, 1)), super::edges::FREE_CELL.channels());
}

#[test]
fn a_chess_card_shows_pieces_on_their_squares_in_any_board_size() {
    let view = view_after(GameKind::Chess, json!({"variant": "chess"}), &[json!("e2e4")]);
    let card = decode(&draw::room_card(&view));
    let grid = Grid::fit(8, 8);
    let white = [0xfa, 0xfa, 0xfa];
    let black = [0x1c, 0x1c, 0x1c];
    assert_eq!(colour_at(&card, grid.centre(4, 4)), white, "the pawn on e4");
    assert_eq!(colour_at(&card, grid.centre(4, 7)), white, "the king on e1");
    assert_eq!(colour_at(&card, grid.centre(3, 0)), black, "the queen on d8");
    let e2 = colour_at(&card, grid.centre(4, 6));
    assert!(e2 != white && e2 != black, "e2 is empty after e2e4: {e2:?}");

    // Capablanca is 10 files wide: its board is fitted, h1 (column 7) still has its piece.
    let view = view_after(GameKind::Chess, json!({"variant": "capablanca"}), &[]);
    let card = decode(&draw::room_card(&view));
    let grid = Grid::fit(10, 8);
    assert_eq!(colour_at(&card, grid.centre(9, 7)), white, "the rook on j1");
    assert_eq!(colour_at(&card, grid.centre(9, 0)), black, "the rook on j8");
}

#[test]
fn anything_unreadable_gets_the_generic_card() {
    let generic = draw::generic_card();
    decode(&generic);
    for view in [json!({}), json!({"game": "go", "state": {"board": "no"}}), json!({"game": "chess", "state": {}})] {
        assert_eq!(draw::room_card(&view), generic, "{view}");
    }
    let popucom = view_after(GameKind::Popucom, Value::Null, &[json!([4, 4])]);
    assert_ne!(draw::room_card(&popucom), generic);
}

#[test]
fn the_card_page_names_the_players_and_escapes_them() {
    let mut view = view_after(GameKind::Popucom, Value::Null, &[json!([4, 4])]);
    view["seats"][0]["taken"] = json!(true);
    view["seats"][0]["name"] = json!("<b>Ann</b> & \"co\"");
    view["seats"][1]["taken"] = json!(true);
    view["seats"][1]["name"] = json!("Bo");
    let page = card_page(Some(&view), "https://tabula.example");
    assert!(page.contains("&lt;b&gt;Ann&lt;/b&gt; &amp; &quot;co&quot; vs Bo"), "{page}");
    assert!(!page.contains("<b>Ann"), "names are escaped");
    assert!(page
        .contains(r#"<meta property="og:image" content="https://tabula.example/api/card?roomId=card-test&amp;v=0">"#));
    assert!(page.contains(r#"<meta name="twitter:card" content="summary_large_image">"#));
    assert!(page.contains(r#"<meta name="robots" content="noindex">"#), "rooms are not indexed");
    assert!(page.contains("Move 2, Blue to move."), "{page}");

    let waiting = view_after(GameKind::Go, json!({"size": 9}), &[]);
    let mut waiting = waiting.clone();
    waiting["seats"][0]["taken"] = json!(true);
    waiting["seats"][0]["name"] = json!("Cy");
    let page = card_page(Some(&waiting), "");
    assert!(page.contains("<title>Cy is waiting for an opponent: Go 9x9</title>"), "{page}");
    assert!(page.contains("A seat is free"), "{page}");

    // A time control, and a game lost on time.
    let mut timed = view.clone();
    timed["clock"] = json!({"kind": "live", "initialSeconds": 300, "incrementSeconds": 3});
    assert!(card_page(Some(&timed), "")
        .contains("Blue to move. Open the link to watch, on Tabula. Clock: 5 min + 3 s a move."));
    timed["clock"] = json!({"kind": "correspondence", "daysPerMove": 3});
    timed["state"]["result"] = json!({"winner": 2, "reason": "timeout"});
    let page = card_page(Some(&timed), "");
    assert!(page.contains("Game over: Blue won on time after 1 moves. Clock: correspondence, 3-day moves."), "{page}");
    timed["state"]["result"] = json!({"winner": 0, "reason": "aborted"});
    assert!(card_page(Some(&timed), "").contains("Game over: aborted, a first move was not made in time."));

    let generic = card_page(None, "http://localhost:8080");
    assert!(generic.contains(r#"content="http://localhost:8080/api/card""#), "{generic}");
}

#[test]
fn crawlers_are_told_from_browsers() {
    for crawler in [
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "TelegramBot (like TwitterBot)",
        "WhatsApp/2.23.20.0",
        "Twitterbot/1.0",
    ] {
        assert!(is_link_preview(crawler), "{crawler}");
    }
    for browser in [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1",
        "Mozilla/5.0 (Linux; Android 12; CUBOT X30) AppleWebKit/537.36 Chrome/119.0 Mobile Safari/537.36",
    ] {
        assert!(!is_link_preview(browser), "{browser}");
    }
}
