//! Go for the search: a board point is the same move wherever it is played, playouts answer the
//! last move's ataris and shapes and otherwise play random points that neither fill one's own eye
//! nor put stones in atari, scored by area; the tree starts each move from what is seen at once
//! ([`priors`]), never fills its own eyes and never resigns. The scoring phase is not searched:
//! [`scoring_move`] answers it.

mod ladder;
mod patterns;
mod priors;

use rand::RngCore;

use crate::ai::{AiRng, Prior, Searchable};
use crate::game::{Game, Seat};
use crate::go::{tromp_taylor, Board, Go, GoMove, Scoring, BLACK, EMPTY, MAX_POINTS, WHITE};

impl Searchable for Go {
    const TOP_PLAYOUTS: u32 = 32_000;
    /// None, as Fuego plays Go: the priors and the shared statistics spread the search (with 0.25,
    /// 64-36 against GNU Go level 10; with none, 72-28: docs/AI.md).
    const RAVE_EXPLORATION: f32 = 0.0;

    fn key_space(&self) -> usize {
        MAX_POINTS
    }

    fn move_key(&self, mv: &GoMove) -> Option<usize> {
        match *mv {
            GoMove::Play { at, .. } => self.point_of(at),
            _ => None,
        }
    }

    fn candidate_moves(&self) -> Vec<GoMove> {
        if self.status().is_over() || self.scoring().is_some() {
            return Vec::new();
        }
        let colour = self.to_move();
        let mut moves: Vec<GoMove> = self
            .board()
            .points()
            .filter(|&p| !self.board().is_own_eye(p, colour) && self.check_point(p, colour).is_ok())
            .map(|point| GoMove::Play { at: self.vertex_of(point), colour: None })
            .collect();
        moves.push(GoMove::Pass { colour: None });
        moves
    }

    fn priors(&self, moves: &[GoMove]) -> Option<Vec<Prior>> {
        Some(priors::priors(self, moves))
    }

    /// The scoring phase is not searched: [`scoring_move`] answers it.
    fn unsearched_move(&self, seat: Option<Seat>) -> Option<Option<GoMove>> {
        self.scoring()?;
        let seat = seat.or(self.status().to_move()).unwrap_or(Seat::One);
        Some(scoring_move(self, seat))
    }

    /// Two passes settle the search's game: the scoring phase is counted, not played.
    fn is_settled(&self) -> bool {
        self.status().is_over() || self.scoring().is_some()
    }

    fn playout(&self, rng: &mut AiRng, uniform: bool, played: &mut dyn FnMut(Seat, usize)) -> f32 {
        if let Some(reward) = crate::ai::reward(&self.status()) {
            return reward;
        }
        // Two passes end the search's game: the board is counted as a referee would, without the
        // stones the engine's proposal (made when the second pass was played) calls dead. Counted
        // as it stands, a hopeless group inside the opponent's area would count as alive and the
        // search would pass while losing everything.
        let score = match self.scoring() {
            Some(marking) => marking.score(self.board(), self.config().komi),
            None => {
                let mut seat_played =
                    |colour: u8, point: usize| played(Seat::from_number(colour).expect("1 or 2"), point);
                type Policy = fn(&Board, u8, Option<usize>, &mut AiRng) -> Option<usize>;
                let policy: Policy = if uniform { light_point } else { playout_point };
                let (end, _) =
                    Go::playout_with(self.board(), self.to_move(), self.last_stone(), rng, policy, &mut seat_played);
                tromp_taylor(&end, self.config().komi)
            }
        };
        if score.black > score.white {
            1.0
        } else if score.white > score.black {
            0.0
        } else {
            0.5
        }
    }
}

