//! The scoring phase: the engine proposes dead stones (ownership from seeded light playouts), the
//! players toggle groups and both accept; then area scoring: stones plus empty regions that touch
//! only one colour, dead stones removed first, komi to white.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::board::{sort_points, Board, BLACK, EMPTY, WHITE};
use super::Go;

/// Areas by colour, komi included in white's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AreaScore {
    pub black: f64,
    pub white: f64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// Stones marked dead (board points).
    dead: Vec<usize>,
    /// Black has accepted the current marking, white has.
    accepted: [bool; 2],
}

/// Playouts for the ownership estimate.
const PLAYOUTS: u32 = 64;

impl Scoring {
    /// The engine's proposal: a group is dead when, in most light playouts from here, its points
    /// end as the opponent's area; groups alive by Benson's test are never proposed dead.
    pub fn propose(board: &Board) -> Scoring {
        let ownership = ownership(board);
        let safe = [unconditionally_alive(board, BLACK), unconditionally_alive(board, WHITE)].concat();
        let mut dead = Vec::new();
        for root in groups(board) {
            if safe.contains(&root) {
                continue;
            }
            let colour = board.colour(root);
            let sign = if colour == BLACK { 1 } else { -1 };
            let stones = board.group_stones(root);
            let own: i64 = stones.iter().map(|&s| sign * ownership[s]).sum();
            if own < 0 {
                dead.extend(stones);
            }
        }
        sort_points(&mut dead);
        Scoring { dead, accepted: [false; 2] }
    }

    /// A marking read back from a saved state.
    pub(super) fn restore(mut dead: Vec<usize>, accepted: [bool; 2]) -> Scoring {
        sort_points(&mut dead);
        Scoring { dead, accepted }
    }

    pub fn dead(&self) -> &[usize] {
        &self.dead
    }

    pub fn accepted(&self, colour: u8) -> bool {
        self.accepted[colour as usize - 1]
    }

    /// One point of every group (to toggle).
    pub fn groups(&self, board: &Board) -> Vec<usize> {
        groups(board)
    }

    /// Marks the group at `point` dead, or alive again; any earlier acceptance lapses.
    pub fn toggle(&mut self, board: &Board, point: usize) {
        let stones = board.group_stones(point);
        if self.dead.contains(&point) {
            self.dead.retain(|p| !stones.contains(p));
        } else {
            self.dead.extend(stones);
            sort_points(&mut self.dead);
        }
        self.accepted = [false; 2];
    }

    /// The area score with the stones marked dead removed.
    pub fn score(&self, board: &Board, komi: f64) -> AreaScore {
        area_score(board, &self.dead, komi)
    }

    /// `colour` accepts; once both have, the score.
    pub fn accept(&mut self, colour: u8, board: &Board, komi: f64) -> Option<AreaScore> {
        self.accepted[colour as usize - 1] = true;
        (self.accepted == [true, true]).then(|| area_score(board, &self.dead, komi))
    }
}

/// The representative (first in reading order) point of every group.
fn groups(board: &Board) -> Vec<usize> {
    let mut roots: Vec<usize> = Vec::new();
    // By point, not a set: a set's code was 1 KB of a Go room's first load.
    let mut seen = vec![false; super::board::MAX_POINTS];
    for point in board.points() {
        if board.colour(point) != EMPTY && !std::mem::replace(&mut seen[board.group_of(point)], true) {
            roots.push(point);
        }
    }
    roots
}

/// Per point: playouts ending black's minus white's (Tromp-Taylor ownership of the final board).
fn ownership(board: &Board) -> Vec<i64> {
    let mut total = vec![0i64; super::board::MAX_POINTS];
    // Xoshiro256++ everywhere: `SmallRng` is another generator on wasm32, and the room page, which
    // replays the game with its own copy of the engine, would then propose other dead stones.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(board.hash());
    for _ in 0..PLAYOUTS {
        let (end, _) = Go::playout_from(board, BLACK, &mut rng);
        let owners = area_owners(&end, &[]);
        for point in board.points() {
            total[point] += match owners[point] {
                BLACK => 1,
                WHITE => -1,
                _ => 0,
            };
        }
    }
    total
}

/// Who owns each point: its stone's colour, or the one colour an empty region touches (dead stones
/// count as empty).
pub(super) fn area_owners(board: &Board, dead: &[usize]) -> Vec<u8> {
    let colour = |p: usize| if dead.contains(&p) { EMPTY } else { board.colour(p) };
    let mut owner = vec![EMPTY; super::board::MAX_POINTS];
    let mut visited = vec![false; super::board::MAX_POINTS];
    for start in board.points() {
        let c = colour(start);
        if c != EMPTY {
            owner[start] = c;
            continue;
        }
        if visited[start] {
            continue;
        }
        let (mut region, mut touches, mut stack) = (Vec::new(), 0u8, vec![start]);
        visited[start] = true;
        while let Some(p) = stack.pop() {
            region.push(p);
            for n in board.neighbours(p).into_iter().filter(|&n| board.on_board(n)) {
                match colour(n) {
                    EMPTY if !visited[n] => {
                        visited[n] = true;
                        stack.push(n);
                    }
                    EMPTY => {}
                    c => touches |= c,
                }
            }
        }
        if touches == BLACK || touches == WHITE {
            for p in region {
                owner[p] = touches;
            }
        }
    }
    owner
}

