//! Go: captures, suicide forbidden, positional superko (or simple ko), and a scoring phase with
//! dead-stone marking agreed by both players, then area scoring with komi. Rules:
//! `shared/rules/go.md`. Black is seat one (colour 1), white seat two.

// The computer player's side of this game (`crate::ai`): only in builds with every game.
#[cfg(feature = "all-games")]
pub(crate) mod ai;
mod board;
mod json;
mod score;
pub mod sgf;

use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};

pub(crate) use board::opponent;
pub use board::{Board, BLACK, EMPTY, MAX_POINTS, WHITE};
pub use json::{GoView, Vertex};
pub use score::{tromp_taylor, AreaScore, Scoring};

use crate::game::{ConfigError, Game, Outcome, Rejection, Seat, Status};
use crate::GameKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KoRule {
    /// No move may recreate any earlier whole-board position.
    Psk,
    /// Only the immediate recapture of a single stone is forbidden.
    Simple,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GoConfig {
    /// 5 to 19.
    pub size: usize,
    /// Added to white's area.
    pub komi: f64,
    pub ko: KoRule,
    /// Black stones placed on the star points before white's first move (0, or 2 to 9).
    pub handicap: usize,
}

impl Default for GoConfig {
    fn default() -> Self {
        GoConfig { size: 9, komi: 7.5, ko: KoRule::Psk, handicap: 0 }
    }
}

/// A move. `colour` (1 black, 2 white) says who makes it; it is needed in the scoring phase, where
/// either player acts, and optional elsewhere (it must then be the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoMove {
    Play {
        at: Vertex,
        colour: Option<Seat>,
    },
    Pass {
        colour: Option<Seat>,
    },
    Resign {
        colour: Option<Seat>,
    },
    /// Scoring phase: mark the group at `point` dead, or alive again.
    Toggle {
        at: Vertex,
        colour: Option<Seat>,
    },
    /// Scoring phase: agree to the current marking.
    Accept {
        colour: Option<Seat>,
    },
    /// Scoring phase: go back to play.
    Resume {
        colour: Option<Seat>,
    },
}

