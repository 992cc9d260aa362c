//! Ladder reading: whether a group in atari that runs is caught anyway, the attacker putting it
//! back in atari from one side or the other until it dies. GNU Go reads ladders exactly; without
//! this the playouts run caught stones out (so the tree counts them alive) and the tree starts a
//! hopeless run as a good move.

use crate::go::{opponent, Board};

/// Positions read at most before a ladder counts as escaped: a plain ladder across 19x19 reads
/// about 40, and a wrong "escaped" costs no more than not reading at all.
const BUDGET: u32 = 128;

/// Whether the group of the stone at `stone`, in atari with its owner to move, is caught: running
/// at its liberty leaves it one liberty, or two where one of the attacker's ataris catches it
/// again. Taking an attacking group in atari next to it counts as an escape.
pub fn is_caught(board: &Board, stone: usize) -> bool {
    let mut budget = BUDGET;
    caught(board, stone, &mut budget)
}

fn caught(board: &Board, stone: usize, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let colour = board.colour(stone);
    let Some(liberty) = board.atari_liberty(board.group_of(stone)) else {
        return false;
    };
    if board.ko() == Some(liberty) || board.is_suicide(liberty, colour) {
        return !takes_an_attacker(board, stone);
    }
    // Three liberties without reading (what the run would capture only adds to them).
    if board.liberties_after(liberty, colour, 3) >= 3 || takes_an_attacker(board, stone) {
        return false;
    }
    let mut ran = board.clone();
    ran.place(liberty, colour);
    if ran.atari_liberty(ran.group_of(stone)).is_some() {
        return true;
    }
    // Two liberties: caught if an atari on either catches it again (more, from captures: escaped).
    let Some([a, b]) = ran.two_liberties(stone) else {
        return false;
    };
    // The lower point first, as the reading was measured (it matters only when the budget ends).
    chased(&mut ran.clone(), a.min(b), stone, budget) || chased(&mut ran, a.max(b), stone, budget)
}

/// Whether the attacker's atari at `atari` on `board` (the runner's two liberties one of them)
/// catches the group of `stone`; `board` is played on.
fn chased(board: &mut Board, atari: usize, stone: usize, budget: &mut u32) -> bool {
    let attacker = opponent(board.colour(stone));
    if board.ko() == Some(atari) || board.is_suicide(atari, attacker) {
        return false;
    }
    board.place(atari, attacker);
    caught(board, stone, budget)
}

/// Whether an opponent group touching the group of `stone` is in atari itself.
fn takes_an_attacker(board: &Board, stone: usize) -> bool {
    let attacker = opponent(board.colour(stone));
    board.group_stones(stone).into_iter().any(|s| {
        board
            .neighbours(s)
            .into_iter()
            .any(|n| board.colour(n) == attacker && board.atari_liberty(board.group_of(n)).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::tests::board;

    /// Whether White's stone in the middle of the 9x9 `rows` is caught.
    fn caught(rows: [&str; 9]) -> bool {
        let board = board(&rows);
        is_caught(&board, board.point(4, 4))
    }

    /// White's stone in the middle, in atari from three black stones, with a fourth on the
    /// diagonal: running down leaves two liberties, and the ladder runs down and left.
    const LADDER: [&str; 9] = [
        ".........", //
        ".........", //
        ".........", //
        "....X....", //
        "...XOX...", //
        ".....X...", //
        ".........", //
        ".........", //
        ".........",
    ];

    #[test]
    fn a_plain_ladder_is_caught() {
        assert!(caught(LADDER));
    }

    #[test]
    fn a_stone_of_the_runner_on_the_ladder_path_breaks_it() {
        let mut rows = LADDER;
        rows[7] = "..O......";
        assert!(!caught(rows));
    }

    #[test]
    fn a_run_into_open_space_escapes() {
        // Without the diagonal stone, running leaves three liberties.
        let mut rows = LADDER;
        rows[5] = ".........";
        assert!(!caught(rows));
    }

    #[test]
    fn an_attacker_in_atari_next_to_the_group_is_an_escape() {
        // Black's stone above has one liberty left: White takes it instead of running.
        let mut rows = LADDER;
        rows[3] = "...OXO...";
        assert!(!caught(rows));
    }

    #[test]
    fn a_group_with_two_liberties_is_not_read() {
        let mut rows = LADDER;
        rows[4] = "...XO....";
        assert!(!caught(rows));
    }
}
