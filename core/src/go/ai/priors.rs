//! What the tree knows of a Go move before searching it, after Gelly and Silver ("Combining
//! online and offline knowledge in UCT", 2007) as Pachi weighs it: every move starts even; taking a
//! group in atari, saving one's own, a MoGo shape next to the last stone, and a point near the last
//! stone (counting its group as one point) start as good; putting two or more of one's own stones
//! in atari, and a move on the first line with nothing near, start as bad. Without them the tree
//! spends a new position's first playouts on every point in turn.

use crate::ai::Prior;
use crate::go::{Board, Go, GoMove, BLACK, EMPTY, MAX_POINTS, WHITE};

use super::{atari_answer, patterns};

/// Made-up playouts every move starts with, half of them won.
const EVEN: u32 = 10;
/// Made-up playouts a piece of knowledge adds: all won for a good sign, all lost for a bad one.
const SIGN: u32 = 10;
/// Made-up won playouts of a point at each distance from the last stone in the common fate graph
/// (a group is one point: its liberties are at 1, theirs at 2): Pachi's weights for small boards
/// (45, 40, 15 to an even 14), scaled to [`EVEN`]. Most good answers are local.
const NEAR: [u32; 4] = [0, 32, 28, 10];

/// One [`Prior`] for each of `moves` in `game`.
pub fn priors(game: &Go, moves: &[GoMove]) -> Vec<Prior> {
    let board = game.board();
    let colour = game.to_move();
    let urgent = urgent_points(board, colour);
    let last = game.last_stone();
    let distance = last.map(|last| distances_from(board, last));
    moves
        .iter()
        .map(|mv| {
            let point = match *mv {
                GoMove::Play { at, .. } => game.point_of(at),
                _ => None,
            };
            let (good, bad) = point.map_or((0, 0), |point| signs(board, colour, point, last, &urgent));
            let near = match (point, &distance) {
                (Some(point), Some(distance)) if bad == 0 => NEAR.get(distance[point] as usize).copied().unwrap_or(0),
                _ => 0,
            };
            Prior { visits: EVEN + SIGN * (good + bad) + near, wins: (EVEN / 2 + SIGN * good + near) as f32 }
        })
        .collect()
}

/// The good and bad signs of `colour` playing `point`.
fn signs(board: &Board, colour: u8, point: usize, last: Option<usize>, urgent: &[usize]) -> (u32, u32) {
    // A shape or a rescue that leaves one's own stones in atari is none.
    if board.self_atari_stones(point, colour) >= 2 {
        return (0, 2);
    }
    let (mut good, mut bad) = (0, 0);
    if urgent.contains(&point) {
        good += 2;
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

/// Each point's distance from `last` in the common fate graph, where a group is one point, up to
/// the last of [`NEAR`] (`u8::MAX` beyond): `last`'s group 0, its liberties and the groups next to
/// it 1, and so on.
fn distances_from(board: &Board, last: usize) -> [u8; MAX_POINTS] {
    let mut distance = [u8::MAX; MAX_POINTS];
    let mut frontier = Vec::new();
    reach(board, last, 0, &mut distance, &mut frontier);
    for step in 1..NEAR.len() as u8 {
        let mut next = Vec::new();
        for &point in &frontier {
            for neighbour in board.neighbours(point) {
                let colour = board.colour(neighbour);
                if distance[neighbour] == u8::MAX && (colour == EMPTY || is_stone(colour)) {
                    reach(board, neighbour, step, &mut distance, &mut next);
                }
            }
        }
        frontier = next;
    }
    distance
}

/// Sets `point` (with its whole group if it is a stone) at `step`, adding it to `frontier`.
fn reach(board: &Board, point: usize, step: u8, distance: &mut [u8; MAX_POINTS], frontier: &mut Vec<usize>) {
    let points = if is_stone(board.colour(point)) { board.group_stones(point) } else { vec![point] };
    for point in points {
        distance[point] = step;
        frontier.push(point);
    }
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
    fn points_near_the_last_stone_count_its_group_as_one_point_and_start_better() {
        // Black's C5, D5 and E5 (E5 the last stone) and White's G5.
        let game = after(&["C5", "A1", "D5", "G5", "E5"]);
        let board = game.board();
        let at = |vertex: &str| game.point_of(vertex.parse().unwrap()).unwrap();
        let distance = distances_from(board, at("E5"));
        assert_eq!(distance[at("C5")], 0, "the last stone's group");
        assert_eq!(distance[at("B5")], 1, "a liberty at the group's far end");
        assert_eq!(distance[at("A5")], 2);
        assert_eq!(distance[at("G5")], 2, "a group next to a liberty");
        assert_eq!(distance[at("G6")], 3, "a liberty of that group");
        assert_eq!(distance[at("J9")], u8::MAX);
        assert_eq!(distance[at("B4")], 2);
        assert!(mean(prior_at(&game, "B5")) > mean(prior_at(&game, "B4")));
        assert!(mean(prior_at(&game, "B4")) > mean(prior_at(&game, "G6")));
        assert!(mean(prior_at(&game, "G6")) > mean(prior_at(&game, "H8")));
    }

    #[test]
    fn a_pass_starts_even() {
        let game = after(&["E5"]);
        assert_eq!(priors(&game, &[GoMove::Pass { colour: None }]), vec![Prior { visits: EVEN, wins: 5.0 }]);
    }
}
