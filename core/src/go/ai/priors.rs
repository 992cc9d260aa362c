//! What the tree knows of a Go move before searching it, after Gelly and Silver ("Combining
//! online and offline knowledge in UCT", 2007) as Pachi weighs it: every move starts even; taking a
//! group in atari, saving one's own, an atari that a ladder then catches, and a MoGo shape next to
//! the last stone start as good; putting two or more of one's own stones in atari, running out of a
//! ladder that catches, and a move on the first line with nothing near, start as bad. Without them
//! the tree spends a new position's first playouts on every point in turn.

use crate::ai::Prior;
use crate::go::{Board, Go, GoMove, BLACK, WHITE};

use super::{atari_answer, ladder, patterns};

/// Made-up playouts every move starts with, half of them won.
const EVEN: u32 = 10;
/// Made-up playouts a piece of knowledge adds: all won for a good sign, all lost for a bad one.
const SIGN: u32 = 10;

/// One [`Prior`] for each of `moves` in `game`.
pub fn priors(game: &Go, moves: &[GoMove]) -> Vec<Prior> {
    let board = game.board();
    let colour = game.to_move();
    let urgent = urgent_points(board, colour);
    let (hopeless, chases) = ladder_points(board, colour);
    let last = game.last_stone();
    moves
        .iter()
        .map(|mv| {
            let point = match *mv {
                GoMove::Play { at, .. } => game.point_of(at),
                _ => None,
            };
            let (good, bad) =
                point.map_or((0, 0), |point| signs(board, colour, point, last, &urgent, &hopeless, &chases));
            Prior { visits: EVEN + SIGN * (good + bad), wins: EVEN as f32 / 2.0 + (SIGN * good) as f32 }
        })
        .collect()
}

/// The good and bad signs of `colour` playing `point`.
fn signs(
    board: &Board,
    colour: u8,
    point: usize,
    last: Option<usize>,
    urgent: &[usize],
    hopeless: &[usize],
    chases: &[usize],
) -> (u32, u32) {
    // A shape or a rescue that leaves one's own stones in atari is none.
    if board.self_atari_stones(point, colour) >= 2 {
        return (0, 2);
    }
    let (mut good, mut bad) = (0, 0);
    if urgent.contains(&point) {
        good += 2;
    } else if hopeless.contains(&point) {
        bad += 1;
    }
    if chases.contains(&point) {
        good += 1;
    }
    let key = board.pattern_key(point);
    if last.is_some_and(|last| board.around(last).contains(&point)) && patterns::matches(key) {
        good += 1;
    }
    if on_first_line(board, point) && board.around(point).iter().all(|&p| !is_stone(board.colour(p))) {
        bad += 1;
    }
    (good, bad)
}

/// The liberties of every group in atari where `colour` may play without putting its own stones
/// in atari: taking an opponent's group, or giving one's own more liberties.
fn urgent_points(board: &Board, colour: u8) -> Vec<usize> {
    let mut urgent = Vec::new();
    let mut groups = Vec::new();
    for point in board.points() {
        if !is_stone(board.colour(point)) || groups.contains(&board.group_of(point)) {
            continue;
        }
        groups.push(board.group_of(point));
        if let Some(liberty) = atari_answer(board, point, colour) {
            if !urgent.contains(&liberty) {
                urgent.push(liberty);
            }
        }
    }
    urgent
}

/// Where `colour` would run a group of its own out of atari into a ladder that catches it, and
/// where it would put an opponent's group in atari that a ladder then catches.
fn ladder_points(board: &Board, colour: u8) -> (Vec<usize>, Vec<usize>) {
    let (mut hopeless, mut chases) = (Vec::new(), Vec::new());
    let mut groups = Vec::new();
    for point in board.points() {
        let stone = board.colour(point);
        if !is_stone(stone) || groups.contains(&board.group_of(point)) {
            continue;
        }
        groups.push(board.group_of(point));
        if stone == colour {
            if let Some(liberty) = board.atari_liberty(board.group_of(point)) {
                if !hopeless.contains(&liberty) && ladder::is_caught(board, point) {
                    hopeless.push(liberty);
                }
            }
            continue;
        }
        let Some(liberties) = board.two_liberties(point) else {
            continue;
        };
        for atari in liberties {
            if chases.contains(&atari)
                || board.ko() == Some(atari)
                || board.is_suicide(atari, colour)
                || board.self_atari_stones(atari, colour) > 0
            {
                continue;
            }
            let mut chased = board.clone();
            chased.place(atari, colour);
            if ladder::is_caught(&chased, point) {
                chases.push(atari);
            }
        }
    }
    (hopeless, chases)
}