/// The playouts' move, after MoGo's (as Pachi plays them): what a player sees at once around the
/// last move (taking a group it left in atari, saving one's own group it put in atari when that
/// gains liberties and no ladder catches it), else a MoGo shape on one of the eight points around
/// it, else the first point from a random place in the list of empty ones that neither fills one's
/// own eye nor puts two or more of one's own stones in atari. Without these, random playouts let
/// big groups die for nothing and misjudge every fight.
fn playout_point(board: &Board, colour: u8, last: Option<usize>, rng: &mut AiRng) -> Option<usize> {
    if let Some(last) = last {
        let mut urgent = [0usize; 8];
        let mut count = 0;
        // Each group once: reading a ladder is not free.
        let mut groups = [0usize; 5];
        for (i, point) in std::iter::once(last).chain(board.neighbours(last)).enumerate() {
            if matches!(board.colour(point), BLACK | WHITE) {
                groups[i] = board.group_of(point);
                if groups[..i].contains(&groups[i]) {
                    continue;
                }
            }
            if let Some(liberty) = atari_answer(board, point, colour) {
                if !urgent[..count].contains(&liberty) {
                    urgent[count] = liberty;
                    count += 1;
                }
            }
        }
        if count == 0 {
            for point in board.around(last) {
                if board.colour(point) == EMPTY
                    && patterns::matches(board.pattern_key(point))
                    && board.ko() != Some(point)
                    && !board.is_suicide(point, colour)
                    && board.self_atari_stones(point, colour) == 0
                {
                    urgent[count] = point;
                    count += 1;
                    if count == urgent.len() {
                        break;
                    }
                }
            }
        }
        if count > 0 {
            return Some(urgent[pick(count, rng)]);
        }
    }
    let empties = board.empties();
    let (before, from) = empties.split_at(pick(empties.len(), rng));
    from.iter().chain(before).map(|&point| point as usize).find(|&point| {
        board.ko() != Some(point)
            && !board.is_own_eye(point, colour)
            && !board.is_suicide(point, colour)
            && board.self_atari_stones(point, colour) < 2
    })
}

/// Where `colour` answers the group of the stone at `point` when it is in atari: its last liberty,
/// if playing there is allowed and either takes the opponent's group or gives one's own group more
/// than one liberty and a ladder does not catch it anyway. `None` for an empty point or a group
/// with more liberties.
fn atari_answer(board: &Board, point: usize, colour: u8) -> Option<usize> {
    let stone = board.colour(point);
    if stone != BLACK && stone != WHITE {
        return None;
    }
    let liberty = board.atari_liberty(board.group_of(point))?;
    let allowed = board.ko() != Some(liberty)
        && !board.is_suicide(liberty, colour)
        && (stone != colour || (board.self_atari_stones(liberty, colour) == 0 && !ladder::is_caught(board, point)));
    allowed.then_some(liberty)
}

/// A uniform index below `count` (0 when `count` is 0).
fn pick(count: usize, rng: &mut AiRng) -> usize {
    ((rng.next_u32() as u64 * count as u64) >> 32) as usize
}

/// The engine's light policy alone (the plain UCT yardstick's playouts).
fn light_point(board: &Board, colour: u8, _last: Option<usize>, rng: &mut AiRng) -> Option<usize> {
    Go::random_point(board, colour, rng)
}

