//! The Go board: a padded one-dimensional array, groups as circular stone lists with pseudo-liberty
//! counts, and Zobrist hashing. A group's pseudo-liberties (each stone-empty adjacency counted once)
//! are zero exactly when it has no liberty; their sum and sum of squares also tell, exactly, when
//! all of them are one point (atari), which is what legality needs.

/// Point colours on the board array.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
const BORDER: u8 = 3;

pub const MAX_SIZE: usize = 19;
const STRIDE_MAX: usize = MAX_SIZE + 2;
pub const MAX_POINTS: usize = STRIDE_MAX * STRIDE_MAX;

/// The Zobrist key of a `colour` stone on `point`: splitmix64 of the point's place in a fixed
/// sequence, so hashes are reproducible.
const fn zobrist_key(colour: u8, point: usize) -> u64 {
    let index = (colour as u64 - 1) * MAX_POINTS as u64 + point as u64 + 1;
    let mut z = 0x7AB1_1A60_5EED_0001u64.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Natively the keys are a table made at compile time (a load is cheaper than the mixing in the
/// playout loops); in the browser they are computed, since 7 KB of random numbers do not compress
/// and the site's page budget counts every kilobyte.
#[cfg(not(target_arch = "wasm32"))]
static ZOBRIST: [[u64; MAX_POINTS]; 2] = {
    let mut keys = [[0u64; MAX_POINTS]; 2];
    let mut point = 0;
    while point < MAX_POINTS {
        keys[0][point] = zobrist_key(BLACK, point);
        keys[1][point] = zobrist_key(WHITE, point);
        point += 1;
    }
    keys
};

#[inline]
fn zobrist(colour: u8, point: usize) -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    return ZOBRIST[colour as usize - 1][point];
    #[cfg(target_arch = "wasm32")]
    zobrist_key(colour, point)
}

/// Sorts `points` and drops repeats.
pub(crate) fn sort_points(points: &mut Vec<usize>) {
    crate::small_sort::sort_small_by(points, |a, b| a < b);
    points.dedup();
}

pub fn opponent(colour: u8) -> u8 {
    3 - colour
}

#[derive(Clone, Debug)]
pub struct Board {
    size: usize,
    stride: usize,
    colour: [u8; MAX_POINTS],
    /// The representative stone of each stone's group.
    group: [u16; MAX_POINTS],
    /// The next stone of the same group (a circular list).
    next: [u16; MAX_POINTS],
    // Per representative: stones, pseudo-liberties, their sum and sum of squares.
    stones: [u16; MAX_POINTS],
    libs: [u16; MAX_POINTS],
    lib_sum: [u32; MAX_POINTS],
    lib_sq: [u64; MAX_POINTS],
    /// The empty points, in no order, and where each sits in that list.
    empty: Vec<u16>,
    empty_at: [u16; MAX_POINTS],
    hash: u64,
    /// The point simple ko forbids for the side to move next (0: none).
    ko: u16,
    /// Stones captured by black and by white.
    captures: [u32; 2],
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.colour == other.colour && self.ko == other.ko && self.captures == other.captures
    }
}

impl Eq for Board {}

impl Board {
    pub fn new(size: usize) -> Board {
        assert!((2..=MAX_SIZE).contains(&size));
        let stride = size + 2;
        let mut board = Board {
            size,
            stride,
            colour: [BORDER; MAX_POINTS],
            group: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            stones: [0; MAX_POINTS],
            libs: [0; MAX_POINTS],
            lib_sum: [0; MAX_POINTS],
            lib_sq: [0; MAX_POINTS],
            empty: Vec::with_capacity(size * size),
            empty_at: [0; MAX_POINTS],
            hash: 0,
            ko: 0,
            captures: [0; 2],
        };
        for row in 0..size {
            for col in 0..size {
                let p = board.point(row, col);
                board.colour[p] = EMPTY;
                board.empty_at[p] = board.empty.len() as u16;
                board.empty.push(p as u16);
            }
        }
        board
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The array index of (row, col), row 0 at the top.
    pub fn point(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.stride + col + 1
    }

    /// (row, col) of an on-board array index.
    pub fn coords(&self, point: usize) -> (usize, usize) {
        (point / self.stride - 1, point % self.stride - 1)
    }

    pub fn colour(&self, point: usize) -> u8 {
        self.colour[point]
    }

    pub fn on_board(&self, point: usize) -> bool {
        point < MAX_POINTS && self.colour[point] != BORDER
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn ko(&self) -> Option<usize> {
        (self.ko != 0).then_some(self.ko as usize)
    }

    /// Sets the counters a saved state carries (captures by black and white, the ko point).
    pub fn set_counters(&mut self, captures: [u32; 2], ko: Option<usize>) {
        self.captures = captures;
        self.ko = ko.unwrap_or(0) as u16;
    }

    pub fn clear_ko(&mut self) {
        self.ko = 0;
    }

    pub fn captures(&self, colour: u8) -> u32 {
        self.captures[colour as usize - 1]
    }

    pub fn empties(&self) -> &[u16] {
        &self.empty
    }

    /// Every on-board point, top row first.
    pub fn points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.size).flat_map(move |row| (0..self.size).map(move |col| self.point(row, col)))
    }

