//! The computer player behind JSON, for any game that has one: what `tabula ai` and the browser's
//! worker speak (a config and the moves so far in, a move out), keeping its tree between calls.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Choice, Judge, Level, SearchStats, Searchable, Searcher, Thresholds};
use crate::game::{Game, Seat};
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

impl JsonChoice {
    /// A search's choice with its move as JSON.
    pub(crate) fn of<M: serde::Serialize>(choice: super::Choice<M>) -> JsonChoice {
        JsonChoice { mv: to_json(&choice.mv), stats: choice.stats, blundered: choice.blundered }
    }
}

/// A computer player of one game behind JSON: the game so far in, a move out.
pub trait Computer: Send {
    /// The move for `seat` (by default the side to move) after `moves` from the start of a game
    /// with `config` (`null` for the default), or `None` when it has nothing to do.
    fn choose(&mut self, config: &Value, moves: &[Value], seat: Option<Seat>) -> Result<Option<JsonChoice>, AiError>;

    /// Plays up to `playouts` of the search the last answer did not wait for ([`Searcher::think`]);
    /// returns how many are left (none for a player that owes none).
    fn think(&mut self, playouts: u32) -> u32 {
        let _ = playouts;
        0
    }
}

/// What every game kind has: a computer player at each level, and the yardstick the levels are
/// measured against. The MCTS games get it from [`Searchable`]; chess has its own search.
pub trait Playable: Game {
    /// Level `level` with its budget divided by `divisor` (1: the level itself).
    fn computer(level: u8, divisor: u32, seed: u64) -> Box<dyn Computer>;

    /// A plain UCT player (uniform playouts, no RAVE); for a game whose search is not MCTS, its
    /// full-strength search with `playouts` nodes.
    fn yardstick(playouts: u32, seed: u64) -> Box<dyn Computer>;

    /// [`super::playout_reward_sum`] from the default start, for games searched by playouts.
    fn playout_reward_sum(playouts: u32, seed: u64) -> Option<f64> {
        let _ = (playouts, seed);
        None
    }

    /// The review's judge of positions at level `level`'s budget (without its deliberate
    /// blunders), and the game's marks ([`super::review`]).
    fn judge(level: u8, seed: u64) -> (Box<dyn Judge<Self>>, Thresholds);
}

impl<G: Searchable + Send + 'static> Playable for G
where
    G::Move: Send,
{
    fn computer(level: u8, divisor: u32, seed: u64) -> Box<dyn Computer> {
        Box::new(Searcher::<G>::new(Level::of::<G>(level).scaled(divisor), seed))
    }

    fn yardstick(playouts: u32, seed: u64) -> Box<dyn Computer> {
        Box::new(Searcher::<G>::new(Level::plain_uct(playouts), seed))
    }

    fn playout_reward_sum(playouts: u32, seed: u64) -> Option<f64> {
        let game = G::new(G::Config::default()).ok()?;
        Some(super::playout_reward_sum(&game, playouts, seed))
    }

    fn judge(level: u8, seed: u64) -> (Box<dyn Judge<G>>, Thresholds) {
        let level = Level { blunder: 0.0, ..Level::of::<G>(level) };
        (Box::new(Searcher::<G>::new(level, seed)), Thresholds::PLAYOUTS)
    }
}

impl<G: Searchable + Send> Computer for Searcher<G>
where
    G::Move: Send,
{
    fn choose(&mut self, config: &Value, moves: &[Value], seat: Option<Seat>) -> Result<Option<JsonChoice>, AiError> {
        let (game, moves) = replay::<G>(config, moves)?;
        if let Some(answer) = game.unsearched_move(seat) {
            return Ok(answer.map(|mv| JsonChoice::of(Choice { mv, stats: SearchStats::default(), blundered: false })));
        }
        Ok(Searcher::choose(self, &game, &moves).map(JsonChoice::of))
    }

    fn think(&mut self, playouts: u32) -> u32 {
        Searcher::think(self, playouts)
    }
}

/// A computer player of one game kind at one level.
pub struct AnyPlayer(Box<dyn Computer>);

