//! Each piece of each built-in variant has a drawing, found by what the piece does.

use tabula_core::fairy::Variant;

fn figure(variant: &str, letter: char) -> Option<&'static str> {
    Variant::builtin()[variant].figure(letter)
}

#[test]
fn every_piece_of_every_built_in_variant_has_a_figure() {
    for (name, variant) in Variant::builtin() {
        let start = variant.start.as_deref().expect("a start position");
        let placement = start.split(' ').next().unwrap();
        // Promotion candidates too: some stand nowhere at the start (menagerie's short bishop).
        for letter in placement.chars().filter(char::is_ascii_alphabetic).chain(variant.promotion_letters()) {
            assert!(variant.figure(letter).is_some(), "{name}: {letter}");
        }
    }
}

#[test]
fn figures_follow_the_moves_not_the_letters() {
    assert_eq!(figure("capablanca", 'C'), Some("chancellor"));
    assert_eq!(figure("hoppers", 'C'), Some("cannon"));
    assert_eq!(figure("leapriders", 'C'), Some("camel"));
    assert_eq!(figure("wildebeest11", 'L'), Some("camel"), "a (1,3) leaper is a (3,1) leaper");
    assert_eq!(figure("janus", 'J'), Some("archbishop"));
    assert_eq!(figure("knightmate", 'K'), Some("royal-knight"));
    assert_eq!(figure("knightmate", 'M'), Some("commoner"), "a king that is not royal");
    assert_eq!(figure("chess", 'k'), Some("king"), "either case");
    assert_eq!(figure("shatranj", 'P'), Some("pawn"), "no double step, still a pawn");
    assert_eq!(figure("reflecting2", 'B'), Some("reflecting-bishop"));
    assert_eq!(figure("griffin-seed", 'G'), Some("griffin"), "the move-only first step too");
    assert_eq!(figure("imitator", 'I'), Some("imitator"), "written with references");
    assert_eq!(figure("chess", 'Z'), None, "no such piece");
}

#[test]
fn a_custom_variant_s_known_pieces_are_drawn_and_new_ones_are_not() {
    let json = r#"{"mine": {"board": [6, 6], "castling": false, "promotion": ["N"],
        "start": "k1n3/6/6/6/6/3N1K w - - 0 1", "pieces": {
        "K": {"moves": [{"move": {"type": "leaper", "direction": [1, 1]}}, {"move": {"type": "leaper", "direction": [1, 0]}}], "expandMoves": "X", "royal": true},
        "N": {"moves": [{"move": {"type": "leaper", "direction": [2, 1]}}], "expandMoves": "X"},
        "Q": {"moves": [{"move": {"type": "leaper", "direction": [2, 1]}}, {"move": {"type": "leaper", "direction": [3, 3]}}], "expandMoves": "X"},
        "G": {"moves": [{"move": {"type": "leaper", "direction": [1, 1]}, "children": [
            {"move": {"type": "rider", "direction": [0, 1]}}, {"move": {"type": "rider", "direction": [1, 0]}}]}], "expandMoves": "X"}}}}"#;
    let variants = Variant::all_from_json(json).unwrap();
    let mine = &variants["mine"];
    assert_eq!(mine.figure('K'), Some("king"), "moves listed in another order");
    assert_eq!(mine.figure('N'), Some("knight"), "(2,1) written for (1,2)");
    assert_eq!(mine.figure('Q'), None, "a new piece: the site shows its letter");
    assert_eq!(mine.figure('G'), Some("griffin"), "the rides after the step listed in another order");
}