    pub fn neighbours(&self, point: usize) -> [usize; 4] {
        [point - self.stride, point - 1, point + 1, point + self.stride]
    }

    pub fn group_of(&self, point: usize) -> usize {
        self.group[point] as usize
    }

    /// The stones of the group `point` belongs to.
    pub fn group_stones(&self, point: usize) -> Vec<usize> {
        let mut stones = Vec::new();
        let mut stone = point;
        loop {
            stones.push(stone);
            stone = self.next[stone] as usize;
            if stone == point {
                return stones;
            }
        }
    }

    /// The group's liberties (exact, sorted).
    pub fn liberties(&self, point: usize) -> Vec<usize> {
        let mut libs: Vec<usize> = self
            .group_stones(point)
            .into_iter()
            .flat_map(|s| self.neighbours(s))
            .filter(|&n| self.colour[n] == EMPTY)
            .collect();
        sort_points(&mut libs);
        libs
    }

    /// The group's two liberties, if it has exactly two.
    pub fn two_liberties(&self, point: usize) -> Option<[usize; 2]> {
        let group = self.group[point] as usize;
        // Each liberty touches at most four of the group's stones: two give at most eight.
        if self.libs[group] > 8 {
            return None;
        }
        let mut found = [0usize; 2];
        let mut count = 0;
        let mut stone = group;
        loop {
            for n in self.neighbours(stone) {
                if self.colour[n] == EMPTY && !found[..count].contains(&n) {
                    if count == 2 {
                        return None;
                    }
                    found[count] = n;
                    count += 1;
                }
            }
            stone = self.next[stone] as usize;
            if stone == group {
                break;
            }
        }
        (count == 2).then_some(found)
    }

    /// Whether the group of `point` has `lib` as its only liberty.
    fn in_atari_at(&self, group: usize, lib: usize) -> bool {
        self.atari_liberty(group) == Some(lib)
    }

    /// The only liberty of the group whose representative is `group`, if it has just one: all its
    /// pseudo-liberties are then the same point (their sum squared is their count times the sum of
    /// their squares).
    pub fn atari_liberty(&self, group: usize) -> Option<usize> {
        let (n, sum, sq) = (self.libs[group] as u64, self.lib_sum[group] as u64, self.lib_sq[group]);
        (n > 0 && n * sq == sum * sum).then(|| (sum / n) as usize)
    }

    /// Placing `colour` at the empty `point` would leave its group without liberties and capture nothing.
    pub fn is_suicide(&self, point: usize, colour: u8) -> bool {
        let enemy = opponent(colour);
        for n in self.neighbours(point) {
            let c = self.colour[n];
            if c == EMPTY {
                return false;
            }
            if c == colour && !self.in_atari_at(self.group[n] as usize, point) {
                return false;
            }
            if c == enemy && self.in_atari_at(self.group[n] as usize, point) {
                return false;
            }
        }
        true
    }

    /// The position hash after `colour` plays the (legal, non-suicide) `point`.
    pub fn hash_after(&self, point: usize, colour: u8) -> u64 {
        let enemy = opponent(colour);
        let mut hash = self.hash ^ zobrist(colour, point);
        let mut captured: [usize; 4] = [0; 4];
        for (i, n) in self.neighbours(point).into_iter().enumerate() {
            if self.colour[n] != enemy {
                continue;
            }
            let g = self.group[n] as usize;
            if self.in_atari_at(g, point) && !captured[..i].contains(&g) {
                captured[i] = g;
                for stone in self.group_stones(g) {
                    hash ^= zobrist(enemy, stone);
                }
            }
        }
        hash
    }