pub(super) fn area_score(board: &Board, dead: &[usize], komi: f64) -> AreaScore {
    let owners = area_owners(board, dead);
    let count = |c: u8| board.points().filter(|&p| owners[p] == c).count() as f64;
    AreaScore { black: count(BLACK), white: count(WHITE) + komi }
}

/// The area score of a board as it stands (no dead stones), komi to white.
pub fn tromp_taylor(board: &Board, komi: f64) -> AreaScore {
    area_score(board, &[], komi)
}

/// Benson's algorithm: the stones of `colour` that are alive whatever the opponent does (even if
/// `colour` always passes). A chain needs two "vital" regions, each an enclosed region of non-own
/// points whose empty points are all its liberties, and every chain around such a region must be
/// alive too; chains and regions that fail are removed until nothing changes.
pub fn unconditionally_alive(board: &Board, colour: u8) -> Vec<usize> {
    let mut chains: Vec<usize> = groups(board).into_iter().filter(|&p| board.colour(p) == colour).collect();
    // Regions: maximal connected sets of points not of `colour`.
    let mut region_of = vec![usize::MAX; super::board::MAX_POINTS];
    let mut regions: Vec<Vec<usize>> = Vec::new();
    for start in board.points() {
        if board.colour(start) == colour || region_of[start] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut points = vec![start];
        region_of[start] = id;
        let mut i = 0;
        while i < points.len() {
            for n in board.neighbours(points[i]) {
                if board.on_board(n) && board.colour(n) != colour && region_of[n] == usize::MAX {
                    region_of[n] = id;
                    points.push(n);
                }
            }
            i += 1;
        }
        regions.push(points);
    }
    let chain_of = |p: usize| board.group_of(p);
    // The chains bordering each region, and whether each region is vital to each of them.
    let borders: Vec<Vec<usize>> = regions
        .iter()
        .map(|points| {
            let mut around: Vec<usize> = points
                .iter()
                .flat_map(|&p| board.neighbours(p))
                .filter(|&n| board.on_board(n) && board.colour(n) == colour)
                .map(chain_of)
                .collect();
            sort_points(&mut around);
            around
        })
        .collect();
    let vital = |region: usize, chain: usize| {
        regions[region].iter().filter(|&&p| board.colour(p) == EMPTY).all(|&p| {
            board.neighbours(p).iter().any(|&n| board.on_board(n) && board.colour(n) == colour && chain_of(n) == chain)
        })
    };
    let mut live_regions: Vec<bool> = vec![true; regions.len()];
    loop {
        let before = chains.len();
        chains.retain(|&root| {
            let chain = chain_of(root);
            let count = (0..regions.len())
                .filter(|&r| live_regions[r] && borders[r].contains(&chain) && vital(r, chain))
                .count();
            count >= 2
        });
        let alive: Vec<usize> = chains.iter().map(|&root| chain_of(root)).collect();
        for (r, around) in borders.iter().enumerate() {
            if live_regions[r] && !around.iter().all(|c| alive.contains(c)) {
                live_regions[r] = false;
            }
        }
        if chains.len() == before {
            break;
        }
    }
    let mut stones: Vec<usize> = chains.into_iter().flat_map(|root| board.group_stones(root)).collect();
    sort_points(&mut stones);
    stones
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::go::board::tests::board;

    #[test]
    fn two_eyes_live_unconditionally_and_one_eye_does_not() {
        let two_eyes = board(&["X.X.X", "XXXXX", ".....", ".....", ".O..."]);
        assert_eq!(unconditionally_alive(&two_eyes, BLACK).len(), 8);
        assert!(unconditionally_alive(&two_eyes, WHITE).is_empty());
        let one_eye = board(&["X.XXX", "XXXXX", ".....", ".....", ".O..."]);
        assert!(unconditionally_alive(&one_eye, BLACK).is_empty());
        // An eye holding an enemy stone is still vital if its empty points are all liberties.
        let stone_in_eye = board(&["XOX.X", "XXXXX", ".....", ".....", "....."]);
        assert_eq!(unconditionally_alive(&stone_in_eye, BLACK).len(), 8);
    }

    #[test]
    fn the_proposal_never_kills_an_unconditionally_alive_group() {
        // White's two-eyed group in black's area: playouts could not take it.
        let settled = board(&[".X.O.O.", "XXXOOOO", ".X.X...", "XXXX...", ".......", ".......", "......."]);
        let proposal = Scoring::propose(&settled);
        let alive = unconditionally_alive(&settled, WHITE);
        assert!(!alive.is_empty());
        assert!(alive.iter().all(|p| !proposal.dead().contains(p)));
    }
}
