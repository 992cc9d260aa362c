//! The computer player behind JSON, for any game that has one: what `tabula ai` and the browser's
//! worker speak (a config and the moves so far in, a move out), keeping its tree between calls.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{ChessLevel, ChessSearcher, Level, SearchStats, Searchable, Searcher};
use crate::edges::Edges;
use crate::fairy::Chess;
use crate::game::{Game, Seat};
use crate::go::Go;
use crate::popucom::Popucom;
use crate::GameKind;

/// Why the computer could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    #[error("invalid game config: {0}")]
    Config(String),
    #[error("the moves do not replay: {0}")]
    Moves(String),
}

impl AiError {
    /// A stable code for protocols.
    pub fn code(&self) -> &'static str {
        match self {
            AiError::Config(_) => "bad_config",
            AiError::Moves(_) => "bad_moves",
        }
    }
}

/// The computer's answer in JSON: the move in the game's own shape, and the search's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonChoice {
    pub mv: Value,
    pub stats: SearchStats,
    pub blundered: bool,
}

/// A computer player of one game kind at one level.
pub enum AnyPlayer {
    Popucom(Searcher<Popucom>),
    Edges(Searcher<Edges>),
    // Boxed: a Go game inside its kept tree is 10 KB, the others a few hundred bytes.
    Go(Box<Searcher<Go>>),
    Chess(ChessSearcher),
}

impl AnyPlayer {
    /// Level 1 to 5 (clamped) of `kind`, drawing from `seed`.
    pub fn new(kind: GameKind, level: u8, seed: u64) -> Result<AnyPlayer, AiError> {
        Ok(match kind {
            GameKind::Popucom => AnyPlayer::Popucom(Searcher::new(Level::of::<Popucom>(level), seed)),
            GameKind::Edges => AnyPlayer::Edges(Searcher::new(Level::of::<Edges>(level), seed)),
            GameKind::Go => AnyPlayer::Go(Box::new(Searcher::new(Level::of::<Go>(level), seed))),
            GameKind::Chess => AnyPlayer::Chess(ChessSearcher::new(ChessLevel::of(level), seed)),
        })
    }

    /// A plain UCT player (uniform playouts, no RAVE) of `kind`: the yardstick for the levels. For
    /// chess, whose search is not MCTS, a full-strength alpha-beta with `playouts` nodes.
    pub fn plain_uct(kind: GameKind, playouts: u32, seed: u64) -> Result<AnyPlayer, AiError> {
        let level = Level::plain_uct(playouts);
        Ok(match kind {
            GameKind::Popucom => AnyPlayer::Popucom(Searcher::new(level, seed)),
            GameKind::Edges => AnyPlayer::Edges(Searcher::new(level, seed)),
            GameKind::Go => AnyPlayer::Go(Box::new(Searcher::new(level, seed))),
            GameKind::Chess => AnyPlayer::Chess(ChessSearcher::new(ChessLevel::nodes(u64::from(playouts)), seed)),
        })
    }

    /// The move for `seat` (by default the side to move) after `moves` from the start of a game
    /// with `config` (`null` for the default), or `None` when it has nothing to do (the game is
    /// over, or in Go's scoring phase it has accepted the marking).
    pub fn choose(
        &mut self,
        config: &Value,
        moves: &[Value],
        seat: Option<Seat>,
    ) -> Result<Option<JsonChoice>, AiError> {
        match self {
            AnyPlayer::Popucom(searcher) => choose(searcher, config, moves),
            AnyPlayer::Edges(searcher) => choose(searcher, config, moves),
            AnyPlayer::Go(searcher) => {
                let (game, _) = replay::<Go>(config, moves)?;
                if game.scoring().is_some() {
                    let seat = seat.or(game.status().to_move()).unwrap_or(Seat::One);
                    let mv = super::scoring_move(&game, seat);
                    return Ok(mv.map(|mv| JsonChoice {
                        mv: to_json(&mv),
                        stats: SearchStats::default(),
                        blundered: false,
                    }));
                }
                choose(searcher, config, moves)
            }
            AnyPlayer::Chess(searcher) => {
                let (game, _) = replay::<Chess>(config, moves)?;
                Ok(searcher.choose(&game).map(|choice| JsonChoice {
                    mv: to_json(&choice.mv),
                    stats: choice.stats,
                    blundered: choice.blundered,
                }))
            }
        }
    }
}

/// One request of the JSON protocol (`tabula ai`, the browser's worker): the game so far, and
/// optionally which seat to answer for (Go's scoring phase, where either acts).
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiRequest {
    #[serde(default)]
    pub config: Value,
    #[serde(default)]
    pub moves: Vec<Value>,
    #[serde(default)]
    pub seat: Option<u8>,
}

impl AnyPlayer {
    /// The protocol's answer to `request`: `{"move", "ms", "playouts", "nodes", "value",
    /// "blundered"}` (`"move": null` when it has nothing to do), or `{"error": {"code",
    /// "message"}}`. `elapsed_ms` reads the caller's clock once the search is done (the engine
    /// reads none).
    pub fn reply(&mut self, request: &AiRequest, elapsed_ms: impl FnOnce() -> f64) -> Value {
        let seat = request.seat.and_then(Seat::from_number);
        let choice = match self.choose(&request.config, &request.moves, seat) {
            Ok(choice) => choice,
            Err(error) => return error_reply(error.code(), &error.to_string()),
        };
        let ms = elapsed_ms();
        match choice {
            None => serde_json::json!({"move": null, "ms": ms}),
            Some(choice) => serde_json::json!({
                "move": choice.mv,
                "ms": ms,
                "playouts": choice.stats.playouts,
                "nodes": choice.stats.nodes,
                "value": choice.stats.value,
                "blundered": choice.blundered,
            }),
        }
    }
}

/// The protocol's refusal of a request.
pub fn error_reply(code: &str, message: &str) -> Value {
    serde_json::json!({"error": {"code": code, "message": message}})
}

fn from_json<T: DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    T::deserialize(value)
}

fn to_json(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("game types serialise to JSON")
}

fn replay<G: Game>(config: &Value, moves: &[Value]) -> Result<(G, Vec<G::Move>), AiError> {
    let config: G::Config = if config.is_null() {
        G::Config::default()
    } else {
        from_json(config).map_err(|e| AiError::Config(e.to_string()))?
    };
    let moves: Vec<G::Move> = moves
        .iter()
        .enumerate()
        .map(|(index, mv)| from_json(mv).map_err(|e| AiError::Moves(format!("move {index}: {e}"))))
        .collect::<Result<_, _>>()?;
    let game = G::replay(config, &moves).map_err(|e| AiError::Moves(e.to_string()))?;
    Ok((game, moves))
}

fn choose<G: Searchable>(
    searcher: &mut Searcher<G>,
    config: &Value,
    moves: &[Value],
) -> Result<Option<JsonChoice>, AiError> {
    let (game, moves) = replay::<G>(config, moves)?;
    Ok(searcher.choose(&game, &moves).map(|choice| JsonChoice {
        mv: to_json(&choice.mv),
        stats: choice.stats,
        blundered: choice.blundered,
    }))
}
