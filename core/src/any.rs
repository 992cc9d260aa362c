//! The type-erased layer: a game kind plus JSON config, moves and state, so the API, the store,
//! the replay tool and the site handle any game without knowing which one it is.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::ai::Playable;
use crate::edges::Edges;
use crate::fairy::Chess;
use crate::game::{ConfigError, Game, Rejection, Seat, Status};
use crate::go::Go;
use crate::kind::GameKind;
use crate::popucom::Popucom;

/// Something done with the engine of a game kind chosen at run time ([`GameKind::visit`]).
pub trait GameVisitor {
    type Output;
    fn visit<G: Playable>(self) -> Self::Output;
}

/// Makes a game from its JSON config.
struct NewGame<'a>(&'a Value);

impl GameVisitor for NewGame<'_> {
    type Output = Result<AnyGame, ConfigError>;

    fn visit<G: Playable>(self) -> Self::Output {
        AnyGame::new::<G>(self.0)
    }
}

impl GameKind {
    /// `visitor` with `self`'s engine type: the one place of `core/` that names every game's
    /// engine (a new game is a line here and a folder of its own).
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            GameKind::Popucom => visitor.visit::<Popucom>(),
            GameKind::Edges => visitor.visit::<Edges>(),
            GameKind::Go => visitor.visit::<Go>(),
            GameKind::Chess => visitor.visit::<Chess>(),
        }
    }

    /// A new game from a JSON config (`null` means the default config).
    pub fn new_game(self, config: &Value) -> Result<AnyGame, ConfigError> {
        self.visit(NewGame(config))
    }

    /// Rebuilds a game from its JSON config and move list.
    pub fn replay(self, config: &Value, moves: &[Value]) -> Result<AnyGame, AnyReplayError> {
        let mut game = self.new_game(config).map_err(AnyReplayError::Config)?;
        for (index, mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|error| AnyReplayError::Move { index, error })?;
        }
        Ok(game)
    }

    /// The state after each move of `moves`, as JSON (the reference vectors' `steps`). A refused move
    /// ends the list with `{"error": {"code", "message"}}`.
    pub fn replay_steps(self, config: &Value, moves: &[Value]) -> Result<Vec<Value>, ConfigError> {
        let mut game = self.new_game(config)?;
        let mut steps = Vec::with_capacity(moves.len());
        for mv in moves {
            match game.play(mv) {
                Ok(()) => steps.push(game.state()),
                Err(error) => {
                    steps.push(json!({"error": {"code": error.code(), "message": error.to_string()}}));
                    break;
                }
            }
        }
        Ok(steps)
    }
}

/// A move refused through the erased layer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The JSON is not a move of this game at all (wrong shape or types).
    #[error("not a move of this game: {0}")]
    Malformed(String),
    /// A well-formed move the rules refuse; `code` is the game's stable reason (`occupied`, ...).
    #[error("{message}")]
    Illegal { code: &'static str, message: String },
}

impl MoveError {
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::Malformed(_) => "malformed_move",
            MoveError::Illegal { code, .. } => code,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnyReplayError {
    #[error(transparent)]
    Config(ConfigError),
    #[error("move {index}: {error}")]
    Move { index: usize, error: MoveError },
}

/// Any game, behind JSON. Cloning is cheap enough for the API (a game state is small).
pub struct AnyGame(Box<dyn ErasedGame>);

impl AnyGame {
    fn new<G: Game>(config: &Value) -> Result<Self, ConfigError> {
        Ok(AnyGame(Box::new(G::new(G::config_from_json(config)?)?)))
    }

