//! The view's decisions, kept free of the DOM so they are unit-tested natively: what each cell
//! shows, why a tap is refused, what a move changed (for the animation), polling pace, keyboard
//! focus, room codes.

use tabula_core::popucom::{Cell, Cells, Popucom, MOVE_LIMIT};
use tabula_core::{Game, Rejection, Seat};

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    pub cell: Cell,
    pub stone: Option<Seat>,
    pub territory: Option<Seat>,
    pub playable: bool,
    pub last: bool,
}

fn owner(cells: [Cells; 2], cell: Cell) -> Option<Seat> {
    Seat::ALL.into_iter().find(|seat| cells[seat.index()].contains(cell))
}

/// Every cell, row by row. `playable` marks the legal cells of the side to move.
pub fn cell_views(game: &Popucom, last_move: Option<Cell>) -> Vec<CellView> {
    let legal = game.legal_cells();
    let stones = [game.stones(Seat::One), game.stones(Seat::Two)];
    let territory = [game.territory(Seat::One), game.territory(Seat::Two)];
    (0..81u8)
        .map(|index| {
            let cell = Cell::new(index / 9, index % 9);
            CellView {
                cell,
                stone: owner(stones, cell),
                territory: owner(territory, cell),
                playable: legal.contains(cell),
                last: last_move == Some(cell),
            }
        })
        .collect()
}

/// The message id explaining why `me` may not play `cell` now, or `None` if the move is legal.
/// `me` is `None` for a spectator; in a local game it is the side to move.
pub fn refusal(game: &Popucom, cell: Cell, me: Option<Seat>) -> Option<&'static str> {
    let Some(me) = me else { return Some("illegal-spectator") };
    let error = match game.check(&cell) {
        Ok(()) if game.status().to_move() == Some(me) => return None,
        Ok(()) => return Some("illegal-not_your_turn"),
        Err(error) => error,
    };
    Some(match error.code() {
        "occupied" => "illegal-occupied",
        "opponent_territory" => "illegal-opponent_territory",
        "off_board" => "illegal-off_board",
        _ => "illegal-game_over",
    })
}

/// What a move changed: stones that vanished (popped lines) and cells newly painted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub popped: Cells,
    pub painted: Cells,
}

pub fn changes(before: &Popucom, after: &Popucom) -> Changes {
    let stones = |g: &Popucom| g.stones(Seat::One).union(g.stones(Seat::Two));
    let painted = Seat::ALL
        .into_iter()
        .fold(Cells::EMPTY, |acc, seat| acc.union(after.territory(seat).minus(before.territory(seat))));
    Changes { popped: stones(before).minus(stones(after)), painted }
}

pub fn moves_left(game: &Popucom) -> u8 {
    MOVE_LIMIT - game.moves_played()
}

/// How long to wait before the next poll, in milliseconds: about once a second while the player
/// waits (or watches) and the tab is visible, rarely while it is hidden.
pub fn poll_delay_ms(visible: bool, my_turn: bool) -> u32 {
    match (visible, my_turn) {
        (false, _) => 15_000,
        (true, false) => 1_000,
        // Only a resignation or a rematch can change the room while it is my move.
        (true, true) => 4_000,
    }
}

/// Retrying after a failed poll: 1 s, 2 s, 4 s ... up to 15 s.
pub fn retry_delay_ms(failures: u32) -> u32 {
    1_000u32.saturating_mul(1 << failures.min(4)).min(15_000)
}

/// The cell the keyboard focus moves to from `index` (0..81) on an arrow key.
pub fn move_focus(index: usize, key: &str) -> usize {
    let (row, col) = (index / 9, index % 9);
    let (row, col) = match key {
        "ArrowUp" => (row.saturating_sub(1), col),
        "ArrowDown" => ((row + 1).min(8), col),
        "ArrowLeft" => (row, col.saturating_sub(1)),
        "ArrowRight" => (row, (col + 1).min(8)),
        _ => (row, col),
    };
    row * 9 + col
}