/// The computer's move as `seat` in the scoring phase: bring the marking to the engine's own
/// proposal one group at a time, then accept it; `None` once it has accepted (or outside scoring).
pub fn scoring_move(game: &Go, seat: Seat) -> Option<GoMove> {
    let scoring = game.scoring()?;
    let proposal = Scoring::propose(game.board());
    let colour = Some(seat);
    let differs = |point: &usize| scoring.dead().contains(point) != proposal.dead().contains(point);
    if let Some(point) = scoring.groups(game.board()).into_iter().find(differs) {
        return Some(GoMove::Toggle { at: game.vertex_of(point), colour });
    }
    (!scoring.accepted(seat.number())).then_some(GoMove::Accept { colour })
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::go::GoConfig;

    /// The position after `moves` (alternating from black).
    pub(super) fn after(moves: &[&str]) -> Go {
        let mut game = Go::new(GoConfig::default()).unwrap();
        for text in moves {
            game.play(&GoMove::Play { at: text.parse().unwrap(), colour: None }).unwrap();
        }
        game
    }

    fn playout_choices(game: &Go, last: &str) -> Vec<usize> {
        let last = game.point_of(last.parse().unwrap());
        (0..20)
            .map(|seed| playout_point(game.board(), game.to_move(), last, &mut AiRng::seed_from_u64(seed)).unwrap())
            .collect()
    }

    #[test]
    fn playouts_take_a_group_the_last_move_left_in_atari() {
        // White's E4 has only E5 left.
        let game = after(&["D4", "A1", "F4", "A2", "E3", "E4"]);
        let e5 = game.point_of("E5".parse().unwrap()).unwrap();
        assert_eq!(
            game.board().atari_liberty(game.board().group_of(game.point_of("E4".parse().unwrap()).unwrap())),
            Some(e5)
        );
        assert!(playout_choices(&game, "E4").iter().all(|&p| p == e5));
    }

    #[test]
    fn playouts_save_a_stone_the_last_move_put_in_atari_and_otherwise_play_anywhere() {
        // Black's E6 leaves White's E5 only E4, which has three empty neighbours.
        let game = after(&["D5", "E5", "F5", "A1", "E6"]);
        let e4 = game.point_of("E4".parse().unwrap()).unwrap();
        assert!(playout_choices(&game, "E6").iter().all(|&p| p == e4));
        // With the last move far away, the choice is the light policy's, so it varies.
        let far = playout_choices(&game, "A1");
        assert!(far.iter().any(|&p| p != far[0]), "the same point for every seed: {far:?}");
    }

    #[test]
    fn playouts_do_not_run_out_of_a_ladder_that_catches() {
        // Black's F5 puts White's E5 in atari; the ladder from E4 runs down and left to the edge.
        let caught = after(&["E6", "E5", "D5", "J9", "F4", "J8", "F5"]);
        let e4 = caught.point_of("E4".parse().unwrap()).unwrap();
        assert!(playout_choices(&caught, "F5").iter().any(|&p| p != e4));
        // A white stone on the path breaks it: running is the only answer again.
        let broken = after(&["E6", "E5", "D5", "B2", "F4", "J8", "F5"]);
        assert!(playout_choices(&broken, "F5").iter().all(|&p| p == e4));
    }

    #[test]
    fn playouts_answer_a_shape_around_the_last_move() {
        // White's E6 against Black's E5: hane points around E6, no atari anywhere.
        let game = after(&["E5", "E6"]);
        let e6 = game.point_of("E6".parse().unwrap()).unwrap();
        let choices = playout_choices(&game, "E6");
        for &point in &choices {
            assert!(game.board().around(e6).contains(&point), "{point} is not next to E6");
            assert!(patterns::matches(game.board().pattern_key(point)));
        }
        assert!(choices.iter().any(|&p| p != choices[0]), "one shape point for every seed: {choices:?}");
    }

    #[test]
    fn playouts_never_put_two_stones_in_atari_unless_they_capture() {
        // Whole playouts on 9x9, checking every move the policy chooses: uniform moves would put
        // groups in atari within a few games.
        for seed in 0..40 {
            let mut rng = AiRng::seed_from_u64(seed);
            let start = Go::new(GoConfig::default()).unwrap();
            let mut choices = 0;
            let mut check = |board: &Board, colour: u8, last: Option<usize>, rng: &mut AiRng| {
                let choice = playout_point(board, colour, last, rng);
                if let Some(point) = choice {
                    assert!(board.self_atari_stones(point, colour) < 2, "seed {seed}, move {choices}");
                    choices += 1;
                }
                choice
            };
            Go::playout_with(start.board(), BLACK, None, &mut rng, &mut check, &mut |_, _| {});
            assert!(choices > 40, "seed {seed}: a playout of {choices} stones");
        }
    }
}