    pub fn kind(&self) -> GameKind {
        self.0.kind()
    }
    /// The config in its normalised JSON form (defaults filled in).
    pub fn config(&self) -> Value {
        self.0.config()
    }
    /// The config a room stores (see [`Game::stored_config`]).
    pub fn stored_config(&self) -> Value {
        self.0.stored_config()
    }
    /// The config clients are sent (see [`Game::client_config`]).
    pub fn client_config(&self) -> Value {
        self.0.client_config()
    }
    pub fn status(&self) -> Status {
        self.0.status()
    }
    /// Whether `seat` could still win (see [`Game::can_still_win`]).
    pub fn can_still_win(&self, seat: Seat) -> bool {
        self.0.can_still_win(seat)
    }
    /// [`Game::leader_by_count`].
    pub fn leader_by_count(&self) -> Option<Option<Seat>> {
        self.0.leader_by_count()
    }
    /// The serialised state (for POPUCOM, a step of the reference vectors).
    pub fn state(&self) -> Value {
        self.0.state()
    }
    /// What clients are shown: the state plus derived figures.
    pub fn view(&self) -> Value {
        self.0.view()
    }
    pub fn legal_moves(&self) -> Vec<Value> {
        self.0.legal_moves()
    }
    /// Parses `mv` and says who would make it (see [`Game::mover`]).
    pub fn mover(&self, mv: &Value) -> Result<Option<Seat>, MoveError> {
        self.0.mover(mv)
    }
    /// Plays `mv`; on error the state is unchanged. Returns nothing: the normalised move is
    /// available from [`AnyGame::normalize_move`] when a caller stores it.
    pub fn play(&mut self, mv: &Value) -> Result<(), MoveError> {
        self.0.play(mv)
    }
    /// The move in the game's canonical JSON shape (POPUCOM: `{"row", "col"}`).
    pub fn normalize_move(&self, mv: &Value) -> Result<Value, MoveError> {
        self.0.normalize_move(mv)
    }
}

impl Clone for AnyGame {
    fn clone(&self) -> Self {
        AnyGame(self.0.clone_box())
    }
}

impl fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyGame({}, {})", self.kind(), self.state())
    }
}

/// Object-safe mirror of [`Game`], implemented once for every game.
trait ErasedGame: Send + Sync {
    fn kind(&self) -> GameKind;
    fn config(&self) -> Value;
    fn stored_config(&self) -> Value;
    fn client_config(&self) -> Value;
    fn status(&self) -> Status;
    fn can_still_win(&self, seat: Seat) -> bool;
    fn leader_by_count(&self) -> Option<Option<Seat>>;
    fn state(&self) -> Value;
    fn view(&self) -> Value;
    fn legal_moves(&self) -> Vec<Value>;
    fn mover(&self, mv: &Value) -> Result<Option<Seat>, MoveError>;
    fn play(&mut self, mv: &Value) -> Result<(), MoveError>;
    fn normalize_move(&self, mv: &Value) -> Result<Value, MoveError>;
    fn clone_box(&self) -> Box<dyn ErasedGame>;
}

fn parse_move<G: Game>(mv: &Value) -> Result<G::Move, MoveError> {
    G::Move::deserialize(mv).map_err(|e| MoveError::Malformed(e.to_string()))
}

fn to_json(value: impl Serialize) -> Value {
    // Our own types serialise infallibly (no maps with non-string keys, no failing impls).
    serde_json::to_value(value).expect("game types serialise to JSON")
}

impl<G: Game> ErasedGame for G {
    fn kind(&self) -> GameKind {
        G::KIND
    }
    fn config(&self) -> Value {
        to_json(Game::config(self))
    }
    fn stored_config(&self) -> Value {
        to_json(Game::stored_config(self))
    }
    fn client_config(&self) -> Value {
        to_json(Game::client_config(self))
    }
    fn status(&self) -> Status {
        Game::status(self)
    }
    fn can_still_win(&self, seat: Seat) -> bool {
        Game::can_still_win(self, seat)
    }
    fn leader_by_count(&self) -> Option<Option<Seat>> {
        Game::leader_by_count(self)
    }
    fn state(&self) -> Value {
        to_json(self)
    }
    fn view(&self) -> Value {
        to_json(Game::view(self))
    }
    fn legal_moves(&self) -> Vec<Value> {
        Game::legal_moves(self).iter().map(to_json).collect()
    }
    fn mover(&self, mv: &Value) -> Result<Option<Seat>, MoveError> {
        Ok(Game::mover(self, &parse_move::<G>(mv)?))
    }
    fn play(&mut self, mv: &Value) -> Result<(), MoveError> {
        let mv = parse_move::<G>(mv)?;
        Game::play(self, &mv).map_err(|e| MoveError::Illegal { code: e.code(), message: e.to_string() })
    }
    fn normalize_move(&self, mv: &Value) -> Result<Value, MoveError> {
        Ok(to_json(parse_move::<G>(mv)?))
    }
    fn clone_box(&self) -> Box<dyn ErasedGame> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_their_names() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(serde_json::to_value(kind).unwrap(), Value::from(kind.name()));
        }
        assert!("chess960".parse::<GameKind>().is_err());
        assert!("shogi".parse::<GameKind>().is_err());
    }
}