/// Makes a game kind's computer player (`GameKind::visit` picks the engine).
struct NewPlayer {
    level: Option<u8>,
    divisor: u32,
    playouts: u32,
    seed: u64,
}

impl crate::any::GameVisitor for NewPlayer {
    type Output = Box<dyn Computer>;

    fn visit<G: Playable>(self) -> Box<dyn Computer> {
        match self.level {
            Some(level) => G::computer(level, self.divisor, self.seed),
            None => G::yardstick(self.playouts, self.seed),
        }
    }
}

/// The playouts of a game kind's default start, where it is searched by playouts.
struct RewardSum {
    playouts: u32,
    seed: u64,
}

impl crate::any::GameVisitor for RewardSum {
    type Output = Option<f64>;

    fn visit<G: Playable>(self) -> Option<f64> {
        G::playout_reward_sum(self.playouts, self.seed)
    }
}

/// A review of one game of a game kind.
struct ReviewGame<'a> {
    request: &'a AiRequest,
    level: u8,
    seed: u64,
    judged_count: &'a mut dyn FnMut(usize),
}

impl crate::any::GameVisitor for ReviewGame<'_> {
    type Output = Result<Value, AiError>;

    fn visit<G: Playable>(self) -> Result<Value, AiError> {
        super::review::review_json::<G>(self.request, self.level, self.seed, self.judged_count)
    }
}

/// The review of `request`'s game of `kind` at level `level`'s budget (`tabula review`, the
/// browser's worker): `{"values", "marks", "mistakes", "accuracy"}` ([`super::Review::to_json`]);
/// `judged_count(n)` hears when `n` positions are judged.
pub fn review_game(
    kind: GameKind,
    request: &AiRequest,
    level: u8,
    seed: u64,
    judged_count: &mut dyn FnMut(usize),
) -> Result<Value, AiError> {
    kind.visit(ReviewGame { request, level, seed, judged_count })
}

impl AnyPlayer {
    /// Level 1 to 5 (clamped) of `kind`, drawing from `seed`.
    pub fn new(kind: GameKind, level: u8, seed: u64) -> Result<AnyPlayer, AiError> {
        AnyPlayer::scaled(kind, level, 1, seed)
    }

    /// Level `level` with its budget (playouts, or chess's nodes) divided by `divisor`: the same
    /// player thinking less, for matches short enough to check the levels' order.
    pub fn scaled(kind: GameKind, level: u8, divisor: u32, seed: u64) -> Result<AnyPlayer, AiError> {
        Ok(AnyPlayer(kind.visit(NewPlayer { level: Some(level), divisor, playouts: 0, seed })))
    }

    /// A plain UCT player (uniform playouts, no RAVE) of `kind`: the yardstick for the levels. For
    /// chess, whose search is not MCTS, a full-strength alpha-beta with `playouts` nodes.
    pub fn plain_uct(kind: GameKind, playouts: u32, seed: u64) -> Result<AnyPlayer, AiError> {
        Ok(AnyPlayer(kind.visit(NewPlayer { level: None, divisor: 1, playouts, seed })))
    }

    /// A player made elsewhere (a searcher at a level of the caller's own).
    pub fn of(computer: impl Computer + 'static) -> AnyPlayer {
        AnyPlayer(Box::new(computer))
    }

    /// [`super::playout_reward_sum`] from `kind`'s default start, as its search plays playouts;
    /// `None` for a game not searched by playouts (chess).
    pub fn playout_reward_sum(kind: GameKind, playouts: u32, seed: u64) -> Option<f64> {
        kind.visit(RewardSum { playouts, seed })
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
        self.0.choose(config, moves, seat)
    }

    /// Plays up to `playouts` of the search the last answer did not wait for, while the opponent
    /// thinks (the next answer plays the rest first, so the game is the same either way); returns
    /// how many are left.
    pub fn think(&mut self, playouts: u32) -> u32 {
        self.0.think(playouts)
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

pub(super) fn to_json(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("game types serialise to JSON")
}

pub(crate) fn replay<G: Game>(config: &Value, moves: &[Value]) -> Result<(G, Vec<G::Move>), AiError> {
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
