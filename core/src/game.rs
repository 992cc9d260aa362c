//! The interface every game implements, and the vocabulary (seats, outcomes) all games share.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::GameKind;

/// A player's place at the table. Seat one moves first; single-player games use only seat one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    One = 1,
    Two = 2,
}

impl Seat {
    pub const ALL: [Seat; 2] = [Seat::One, Seat::Two];

    pub fn other(self) -> Seat {
        match self {
            Seat::One => Seat::Two,
            Seat::Two => Seat::One,
        }
    }

    /// 0 for seat one, 1 for seat two: for per-seat arrays.
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// The number players and the JSON see: 1 or 2.
    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn from_number(n: u8) -> Option<Seat> {
        match n {
            1 => Some(Seat::One),
            2 => Some(Seat::Two),
            _ => None,
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        Seat::from_number(n).ok_or_else(|| serde::de::Error::custom(format!("seat must be 1 or 2, not {n}")))
    }
}

/// One value per seat, as JSON `{"1": a, "2": b}` (scores, supplies, ...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySeat<T>(pub [T; 2]);

impl<T> BySeat<T> {
    pub fn from_fn(f: impl FnMut(Seat) -> T) -> Self {
        BySeat(Seat::ALL.map(f))
    }
}

impl<T: Serialize> Serialize for BySeat<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Repr<'a, T> {
            #[serde(rename = "1")]
            one: &'a T,
            #[serde(rename = "2")]
            two: &'a T,
        }
        Repr { one: &self.0[0], two: &self.0[1] }.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for BySeat<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Repr<T> {
            #[serde(rename = "1")]
            one: T,
            #[serde(rename = "2")]
            two: T,
        }
        let Repr { one, two } = Repr::deserialize(d)?;
        Ok(BySeat([one, two]))
    }
}

/// How a finished game ended. `reason` is a stable machine-readable code such as `moves_exhausted`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Seat>,
    pub reason: &'static str,
}

/// An outcome in its JSON shape `{"winner": 0|1|2, "reason": "..."}` (0 is a draw, as in the
/// reference vectors), with the reason as text: what saved states are read back into and compared
/// with the outcome the rules give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct OutcomeRecord {
    pub winner: u8,
    pub reason: String,
}

impl From<&Outcome> for OutcomeRecord {
    fn from(outcome: &Outcome) -> Self {
        OutcomeRecord { winner: outcome.winner.map_or(0, Seat::number), reason: outcome.reason.to_owned() }
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        OutcomeRecord::from(self).serialize(s)
    }
}

/// Whose turn it is, or how the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    ToMove(Seat),
    Over(Outcome),
}

impl Status {
    pub fn to_move(&self) -> Option<Seat> {
        match self {
            Status::ToMove(seat) => Some(*seat),
            Status::Over(_) => None,
        }
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Status::ToMove(_) => None,
            Status::Over(outcome) => Some(outcome),
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self, Status::Over(_))
    }
}

/// Why a game refused a move: a per-game error with a stable code (`occupied`, `game_over`, ...).
pub trait Rejection: std::error::Error + Clone + PartialEq + Send + Sync + 'static {
    fn code(&self) -> &'static str;
}

/// A configuration the game cannot be created from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid game config: {0}")]
pub struct ConfigError(pub String);

/// Replaying a move list stopped at move `index` (0-based), which the game refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} is illegal: {error}")]
pub struct ReplayError<E: Rejection> {
    pub index: usize,
    pub error: E,
}

/// A game's rules. Implementors supply a small core; everything else is provided on top of it,
/// so the API, the store, replay and the AI are written once for all games.
///
/// The state serialises (serde) to a stable, documented JSON shape and deserialises back with
/// validation; a finished game is fully described by its config and its move list (see [`Game::replay`]).
pub trait Game: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    const KIND: GameKind;

    type Config: Serialize + DeserializeOwned + Clone + Default + fmt::Debug + PartialEq;
    type Move: Serialize + DeserializeOwned + Clone + fmt::Debug + PartialEq + Send + Sync;
    type Illegal: Rejection;
    /// What a client is shown: the state plus derived figures (scores, ...).
    type View: Serialize;

    fn new(config: Self::Config) -> Result<Self, ConfigError>;
    fn config(&self) -> &Self::Config;

    /// The config from its JSON (`null` is the default one). Serde's reader, unless a game reads
    /// its own by hand where the derived one weighs on the web app's pages (fairy chess).
    fn config_from_json(json: &serde_json::Value) -> Result<Self::Config, ConfigError> {
        if json.is_null() {
            return Ok(Self::Config::default());
        }
        serde_json::from_value(json.clone()).map_err(|e| ConfigError(e.to_string()))
    }

    /// The config as JSON, the counterpart of [`Game::config_from_json`].
    fn config_to_json(config: &Self::Config) -> serde_json::Value {
        serde_json::to_value(config).expect("configs serialise to JSON")
    }

    /// The config a room stores: complete in itself, so a later change to the game's built-in
    /// data never changes a game in progress (fairy chess writes its variant's definition in).
    fn stored_config(&self) -> Self::Config {
        self.config().clone()
    }

    /// The config as clients are sent it: the stored one plus what a page needs and could not
    /// derive cheaply (fairy chess adds its variant compiled).
    fn client_config(&self) -> Self::Config {
        self.config().clone()
    }
    fn status(&self) -> Status;
    /// Every legal move of the side to move (empty once the game is over).
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Whether `mv` may be played now, and if not, why.
    fn check(&self, mv: &Self::Move) -> Result<(), Self::Illegal>;
    /// Plays a move that [`Game::check`] accepted. With any other move the result is unspecified
    /// (it may panic): callers outside hot loops use [`Game::play`].
    fn play_unchecked(&mut self, mv: &Self::Move);
    fn view(&self) -> Self::View;

    /// Whether `seat` could still win by some series of legal moves: a side that runs out of time
    /// against one that cannot only draws (a lone king in the chess variants). Games where either
    /// side can always still win keep the default.
    fn can_still_win(&self, _seat: Seat) -> bool {
        true
    }

    /// Who leads a game stopped before its end, where the game has a count to judge by
    /// (`Some(None)`: level); `None` where it has none. The arena judges a game it stops so, and
    /// Edges & Blocks' playouts are judged by the same count (cells).
    fn leader_by_count(&self) -> Option<Option<Seat>> {
        None
    }

    /// Who makes `mv`. Usually the side to move; games with phases where either player acts
    /// (Go's dead-stone marking) put the seat in the move and override this.
    fn mover(&self, _mv: &Self::Move) -> Option<Seat> {
        self.status().to_move()
    }

    fn is_legal(&self, mv: &Self::Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Plays `mv` if it is legal; an illegal move is an error and leaves the state unchanged.
    fn play(&mut self, mv: &Self::Move) -> Result<(), Self::Illegal> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Rebuilds a state from its config and move list.
    fn replay<'m>(
        config: Self::Config,
        moves: impl IntoIterator<Item = &'m Self::Move>,
    ) -> Result<Self, ReplayFailure<Self::Illegal>> {
        let mut game = Self::new(config).map_err(ReplayFailure::Config)?;
        for (index, mv) in moves.into_iter().enumerate() {
            game.play(mv).map_err(|error| ReplayFailure::Move(ReplayError { index, error }))?;
        }
        Ok(game)
    }
}

/// Why [`Game::replay`] failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayFailure<E: Rejection> {
    #[error(transparent)]
    Config(ConfigError),
    #[error(transparent)]
    Move(ReplayError<E>),
}