impl GoMove {
    pub fn colour(&self) -> Option<Seat> {
        match *self {
            GoMove::Play { colour, .. }
            | GoMove::Pass { colour }
            | GoMove::Resign { colour }
            | GoMove::Toggle { colour, .. }
            | GoMove::Accept { colour }
            | GoMove::Resume { colour } => colour,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    #[error("the game is over")]
    GameOver,
    #[error("that point is not on the board")]
    OffBoard,
    #[error("it is not {0}'s turn")]
    NotYourTurn(&'static str),
    #[error("the point is occupied")]
    Occupied,
    #[error("the move would leave its own group without liberties")]
    Suicide,
    #[error("the move retakes a ko at once")]
    Ko,
    #[error("the move repeats an earlier position")]
    Superko,
    #[error("the game is being scored: mark dead stones, accept, or resume")]
    Scoring,
    #[error("this is only possible while the game is being scored")]
    NotScoring,
    #[error("a scoring move must say whose it is")]
    NoColour,
    #[error("there is no stone there to mark")]
    NoStone,
}

impl Rejection for GoError {
    fn code(&self) -> &'static str {
        match self {
            GoError::GameOver => "game_over",
            GoError::OffBoard => "off_board",
            GoError::NotYourTurn(_) => "not_your_turn",
            GoError::Occupied => "occupied",
            GoError::Suicide => "suicide",
            GoError::Ko => "ko",
            GoError::Superko => "superko",
            GoError::Scoring => "scoring",
            GoError::NotScoring => "not_scoring",
            GoError::NoColour => "no_colour",
            GoError::NoStone => "no_stone",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Go {
    config: GoConfig,
    board: Board,
    to_move: u8,
    /// Consecutive passes.
    passes: u8,
    moves_played: u32,
    /// Every whole-board position so far (positional superko).
    seen: FxHashSet<u64>,
    scoring: Option<Scoring>,
    result: Option<Outcome>,
    /// The agreed score, once the scoring phase ended.
    score: Option<AreaScore>,
    /// Where the last move placed a stone (`None` after any other move): where the computer's
    /// playouts look first. A hint, not part of the position: equality and the saved state leave
    /// it out.
    last_stone: Option<usize>,
}

impl PartialEq for Go {
    fn eq(&self, other: &Go) -> bool {
        let Go { config, board, to_move, passes, moves_played, seen, scoring, result, score, last_stone: _ } = self;
        *config == other.config
            && *board == other.board
            && *to_move == other.to_move
            && *passes == other.passes
            && *moves_played == other.moves_played
            && *seen == other.seen
            && *scoring == other.scoring
            && *result == other.result
            && *score == other.score
    }
}

/// GTP's fixed handicap points (as (row from the top, col)) for 2 to 9 stones.
fn handicap_points(size: usize, stones: usize) -> Vec<(usize, usize)> {
    let edge = if size >= 13 { 3 } else { 2 };
    let (low, mid, high) = (edge, size / 2, size - 1 - edge);
    let corners = [(high, low), (low, high), (high, high), (low, low)];
    let sides = [(mid, low), (mid, high), (low, mid), (high, mid)];
    let mut points: Vec<(usize, usize)> = corners[..stones.min(4)].to_vec();
    match stones {
        5 | 7 | 9 => {
            points.extend(&sides[..stones - 5]);
            points.push((mid, mid));
        }
        6 | 8 => points.extend(&sides[..stones - 4]),
        _ => {}
    }
    points
}

/// Komi is a multiple of 0.5 within ±1000.
fn check_komi(komi: f64) -> Result<(), ConfigError> {
    if !komi.is_finite() || komi.abs() > 1000.0 || (komi * 2.0).fract() != 0.0 {
        return Err(ConfigError("komi must be a multiple of 0.5 between -1000 and 1000".into()));
    }
    Ok(())
}

fn seat_colour(seat: Seat) -> u8 {
    seat.number()
}

fn colour_seat(colour: u8) -> Seat {
    Seat::from_number(colour).expect("colour is 1 or 2")
}

impl Go {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn to_move(&self) -> u8 {
        self.to_move
    }

    pub fn scoring(&self) -> Option<&Scoring> {
        self.scoring.as_ref()
    }

    pub fn moves_played(&self) -> u32 {
        self.moves_played
    }

    /// Where the last move placed a stone, if it placed one.
    pub fn last_stone(&self) -> Option<usize> {
        self.last_stone
    }

    /// Makes it `colour`'s turn (GTP lets a controller play either colour at any time), leaving a
    /// scoring phase for play.
    pub fn set_turn(&mut self, colour: Seat) {
        if self.result.is_none() {
            if self.scoring.take().is_some() {
                self.passes = 0;
            }
            self.to_move = seat_colour(colour);
        }
    }

    /// Changes the komi of the game in progress (GTP's `komi`).
    pub fn set_komi(&mut self, komi: f64) -> Result<(), ConfigError> {
        check_komi(komi)?;
        self.config.komi = komi;
        Ok(())
    }

    /// The dead stones the engine proposes for the current board, and the area score with them.
    pub fn estimate(&self) -> (Vec<usize>, AreaScore) {
        let proposal = Scoring::propose(&self.board);
        let score = score::area_score(&self.board, proposal.dead(), self.config.komi);
        (proposal.dead().to_vec(), score)
    }

    /// A sensible move for the side to move without search: capture the largest group in atari,
    /// else save an own group in atari, else a random legal point that fills no own eye; else pass.
    pub fn suggest(&self, rng: &mut impl rand::RngCore) -> GoMove {
        let colour = self.to_move;
        let enemy = board::opponent(colour);
        let legal: Vec<usize> = self.board.points().filter(|&p| self.check_point(p, colour).is_ok()).collect();
        let atari_of = |p: usize, owner: u8| -> usize {
            let mut best = 0;
            for n in self.board.neighbours(p) {
                if self.board.colour(n) == owner && self.board.liberties(n).len() == 1 {
                    best = best.max(self.board.group_stones(n).len());
                }
            }
            best
        };
        let pick =
            |score: &dyn Fn(usize) -> usize| legal.iter().copied().filter(|&p| score(p) > 0).max_by_key(|&p| score(p));
        let capture = pick(&|p| atari_of(p, enemy));
        // Extending is a rescue only if the new group has more than one liberty.
        let rescue = pick(&|p| {
            let mut after = self.board.clone();
            after.place(p, colour);
            if atari_of(p, colour) > 0 && after.liberties(p).len() > 1 {
                1
            } else {
                0
            }
        });
        let calm: Vec<usize> = legal.iter().copied().filter(|&p| !self.board.is_own_eye(p, colour)).collect();
        let random = (!calm.is_empty()).then(|| calm[((rng.next_u32() as u64 * calm.len() as u64) >> 32) as usize]);
        match capture.or(rescue).or(random) {
            Some(point) => GoMove::Play { at: self.vertex_of(point), colour: Some(colour_seat(colour)) },
            None => GoMove::Pass { colour: Some(colour_seat(colour)) },
        }
    }

    /// The agreed score once the game ended by scoring.
    pub fn final_score(&self) -> Option<AreaScore> {
        self.score
    }

    /// The area score with the stones currently marked dead (none outside the scoring phase),
    /// komi to white: what the players are agreeing to while scoring.
    pub fn marked_score(&self) -> AreaScore {
        let dead = self.scoring.as_ref().map_or(&[][..], |s| s.dead());
        score::area_score(&self.board, dead, self.config.komi)
    }

    /// Who owns each board point for area scoring with the current marking: its live stone's
    /// colour, or the one colour an empty region touches (0 for neither), by board point.
    pub fn area_owners(&self) -> Vec<u8> {
        let dead = self.scoring.as_ref().map_or(&[][..], |s| s.dead());
        score::area_owners(&self.board, dead)
    }

    /// Whether `point` is marked dead in the scoring phase (or was when the game ended).
    pub fn is_dead(&self, point: usize) -> bool {
        self.scoring.as_ref().is_some_and(|s| s.dead().contains(&point))
    }

    /// The board point of a vertex, if it is on this board.
    pub fn point_of(&self, at: Vertex) -> Option<usize> {
        let size = self.config.size;
        let (col, row) = (at.col as usize, at.row as usize);
        (col < size && (1..=size).contains(&row)).then(|| self.board.point(size - row, col))
    }

    /// The vertex of a board point.
    pub fn vertex_of(&self, point: usize) -> Vertex {
        let (row, col) = self.board.coords(point);
        Vertex { col: col as u8, row: (self.config.size - row) as u8 }
    }

    /// Whether `colour` may play the on-board `point` under the game's ko rule (playing phase).
    pub fn check_point(&self, point: usize, colour: u8) -> Result<(), GoError> {
        if self.board.colour(point) != EMPTY {
            return Err(GoError::Occupied);
        }
        if self.board.is_suicide(point, colour) {
            return Err(GoError::Suicide);
        }
        match self.config.ko {
            KoRule::Simple if self.board.ko() == Some(point) => Err(GoError::Ko),
            KoRule::Psk if self.seen.contains(&self.board.hash_after(point, colour)) => {
                // The immediate retake is the plain ko; anything longer is a superko.
                Err(if self.board.ko() == Some(point) { GoError::Ko } else { GoError::Superko })
            }
            _ => Ok(()),
        }
    }

    /// A light playout policy's move: uniformly random among legal points that do not fill the
    /// mover's own eye, else a pass. Simple ko only (superko is not checked in playouts).
    pub fn random_point(board: &Board, colour: u8, rng: &mut impl rand::RngCore) -> Option<usize> {
        let empties = board.empties();
        let n = empties.len();
        if n == 0 {
            return None;
        }
        let start = ((rng.next_u32() as u64 * n as u64) >> 32) as usize;
        for i in 0..n {
            let point = empties[(start + i) % n] as usize;
            if board.ko() != Some(point) && !board.is_own_eye(point, colour) && !board.is_suicide(point, colour) {
                return Some(point);
            }
        }
        None
    }

    /// A uniform random light playout from this position to two passes (or 3 x points moves);
    /// returns the final board and the number of moves played.
    pub fn playout(&self, rng: &mut impl rand::RngCore) -> (Board, u32) {
        Go::playout_from(&self.board, self.to_move, rng)
    }

    /// A light playout from any board, `colour` to move.
    pub fn playout_from(board: &Board, colour: u8, rng: &mut impl rand::RngCore) -> (Board, u32) {
        Go::playout_with(
            board,
            colour,
            None,
            rng,
            |board, colour, _, rng| Go::random_point(board, colour, rng),
            &mut |_, _| {},
        )
    }

    /// A playout from `board`, `colour` to move, until two passes (or 3 x points moves): `choose`
    /// picks each move (`None` passes) from the board, the mover and the last stone placed (at
    /// first `last`); `played(colour, point)` hears each stone. Returns the final board and the
    /// moves played.
    pub fn playout_with<R: rand::RngCore>(
        board: &Board,
        colour: u8,
        last: Option<usize>,
        rng: &mut R,
        mut choose: impl FnMut(&Board, u8, Option<usize>, &mut R) -> Option<usize>,
        played: &mut dyn FnMut(u8, usize),
    ) -> (Board, u32) {
        let mut board = board.clone();
        let (mut colour, mut last) = (colour, last);
        let (mut passes, mut moves) = (0, 0);
        let limit = 3 * (board.size() * board.size()) as u32;
        while passes < 2 && moves < limit {
            match choose(&board, colour, last, rng) {
                Some(point) => {
                    played(colour, point);
                    board.place(point, colour);
                    (passes, last) = (0, Some(point));
                }
                None => {
                    board.clear_ko();
                    (passes, last) = (passes + 1, None);
                }
            }
            moves += 1;
            colour = board::opponent(colour);
        }
        (board, moves)
    }

    fn mover_colour(&self, mv: &GoMove) -> u8 {
        mv.colour().map_or(self.to_move, seat_colour)
    }

    fn finish(&mut self, score: AreaScore) {
        let winner = if score.black > score.white {
            Some(Seat::One)
        } else if score.white > score.black {
            Some(Seat::Two)
        } else {
            None
        };
        self.result = Some(Outcome { winner, reason: "score" });
        self.score = Some(score);
    }
}

impl Game for Go {
    const KIND: GameKind = GameKind::Go;

    type Config = GoConfig;
    type Move = GoMove;
    type Illegal = GoError;
    type View = GoView;

    fn new(config: GoConfig) -> Result<Self, ConfigError> {
        if !(5..=19).contains(&config.size) {
            return Err(ConfigError(format!("size must be 5 to 19, not {}", config.size)));
        }
        check_komi(config.komi)?;
        // GTP's fixed handicap: none below 7x7, above 4 stones only on odd boards from 9x9.
        let h = config.handicap;
        if h == 1 || h > 9 || (h > 0 && config.size < 7) || (h > 4 && (config.size % 2 == 0 || config.size < 9)) {
            return Err(ConfigError(
                "handicap must be 0, or 2 to 4 from 7x7, or up to 9 on odd boards from 9x9".into(),
            ));
        }
        let mut board = Board::new(config.size);
        for (row, col) in handicap_points(config.size, config.handicap) {
            board.place(board.point(row, col), BLACK);
        }
        let mut seen = FxHashSet::default();
        seen.insert(board.hash());
        let to_move = if config.handicap > 0 { WHITE } else { BLACK };
        Ok(Go {
            config,
            board,
            to_move,
            passes: 0,
            moves_played: 0,
            seen,
            scoring: None,
            result: None,
            score: None,
            last_stone: None,
        })
    }

    fn config(&self) -> &GoConfig {
        &self.config
    }

    fn status(&self) -> Status {
        match &self.result {
            Some(outcome) => Status::Over(outcome.clone()),
            None => Status::ToMove(colour_seat(self.to_move)),
        }
    }

    /// In play: every legal point and pass (not resign, which is always possible). In the scoring
    /// phase: accept and resume for both colours, and toggling each group.
    fn legal_moves(&self) -> Vec<GoMove> {
        if self.result.is_some() {
            return Vec::new();
        }
        if let Some(scoring) = &self.scoring {
            let mut moves = Vec::new();
            for seat in Seat::ALL {
                let colour = Some(seat);
                moves.push(GoMove::Accept { colour });
                moves.push(GoMove::Resume { colour });
                let groups = scoring.groups(&self.board).into_iter();
                moves.extend(groups.map(|point| GoMove::Toggle { at: self.vertex_of(point), colour }));
            }
            return moves;
        }
        let mut moves: Vec<GoMove> = self
            .board
            .points()
            .filter(|&p| self.check_point(p, self.to_move).is_ok())
            .map(|point| GoMove::Play { at: self.vertex_of(point), colour: None })
            .collect();
        moves.push(GoMove::Pass { colour: None });
        moves
    }

    fn mover(&self, mv: &GoMove) -> Option<Seat> {
        if self.result.is_some() {
            return None;
        }
        Some(colour_seat(self.mover_colour(mv)))
    }

    fn check(&self, mv: &GoMove) -> Result<(), GoError> {
        if self.result.is_some() {
            return Err(GoError::GameOver);
        }
        let colour = self.mover_colour(mv);
        let scoring_move = matches!(mv, GoMove::Toggle { .. } | GoMove::Accept { .. } | GoMove::Resume { .. });
        if self.scoring.is_some() {
            if !scoring_move && !matches!(mv, GoMove::Resign { .. }) {
                return Err(GoError::Scoring);
            }
            if mv.colour().is_none() {
                return Err(GoError::NoColour);
            }
            if let GoMove::Toggle { at, .. } = *mv {
                let point = self.point_of(at).ok_or(GoError::OffBoard)?;
                if self.board.colour(point) == EMPTY {
                    return Err(GoError::NoStone);
                }
            }
            return Ok(());
        }
        if scoring_move {
            return Err(GoError::NotScoring);
        }
        if colour != self.to_move {
            return Err(GoError::NotYourTurn(if self.to_move == BLACK { "black" } else { "white" }));
        }
        match *mv {
            GoMove::Play { at, .. } => self.check_point(self.point_of(at).ok_or(GoError::OffBoard)?, colour),
            _ => Ok(()),
        }
    }

    fn play_unchecked(&mut self, mv: &GoMove) {
        let colour = self.mover_colour(mv);
        self.last_stone = None;
        match *mv {
            GoMove::Play { at, .. } => {
                let point = self.point_of(at).expect("checked");
                self.board.place(point, colour);
                self.seen.insert(self.board.hash());
                self.passes = 0;
                self.last_stone = Some(point);
                self.to_move = board::opponent(colour);
            }
            GoMove::Pass { .. } => {
                self.board.clear_ko();
                self.passes = self.passes.saturating_add(1);
                self.to_move = board::opponent(colour);
                if self.passes >= 2 {
                    self.scoring = Some(Scoring::propose(&self.board));
                }
            }
            GoMove::Resign { .. } => {
                self.result = Some(Outcome { winner: Some(colour_seat(board::opponent(colour))), reason: "resign" });
            }
            GoMove::Toggle { at, .. } => {
                let point = self.point_of(at).expect("checked");
                if let Some(scoring) = &mut self.scoring {
                    scoring.toggle(&self.board, point);
                }
            }
            GoMove::Accept { .. } => {
                let done = self.scoring.as_mut().and_then(|s| s.accept(colour, &self.board, self.config.komi));
                if let Some(score) = done {
                    self.finish(score);
                }
            }
            GoMove::Resume { .. } => {
                self.scoring = None;
                self.passes = 0;
            }
        }
        self.moves_played = self.moves_played.saturating_add(1);
    }

    fn view(&self) -> GoView {
        GoView::of(self)
    }
}