    /// The colours of the eight points around `point`, two bits each (NW, N, NE, W, E, SW, S, SE
    /// from the lowest bits; the edge is 3): the key of its 3x3 pattern.
    pub fn pattern_key(&self, point: usize) -> u16 {
        self.around(point).iter().enumerate().fold(0, |key, (i, &p)| key | (self.colour[p] as u16) << (2 * i))
    }

    /// The eight points around `point` (on the board or not).
    pub fn around(&self, point: usize) -> [usize; 8] {
        let s = self.stride;
        [point - s - 1, point - s, point - s + 1, point - 1, point + 1, point + s - 1, point + s, point + s + 1]
    }

    /// How many stones `colour` playing the empty `point` (not suicide) would leave in atari: the
    /// group it makes, when that has one liberty and the move captures nothing; 0 otherwise.
    pub fn self_atari_stones(&self, point: usize, colour: u8) -> u32 {
        let enemy = opponent(colour);
        // The one liberty found so far; a second different one ends the question.
        let mut found = None;
        let mut second = |lib: usize| {
            if lib == point || found == Some(lib) {
                return false;
            }
            found.is_some() || {
                found = Some(lib);
                false
            }
        };
        // The cheap answers first: two empty neighbours, or a capture.
        for n in self.neighbours(point) {
            let c = self.colour[n];
            if (c == EMPTY && second(n)) || (c == enemy && self.in_atari_at(self.group[n] as usize, point)) {
                return 0;
            }
        }
        let mut own = [0usize; 4];
        let mut stones = 1;
        for (i, n) in self.neighbours(point).into_iter().enumerate() {
            let c = self.colour[n];
            let group = self.group[n] as usize;
            if c == colour && !own[..i].contains(&group) {
                own[i] = group;
                stones += self.stones[group] as u32;
                // A group in atari has only this point left; any other has a second liberty, so walk it.
                if self.atari_liberty(group).is_some() {
                    continue;
                }
                let mut stone = group;
                loop {
                    for m in self.neighbours(stone) {
                        if self.colour[m] == EMPTY && second(m) {
                            return 0;
                        }
                    }
                    stone = self.next[stone] as usize;
                    if stone == group {
                        break;
                    }
                }
            }
        }
        stones
    }

    /// The liberties, counted up to `cap` (a larger cap counts 4 at most), of the group `colour`
    /// playing the empty `point` would make, not counting what the move would capture.
    pub fn liberties_after(&self, point: usize, colour: u8, cap: usize) -> usize {
        let mut found = [0usize; 4];
        let cap = cap.min(found.len());
        let mut count = 0;
        let mut add = |lib: usize| {
            if lib != point && !found[..count].contains(&lib) {
                found[count] = lib;
                count += 1;
            }
            count >= cap
        };
        let mut own = [0usize; 4];
        for (i, n) in self.neighbours(point).into_iter().enumerate() {
            let c = self.colour[n];
            if c == EMPTY && add(n) {
                return cap;
            }
            let group = self.group[n] as usize;
            if c != colour || own[..i].contains(&group) {
                continue;
            }
            own[i] = group;
            let mut stone = group;
            loop {
                for m in self.neighbours(stone) {
                    if self.colour[m] == EMPTY && add(m) {
                        return cap;
                    }
                }
                stone = self.next[stone] as usize;
                if stone == group {
                    break;
                }
            }
        }
        count
    }

    /// Whether `colour` at `point` fills one of its own single-point eyes (all four sides its own
    /// stones or the edge, and at most one own diagonal missing, none off a side edge).
    pub fn is_own_eye(&self, point: usize, colour: u8) -> bool {
        if self.neighbours(point).iter().any(|&n| self.colour[n] != colour && self.colour[n] != BORDER) {
            return false;
        }
        let diagonals =
            [point - self.stride - 1, point - self.stride + 1, point + self.stride - 1, point + self.stride + 1];
        let (mut enemy, mut edge) = (0, false);
        for d in diagonals {
            match self.colour[d] {
                BORDER => edge = true,
                c if c == opponent(colour) => enemy += 1,
                _ => {}
            }
        }
        enemy == 0 || (!edge && enemy == 1)
    }

