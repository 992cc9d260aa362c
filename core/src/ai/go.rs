//! Go for the search: a board point is the same move wherever it is played, playouts are the
//! engine's light ones (no filling of one's own eyes) scored by area, and the tree never fills its
//! own eyes or resigns. The scoring phase is not searched: [`scoring_move`] answers it.

use super::{AiRng, Searchable};
use crate::game::{Game, Seat};
use crate::go::{tromp_taylor, Go, GoMove, Scoring, MAX_POINTS};

impl Searchable for Go {
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

    fn playout(&self, rng: &mut AiRng, played: &mut dyn FnMut(Seat, usize)) -> f32 {
        if let Some(reward) = super::reward(&self.status()) {
            return reward;
        }
        // Two passes end the search's game: the board is counted as it stands.
        let end = if self.scoring().is_some() {
            self.board().clone()
        } else {
            let mut seat_played = |colour: u8, point: usize| played(Seat::from_number(colour).expect("1 or 2"), point);
            Go::playout_recording(self.board(), self.to_move(), rng, &mut seat_played).0
        };
        let score = tromp_taylor(&end, self.config().komi);
        if score.black > score.white {
            1.0
        } else if score.white > score.black {
            0.0
        } else {
            0.5
        }
    }
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
