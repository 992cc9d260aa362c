//! Share cards through HTTP on both stores: a room's board as a 1200x630 PNG whose stones are where
//! the moves put them, the crawlers' page naming the players, and the generic card for the rest.

use serde_json::json;
use tabula_api::card::draw::{generic_card, Grid};
use tiny_skia::Pixmap;

use crate::client::{room_id, Backend, TestApi};

both_stores!(a_rooms_card_shows_its_board_and_an_unknown_room_the_generic_one);

pub async fn a_rooms_card_shows_its_board_and_an_unknown_room_the_generic_one(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let [red, blue] = api.seated_room(&room).await;
    assert_eq!(api.play(&room, &red, 2, json!({"row": 1, "col": 7})).await.status, 200);
    assert_eq!(api.play(&room, &blue, 3, json!({"row": 6, "col": 2})).await.status, 200);

    let card = api.http.get(format!("{}/api/card", api.base)).query(&[("roomId", &room)]).send().await.unwrap();
    assert_eq!(card.status(), 200);
    assert_eq!(card.headers()["content-type"], "image/png");
    let card = Pixmap::decode_png(&card.bytes().await.unwrap()).expect("a PNG");
    assert_eq!((card.width(), card.height()), (1200, 630));
    let grid = Grid::fit(9, 9);
    let colour = |(column, row): (usize, usize)| {
        let (x, y) = grid.centre(column, row);
        let pixel = card.pixel(x as u32, y as u32).unwrap();
        [pixel.red(), pixel.green(), pixel.blue()]
    };
    assert_eq!(colour((7, 1)), [0xff, 0x54, 0x70], "Red's stone");
    assert_eq!(colour((2, 6)), [0x3d, 0xa9, 0xfc], "Blue's stone");
    assert_ne!(colour((4, 4)), colour((7, 1)), "an empty cell");

    let page = api
        .http
        .get(format!("{}/api/card", api.base))
        .query(&[("roomId", room.as_str()), ("format", "html")])
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let page = page.text().await.unwrap();
    assert!(page.contains("<title>Ann vs Bo: POPUCOM three-match chess</title>"), "{page}");
    assert!(page.contains("Move 3, Red to move."), "{page}");
    for token in [&red, &blue] {
        assert!(!page.contains(token.as_str()), "no token in a card");
    }

    for query in [vec![("roomId", "no-such-room")], vec![("roomId", "not a room id!")], vec![]] {
        let reply = api.http.get(format!("{}/api/card", api.base)).query(&query).send().await.unwrap();
        assert_eq!(reply.status(), 200, "{query:?}");
        assert_eq!(reply.bytes().await.unwrap(), generic_card(), "{query:?}");
    }
}