    /// Plays `colour` at `point`, which the caller checked is empty, not ko and not suicide.
    pub fn place(&mut self, point: usize, colour: u8) {
        debug_assert_eq!(self.colour[point], EMPTY, "placing on an occupied point");
        let enemy = opponent(colour);
        self.set_stone(point, colour);
        self.group[point] = point as u16;
        self.next[point] = point as u16;
        self.stones[point] = 1;
        self.libs[point] = 0;
        self.lib_sum[point] = 0;
        self.lib_sq[point] = 0;
        for n in self.neighbours(point) {
            match self.colour[n] {
                EMPTY => self.add_lib(point, n),
                BORDER => {}
                _ => {
                    let g = self.group[n] as usize;
                    self.remove_lib(g, point);
                }
            }
        }
        let mut captured_stones = 0;
        let mut captured_at = 0;
        for n in self.neighbours(point) {
            let c = self.colour[n];
            if c == colour {
                let (a, b) = (self.group[point] as usize, self.group[n] as usize);
                if a != b {
                    self.merge(a, b);
                }
            } else if c == enemy && self.libs[self.group[n] as usize] == 0 {
                let g = self.group[n] as usize;
                captured_stones += self.capture(g, colour);
                captured_at = n;
            }
        }
        self.captures[colour as usize - 1] = self.captures[colour as usize - 1].saturating_add(captured_stones);
        let g = self.group[point] as usize;
        self.ko = if captured_stones == 1 && self.stones[g] == 1 && self.in_atari_at(g, captured_at) {
            captured_at as u16
        } else {
            0
        };
    }

    fn set_stone(&mut self, point: usize, colour: u8) {
        self.colour[point] = colour;
        self.hash ^= zobrist(colour, point);
        let at = self.empty_at[point] as usize;
        let last = self.empty.pop().expect("the point was empty");
        if last as usize != point {
            self.empty[at] = last;
            self.empty_at[last as usize] = at as u16;
        }
    }

    fn add_lib(&mut self, group: usize, lib: usize) {
        self.libs[group] += 1;
        self.lib_sum[group] += lib as u32;
        self.lib_sq[group] += (lib * lib) as u64;
    }

    fn remove_lib(&mut self, group: usize, lib: usize) {
        self.libs[group] -= 1;
        self.lib_sum[group] -= lib as u32;
        self.lib_sq[group] -= (lib * lib) as u64;
    }

    /// Joins two groups; the smaller is relabelled.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.stones[a] >= self.stones[b] { (a, b) } else { (b, a) };
        let mut stone = small;
        loop {
            self.group[stone] = big as u16;
            stone = self.next[stone] as usize;
            if stone == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.stones[big] += self.stones[small];
        self.libs[big] += self.libs[small];
        self.lib_sum[big] += self.lib_sum[small];
        self.lib_sq[big] += self.lib_sq[small];
    }