/// A short room code that reads well aloud: no 0/o, 1/l/i look-alikes.
pub fn room_code(random: u64) -> String {
    const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
    let mut value = random;
    (0..6)
        .map(|_| {
            let digit = ALPHABET[(value % ALPHABET.len() as u64) as usize] as char;
            value /= ALPHABET.len() as u64;
            digit
        })
        .collect()
}

/// The message id of a player's colour.
pub fn colour_id(seat: Seat) -> &'static str {
    match seat {
        Seat::One => "player-1",
        Seat::Two => "player-2",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[(u8, u8)]) -> Popucom {
        let cells: Vec<Cell> = moves.iter().map(|&(r, c)| Cell::new(r, c)).collect();
        Popucom::replay(Default::default(), &cells).unwrap()
    }

    #[test]
    fn cells_show_stones_territory_legality_and_the_last_move() {
        let game = play(&[(0, 0), (8, 8), (0, 1), (6, 6), (0, 2), (4, 4)]);
        let views = cell_views(&game, Some(Cell::new(4, 4)));
        assert_eq!(views.len(), 81);
        let at = |r: u8, c: u8| views[(r * 9 + c) as usize];
        assert_eq!(at(0, 5).territory, Some(Seat::One), "the popped row is red");
        assert_eq!(at(4, 4).stone, Some(Seat::Two));
        assert!(at(4, 4).last && !at(8, 8).last);
        assert!(at(0, 5).playable, "red to move may play red territory");
        assert!(!at(4, 4).playable, "occupied");
        assert_eq!(views.iter().filter(|v| v.playable).count(), game.legal_moves().len());
    }

    #[test]
    fn refusals_name_the_reason() {
        let game = play(&[(0, 0), (8, 8), (0, 1), (6, 6), (0, 2)]); // blue to move; row 0 is red
        assert_eq!(refusal(&game, Cell::new(0, 4), Some(Seat::Two)), Some("illegal-opponent_territory"));
        assert_eq!(refusal(&game, Cell::new(8, 8), Some(Seat::Two)), Some("illegal-occupied"));
        assert_eq!(refusal(&game, Cell::new(4, 4), Some(Seat::One)), Some("illegal-not_your_turn"));
        assert_eq!(refusal(&game, Cell::new(4, 4), None), Some("illegal-spectator"));
        assert_eq!(refusal(&game, Cell::new(4, 4), Some(Seat::Two)), None);
    }

    #[test]
    fn changes_show_popped_stones_and_new_paint() {
        let before = play(&[(0, 0), (8, 8), (0, 1), (6, 6)]);
        let after = play(&[(0, 0), (8, 8), (0, 1), (6, 6), (0, 2)]);
        let changed = changes(&before, &after);
        assert_eq!(changed.popped.len(), 2, "the two stones that were on the board before");
        assert_eq!(changed.painted.len(), 9);
        assert_eq!(changes(&after, &after), Changes::default());
    }

    #[test]
    fn polling_slows_down_when_hidden_and_retries_back_off() {
        assert_eq!(poll_delay_ms(true, false), 1_000);
        assert!(poll_delay_ms(false, false) > poll_delay_ms(true, true));
        assert_eq!((retry_delay_ms(0), retry_delay_ms(2), retry_delay_ms(30)), (1_000, 4_000, 15_000));
    }

    #[test]
    fn arrow_keys_move_focus_within_the_board() {
        assert_eq!(move_focus(0, "ArrowUp"), 0);
        assert_eq!(move_focus(0, "ArrowRight"), 1);
        assert_eq!(move_focus(8, "ArrowRight"), 8, "no wrap into the next row");
        assert_eq!(move_focus(40, "ArrowDown"), 49);
        assert_eq!(move_focus(80, "ArrowDown"), 80);
    }

    #[test]
    fn room_codes_are_short_and_unambiguous() {
        let codes: Vec<String> = (0..50u64).map(|n| room_code(n.wrapping_mul(0x9E37_79B9_7F4A_7C15))).collect();
        for code in &codes {
            assert_eq!(code.len(), 6);
            assert!(!code.contains(['0', 'o', '1', 'l', 'i']), "{code}");
        }
        let distinct: std::collections::BTreeSet<_> = codes.iter().collect();
        assert_eq!(distinct.len(), codes.len());
    }
}