fn is_stone(colour: u8) -> bool {
    colour == BLACK || colour == WHITE
}

fn on_first_line(board: &Board, point: usize) -> bool {
    let (row, col) = board.coords(point);
    let last = board.size() - 1;
    row == 0 || col == 0 || row == last || col == last
}

#[cfg(test)]
mod tests {
    use super::super::tests::after;
    use super::*;

    fn prior_at(game: &Go, vertex: &str) -> Prior {
        let moves = [GoMove::Play { at: vertex.parse().unwrap(), colour: None }];
        priors(game, &moves)[0]
    }

    fn mean(prior: Prior) -> f32 {
        prior.wins / prior.visits as f32
    }

    #[test]
    fn taking_a_group_in_atari_starts_better_than_an_ordinary_move() {
        // White's E4 has only E5 left; Black to move.
        let game = after(&["D4", "A1", "F4", "A2", "E3", "E4"]);
        assert!(mean(prior_at(&game, "E5")) > 0.7, "{:?}", prior_at(&game, "E5"));
        assert_eq!(mean(prior_at(&game, "G7")), 0.5);
    }

    #[test]
    fn putting_own_stones_in_atari_starts_worse() {
        // Black's D5 and E5 inside White's C5, D6, E6, D4, E4, F6 and G5: Black's F5 would join
        // them with F4 their only liberty, though it answers White's F6 with a shape.
        let game = after(&["D5", "C5", "E5", "D6", "A9", "E6", "A8", "D4", "A7", "E4", "A6", "G5", "A5", "F6"]);
        assert_eq!(game.board().self_atari_stones(game.point_of("F5".parse().unwrap()).unwrap(), BLACK), 3);
        assert!(mean(prior_at(&game, "F5")) < 0.3, "{:?}", prior_at(&game, "F5"));
    }

    #[test]
    fn the_first_line_with_nothing_near_starts_worse_and_a_shape_next_to_the_last_stone_better() {
        let game = after(&["E5", "E6"]);
        assert!(mean(prior_at(&game, "A5")) < 0.5);
        // Black's hane at D6 or F6 against White's E6 is a MoGo shape.
        let best = ["D6", "F6", "D7", "F7"].iter().map(|v| mean(prior_at(&game, v))).fold(0.0, f32::max);
        assert!(best > 0.5, "no shape point next to E6 starts better");
    }

    #[test]
    fn running_out_of_a_ladder_starts_worse_and_the_atari_that_starts_one_better() {
        // White's E5 against Black's E6, D5 and F4 (the far white stones are off the ladder's
        // path): Black's atari at F5 catches it, and after it running at E4 only adds stones (a
        // shape next to F5 all the same: even at best).
        let chase = after(&["E6", "E5", "D5", "J9", "F4", "J8"]);
        assert!(mean(prior_at(&chase, "F5")) > 0.5, "{:?}", prior_at(&chase, "F5"));
        let caught = after(&["E6", "E5", "D5", "J9", "F4", "J8", "F5"]);
        assert!(mean(prior_at(&caught, "E4")) <= 0.5, "{:?}", prior_at(&caught, "E4"));
        // With a white stone on the path the run is a rescue again.
        let broken = after(&["E6", "E5", "D5", "B2", "F4", "J8", "F5"]);
        assert!(mean(prior_at(&broken, "E4")) > 0.7, "{:?}", prior_at(&broken, "E4"));
    }

    #[test]
    fn a_pass_starts_even() {
        let game = after(&["E5"]);
        assert_eq!(priors(&game, &[GoMove::Pass { colour: None }]), vec![Prior { visits: EVEN, wins: 5.0 }]);
    }
}
