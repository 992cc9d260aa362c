//! The nakade exception to the playouts' self-atari rule (Pachi and Fuego make it): stones put in
//! atari inside the opponent's eye space are worth playing when their capture leaves one eye the
//! opponent cannot split. Without it a playout never fills a big eye to kill the group around it,
//! and both sides pass with that group counted alive.

use crate::go::Board;

/// Whether `colour` at the empty `point`, where it puts two or more of its own stones in atari
/// (the caller knows), makes a group whose capture leaves a dead shape: the points it empties are
/// then one eye space with the capturing stone beside it.
pub(super) fn is_nakade(board: &Board, point: usize, colour: u8) -> bool {
    let mut stones = [(0, 0); 5];
    stones[0] = board.coords(point);
    let mut count = 1;
    for n in board.neighbours(point) {
        if board.colour(n) != colour || stones[..count].contains(&board.coords(n)) {
            continue;
        }
        for stone in board.group_stones(n) {
            if count == stones.len() {
                return false;
            }
            stones[count] = board.coords(stone);
            count += 1;
        }
    }
    is_dead_shape(&stones[..count])
}

/// Whether an eye space of these points (row, column), connected, is one the side inside cannot
/// make two eyes of once the other side plays its vital point: any of 2 or 3 points, the square
/// and the T of 4, the bulky five and the cross of 5.
fn is_dead_shape(points: &[(usize, usize)]) -> bool {
    let mut pairs = 0;
    let mut most_neighbours = 0;
    for &(row, col) in points {
        let neighbours = points.iter().filter(|&&(r, c)| row.abs_diff(r) + col.abs_diff(c) == 1).count();
        pairs += neighbours;
        most_neighbours = most_neighbours.max(neighbours);
    }
    pairs /= 2;
    match points.len() {
        2 | 3 => true,
        4 => pairs == 4 || most_neighbours == 3,
        5 => pairs == 5 || most_neighbours == 4,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{BLACK, WHITE};

    #[test]
    fn dead_shapes_are_the_small_ones_the_square_the_t_the_bulky_five_and_the_cross() {
        let dead: [&[(usize, usize)]; 6] = [
            &[(0, 0), (0, 1)],
            &[(0, 0), (1, 0), (1, 1)],
            &[(0, 0), (0, 1), (1, 0), (1, 1)],
            &[(0, 1), (1, 0), (1, 1), (1, 2)],
            &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)],
            &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        ];
        for shape in dead {
            assert!(is_dead_shape(shape), "{shape:?} is dead");
        }
        // Straight and bent fours, the long L and the T of five leave room for two eyes; six
        // points are never counted.
        let alive: [&[(usize, usize)]; 5] = [
            &[(0, 0), (0, 1), (0, 2), (0, 3)],
            &[(0, 0), (1, 0), (2, 0), (2, 1)],
            &[(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)],
            &[(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
            &[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)],
        ];
        for shape in alive {
            assert!(!is_dead_shape(shape), "{shape:?} is alive");
        }
    }

    #[test]
    fn the_group_judged_is_the_move_with_the_own_groups_it_joins() {
        // Black (0,0)-(0,1) inside White's corner: (0,2) makes a straight three with (0,3) left.
        let mut board = Board::new(6);
        for (row, col) in [(0, 0), (0, 1)] {
            board.place(board.point(row, col), BLACK);
        }
        for (row, col) in [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (0, 4)] {
            board.place(board.point(row, col), WHITE);
        }
        assert_eq!(board.self_atari_stones(board.point(0, 2), BLACK), 3);
        assert!(is_nakade(&board, board.point(0, 2), BLACK));
        // With one more point in the corner it makes a straight four, from which White can make
        // two eyes.
        let mut wider = Board::new(6);
        for (row, col) in [(0, 0), (0, 1), (0, 2)] {
            wider.place(wider.point(row, col), BLACK);
        }
        for (row, col) in [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (0, 5)] {
            wider.place(wider.point(row, col), WHITE);
        }
        assert_eq!(wider.self_atari_stones(wider.point(0, 3), BLACK), 4);
        assert!(!is_nakade(&wider, wider.point(0, 3), BLACK));
    }
}