    /// Removes a group; its neighbours of colour `by` gain the freed points. Returns its size.
    fn capture(&mut self, group: usize, by: u8) -> u32 {
        let colour = self.colour[group];
        let mut count = 0;
        let mut stone = group;
        loop {
            let next = self.next[stone] as usize;
            self.colour[stone] = EMPTY;
            self.hash ^= zobrist(colour, stone);
            self.empty_at[stone] = self.empty.len() as u16;
            self.empty.push(stone as u16);
            count += 1;
            for n in self.neighbours(stone) {
                if self.colour[n] == by {
                    let g = self.group[n] as usize;
                    self.add_lib(g, stone);
                }
            }
            stone = next;
            if stone == group {
                return count;
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The keys are the ones the first version generated in sequence (its loop, kept here), so
    /// hashes, and the dead-stone proposals seeded by them, did not change when the table went.
    #[test]
    fn keys_are_the_first_versions_sequence() {
        let mut state: u64 = 0x7AB1_1A60_5EED_0001;
        for colour in [BLACK, WHITE] {
            for point in 0..MAX_POINTS {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                let key = z ^ (z >> 31);
                assert_eq!(zobrist_key(colour, point), key);
                assert_eq!(zobrist(colour, point), key);
            }
        }
    }

    /// A board from rows of `X` (black), `O` (white) and `.`, top row first (for the go tests).
    pub(in crate::go) fn board(rows: &[&str]) -> Board {
        let mut board = Board::new(rows.len());
        for (row, text) in rows.iter().enumerate() {
            for (col, c) in text.chars().enumerate() {
                let colour = match c {
                    'X' => BLACK,
                    'O' => WHITE,
                    _ => continue,
                };
                board.place(board.point(row, col), colour);
            }
        }
        board
    }

    #[test]
    fn self_atari_counts_the_stones_left_with_one_liberty() {
        let b = board(&[
            ".XO..", //
            "XO...", //
            ".....", //
            "..XX.", //
            ".XOO.",
        ]);
        // White at (4,4) joins (4,2)-(4,3), whose last liberty it was: three stones left with (3,4).
        assert_eq!(b.self_atari_stones(b.point(4, 4), WHITE), 3);
        // Black there captures them instead.
        assert_eq!(b.self_atari_stones(b.point(4, 4), BLACK), 0);
        // White at (4,0) touches black (4,1), which keeps (3,1): one white stone with (3,0).
        assert_eq!(b.self_atari_stones(b.point(4, 0), WHITE), 1);
        // Black at (0,0) joins (0,1), in atari there, and (1,0): three stones with (2,0) only.
        assert_eq!(b.self_atari_stones(b.point(0, 0), BLACK), 3);
        // White at (0,0) captures (0,1).
        assert_eq!(b.self_atari_stones(b.point(0, 0), WHITE), 0);
        // Open points: (2,2) has four empty neighbours, (2,1) beside white (1,1) three.
        assert_eq!(b.self_atari_stones(b.point(2, 2), BLACK), 0);
        assert_eq!(b.self_atari_stones(b.point(2, 1), BLACK), 0);
    }

    #[test]
    fn self_atari_counts_a_group_met_on_several_sides_once_and_walks_it_for_liberties() {
        // Black's U-shaped group of 7 has (0,2) and (1,2); playing (1,2) meets it on three sides
        // and leaves 8 stones with (0,2) only.
        let closed = board(&[
            "OX.XO", //
            "OX.XO", //
            "OXXXO", //
            "OOOOO", //
            ".....",
        ]);
        assert_eq!(closed.self_atari_stones(closed.point(1, 2), BLACK), 8);
        // With (2,4) open, the group keeps a liberty that only walking its stones finds.
        let open = board(&[
            "OX.XO", //
            "OX.XO", //
            "OXXX.", //
            "OOOOO", //
            ".....",
        ]);
        assert_eq!(open.self_atari_stones(open.point(1, 2), BLACK), 0);
    }

    #[test]
    fn liberties_after_count_the_joined_groups_once_up_to_the_cap() {
        let b = board(&[
            "XO...", //
            ".X...", //
            "X.X..", //
            ".....", //
            ".....",
        ]);
        // Black at (1,0) joins (0,0), (1,1) and (2,0), which touch (1,2), (2,1) twice and (3,0).
        assert_eq!(b.liberties_after(b.point(1, 0), BLACK, 4), 3);
        assert_eq!(b.liberties_after(b.point(1, 0), BLACK, 2), 2);
        // White there touches only black stones: the capture of (0,0) is not counted.
        assert_eq!(b.liberties_after(b.point(1, 0), WHITE, 4), 0);
        // An open point: four.
        assert_eq!(b.liberties_after(b.point(3, 3), WHITE, 4), 4);
        // A cap above 4 counts 4 at most (the big group here has 6), where it once wrote past its list.
        assert_eq!(b.liberties_after(b.point(2, 1), BLACK, 9), 4);
    }

    #[test]
    fn two_liberties_are_found_only_when_there_are_exactly_two() {
        let b = board(&[
            "XO...", //
            "XX...", //
            "O.X..", //
            ".....", //
            ".....",
        ]);
        let two = |row, col| {
            b.two_liberties(b.point(row, col)).map(|libs| {
                let mut libs = libs.map(|p| b.coords(p));
                libs.sort();
                libs
            })
        };
        // The black group of three touches (1,2) and (2,1); White's (2,0) has (2,1) and (3,0).
        assert_eq!(two(0, 0), Some([(1, 2), (2, 1)]));
        assert_eq!(two(2, 0), Some([(2, 1), (3, 0)]));
        // One liberty, and four.
        assert_eq!(two(0, 1), None);
        assert_eq!(two(2, 2), None);
    }
}
