//! Fairy chess behind the common game interface: game kind `chess` with a built-in variant's name.
//! Moves are UCI strings; the state is the variant, the FEN and the shared `to_move`/`result`.

use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::{Position, Variant};
use crate::game::{ConfigError, Game, Outcome, OutcomeRecord, Rejection, Seat, Status};
use crate::GameKind;

#[derive(Clone, Debug, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ChessConfig {
    /// A built-in variant (`core/data/fairy-variants.json`), or the name of the one `definition` gives.
    pub variant: String,
    /// The start position; the variant's own when absent.
    pub fen: Option<String>,
    /// Castling written king-takes-rook, as in Chess960 start positions.
    pub chess960: bool,
    /// The variant itself in the seed's JSON model: a custom variant, or a built-in one as a room
    /// stored it when it was created. When present it is the variant played, whatever its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "definitions"), serde(deserialize_with = "skip_definition", skip_serializing))]
    pub definition: Option<serde_json::Value>,
    /// `definition` compiled (`Variant::compiled_text`), added by the server for the pages that carry
    /// no reader of the JSON model (rooms). Ignored wherever the model can be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiled: Option<String>,
}

/// Field by field; a build that cannot read definitions skips them (always `None` there) and
/// compares the compiled variants instead, without linking JSON values' comparison.
impl PartialEq for ChessConfig {
    fn eq(&self, other: &ChessConfig) -> bool {
        #[cfg(feature = "definitions")]
        let same_definition = self.definition == other.definition;
        #[cfg(not(feature = "definitions"))]
        let same_definition = true;
        self.variant == other.variant
            && self.fen == other.fen
            && self.chess960 == other.chess960
            && same_definition
            && self.compiled == other.compiled
    }
}

impl Default for ChessConfig {
    fn default() -> Self {
        ChessConfig { variant: "chess".into(), fen: None, chess960: false, definition: None, compiled: None }
    }
}

/// The variant a config asks for: its definition read here if this build can read definitions,
/// else its compiled form; a built-in one by name when it has neither.
fn variant_of(config: &mut ChessConfig) -> Result<Arc<Variant>, ConfigError> {
    #[cfg(feature = "definitions")]
    if let Some(definition) = &config.definition {
        config.compiled = None;
        // A room of a built-in variant stores its definition; while it still equals the shipped
        // one, the shared compiled variant serves (no compiling on every request).
        #[cfg(not(compiled_variants))]
        if Variant::builtin_definition(&config.variant) == Some(definition) {
            if let Some(shared) = Variant::shared(&config.variant) {
                return Ok(shared);
            }
        }
        return Variant::from_definition(&config.variant, definition).map(Arc::new).map_err(ConfigError);
    }
    #[cfg(not(feature = "definitions"))]
    if let Some(compiled) = &config.compiled {
        return Variant::from_compiled_text(compiled).map(Arc::new).map_err(ConfigError);
    }
    config.compiled = None;
    Variant::shared(&config.variant).ok_or_else(|| ConfigError(format!("unknown variant {:?}", config.variant)))
}

/// A build that cannot read definitions skips them unread (it plays the compiled variant beside).
#[cfg(not(feature = "definitions"))]
fn skip_definition<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde::de::IgnoredAny::deserialize(deserializer).map(|_| None)
}

/// A move in UCI notation as Fairy-Stockfish writes it (`e2e4`, `b7b8q`, `e1g1`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UciMove(pub String);

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChessError {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is not a legal move here")]
    Illegal(String),
}

impl Rejection for ChessError {
    fn code(&self) -> &'static str {
        match self {
            ChessError::GameOver => "game_over",
            ChessError::Illegal(_) => "illegal",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Chess {
    config: ChessConfig,
    variant: Arc<Variant>,
    position: Position,
    /// Legal moves of the position, in UCI, with the moves themselves.
    legal: Vec<(String, super::Move)>,
    /// The repetition keys (hashed) of the positions since the last capture or pawn move, this one
    /// last: a position seen a third time draws.
    seen: Vec<u64>,
}

fn key_hash(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

impl Chess {
    fn at(config: ChessConfig, variant: Arc<Variant>, position: Position, mut seen: Vec<u64>) -> Chess {
        let mut legal: Vec<(String, super::Move)> =
            position.legal_moves(&variant).into_iter().map(|mv| (position.uci(&variant, mv), mv)).collect();
        crate::small_sort::sort_small_by(&mut legal, |a, b| a.0 < b.0);
        seen.push(key_hash(&position.repetition_key(&variant)));
        Chess { config, variant, position, legal, seen }
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.position.in_check(&self.variant)
    }

    /// How many times the position on the board has stood there (1 the first time).
    pub fn repetitions(&self) -> usize {
        let now = self.seen.last().copied();
        self.seen.iter().filter(|&&k| Some(k) == now).count()
    }

    pub fn fen(&self) -> String {
        self.position.fen(&self.variant)
    }

    /// A legal move in SAN (`Nf3`, `O-O`, `e8=Q#`); None for a move that is not legal here.
    pub fn san(&self, mv: &UciMove) -> Option<String> {
        let index = self.legal.binary_search_by(|(uci, _)| uci.as_str().cmp(&mv.0)).ok()?;
        let moves: Vec<super::Move> = self.legal.iter().map(|(_, m)| *m).collect();
        Some(self.position.san(&self.variant, self.legal[index].1, &moves))
    }

    /// The legal move a player typed, in UCI or SAN (`g1f3`, `Nf3`, `0-0`, `e8=Q+`).
    pub fn read_move(&self, text: &str) -> Option<UciMove> {
        let uci = text.trim().to_ascii_lowercase();
        if self.legal.binary_search_by(|(legal, _)| legal.as_str().cmp(&uci)).is_ok() {
            return Some(UciMove(uci));
        }
        let typed = super::san::plain(text);
        let moves: Vec<super::Move> = self.legal.iter().map(|(_, m)| *m).collect();
        self.legal
            .iter()
            .find(|(_, mv)| super::san::plain(&self.position.san_unmarked(&self.variant, *mv, &moves)) == typed)
            .map(|(uci, _)| UciMove(uci.clone()))
    }

    /// The position, for the computer player's search.
    pub(crate) fn position(&self) -> &Position {
        &self.position
    }

    /// The legal moves with their UCI names, sorted by name (empty or not, whatever the status).
    pub(crate) fn legal_pairs(&self) -> &[(String, super::Move)] {
        &self.legal
    }

    fn side(&self) -> Seat {
        if self.position.side_to_move() == 0 {
            Seat::One
        } else {
            Seat::Two
        }
    }
}

/// Two games are equal when their positions, options and repetition histories are.
impl PartialEq for Chess {
    fn eq(&self, other: &Chess) -> bool {
        self.config == other.config && self.position == other.position && self.seen == other.seen
    }
}

impl Game for Chess {
    const KIND: GameKind = GameKind::Chess;

    type Config = ChessConfig;
    type Move = UciMove;
    type Illegal = ChessError;
    type View = Chess;

    fn new(mut config: ChessConfig) -> Result<Self, ConfigError> {
        let variant = variant_of(&mut config)?;
        let fen = config
            .fen
            .clone()
            .or_else(|| variant.start.clone())
            .ok_or_else(|| ConfigError("no start position".into()))?;
        let position =
            Position::from_fen(&variant, &fen, config.chess960).map_err(|e| ConfigError(format!("fen: {e}")))?;
        Ok(Chess::at(config, variant, position, Vec::new()))
    }

    fn config(&self) -> &ChessConfig {
        &self.config
    }

    /// By hand: serde's derived reader and writer of this config cost the chess pages 2 KB gzipped.
    /// The same as the derived one reads (unknown fields refused, absent ones the default's).
    fn config_from_json(json: &Value) -> Result<ChessConfig, ConfigError> {
        let mut config = ChessConfig::default();
        let fields = match json {
            Value::Null => return Ok(config),
            Value::Object(fields) => fields,
            _ => return Err(ConfigError("a chess config is an object".into())),
        };
        let text = |field: &str, value: &Value| match value {
            Value::String(text) => Ok(text.clone()),
            _ => Err(ConfigError(format!("{field}: expected a string"))),
        };
        for (field, value) in fields {
            match field.as_str() {
                "variant" => config.variant = text(field, value)?,
                "fen" => config.fen = if value.is_null() { None } else { Some(text(field, value)?) },
                "chess960" => {
                    config.chess960 =
                        value.as_bool().ok_or_else(|| ConfigError("chess960: expected true or false".into()))?
                }
                "compiled" => config.compiled = if value.is_null() { None } else { Some(text(field, value)?) },
                // Read only where definitions can be (`definitions`), skipped unread elsewhere.
                "definition" => {
                    #[cfg(feature = "definitions")]
                    {
                        config.definition = (!value.is_null()).then(|| value.clone());
                    }
                }
                _ => return Err(ConfigError(format!("unknown field `{field}`"))),
            }
        }
        Ok(config)
    }

    /// By hand, as it is read ([`Chess::config_from_json`]); absent options are left out.
    fn config_to_json(config: &ChessConfig) -> Value {
        let mut fields = serde_json::Map::new();
        fields.insert("variant".into(), Value::String(config.variant.clone()));
        fields.insert("fen".into(), config.fen.clone().map_or(Value::Null, Value::String));
        fields.insert("chess960".into(), Value::Bool(config.chess960));
        #[cfg(feature = "definitions")]
        if let Some(definition) = &config.definition {
            fields.insert("definition".into(), definition.clone());
        }
        if let Some(compiled) = &config.compiled {
            fields.insert("compiled".into(), Value::String(compiled.clone()));
        }
        Value::Object(fields)
    }

    /// With the built-in variant's definition written in, so a room plays the rules it began with.
    #[cfg_attr(not(all(feature = "definitions", not(compiled_variants))), allow(unused_mut))]
    fn stored_config(&self) -> ChessConfig {
        let mut config = self.config.clone();
        #[cfg(all(feature = "definitions", not(compiled_variants)))]
        if config.definition.is_none() {
            config.definition = Variant::builtin_definition(&config.variant).cloned();
        }
        config
    }

    /// Always with the variant compiled: a room's page reads no definitions and carries no built-in
    /// variants (they would not fit its budget). A built-in variant goes without its definition.
    fn client_config(&self) -> ChessConfig {
        let mut config = self.config.clone();
        if Variant::shared(&config.variant).is_some_and(|shared| Arc::ptr_eq(&shared, &self.variant)) {
            config.definition = None;
        }
        config.compiled = Some(self.variant.compiled_text());
        config
    }

    /// A lone royal piece can never mate (`Position::non_royal_pieces`).
    fn can_still_win(&self, seat: Seat) -> bool {
        self.position.non_royal_pieces(&self.variant)[seat.index()] > 0
    }

    /// Checkmate wins, stalemate draws (or loses, in shatranj), and so do the 50-move rule (100
    /// plies without a capture or a pawn move), a position's third repetition, and material that
    /// can never mate; in shatranj a bare king loses.
    fn status(&self) -> Status {
        if self.legal.is_empty() {
            if self.position.in_check(&self.variant) {
                return Status::Over(Outcome { winner: Some(self.side().other()), reason: "checkmate" });
            }
            let winner = self.variant.stalemate_loses.then(|| self.side().other());
            return Status::Over(Outcome { winner, reason: "stalemate" });
        }
        if self.variant.bare_king_loses {
            // The other side is bare and had its move to bare this one back: the side to move wins.
            let pieces = self.position.non_royal_pieces(&self.variant);
            let (mine, theirs) = if self.side() == Seat::One { (pieces[0], pieces[1]) } else { (pieces[1], pieces[0]) };
            if theirs == 0 && mine > 0 {
                return Status::Over(Outcome { winner: Some(self.side()), reason: "bare_king" });
            }
        }
        if self.position.halfmove_clock() >= 100 {
            return Status::Over(Outcome { winner: None, reason: "fifty_moves" });
        }
        if self.repetitions() >= 3 {
            return Status::Over(Outcome { winner: None, reason: "repetition" });
        }
        if self.position.insufficient_material(&self.variant) {
            return Status::Over(Outcome { winner: None, reason: "insufficient_material" });
        }
        Status::ToMove(self.side())
    }

    fn legal_moves(&self) -> Vec<UciMove> {
        if self.status().is_over() {
            return Vec::new();
        }
        self.legal.iter().map(|(uci, _)| UciMove(uci.clone())).collect()
    }

    fn check(&self, mv: &UciMove) -> Result<(), ChessError> {
        if self.status().is_over() {
            return Err(ChessError::GameOver);
        }
        if self.legal.binary_search_by(|(uci, _)| uci.as_str().cmp(&mv.0)).is_ok() {
            Ok(())
        } else {
            Err(ChessError::Illegal(mv.0.clone()))
        }
    }

    fn play_unchecked(&mut self, mv: &UciMove) {
        let index = self.legal.binary_search_by(|(uci, _)| uci.as_str().cmp(&mv.0)).expect("a checked move");
        let next = self.position.after(&self.variant, self.legal[index].1);
        // A capture or a pawn move can never be undone: no earlier position can come back.
        let seen = if next.halfmove_clock() == 0 { Vec::new() } else { std::mem::take(&mut self.seen) };
        *self = Chess::at(self.config.clone(), self.variant.clone(), next, seen);
    }

    fn view(&self) -> Chess {
        self.clone()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateRepr {
    variant: String,
    fen: String,
    chess960: bool,
    to_move: Option<Seat>,
    in_check: bool,
    result: Option<OutcomeRecord>,
}

impl Serialize for Chess {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let status = self.status();
        StateRepr {
            variant: self.config.variant.clone(),
            fen: self.fen(),
            chess960: self.config.chess960,
            to_move: status.to_move(),
            in_check: self.position.in_check(&self.variant),
            result: status.outcome().map(OutcomeRecord::from),
        }
        .serialize(s)
    }
}

/// Reads the variant and FEN back (the rest is derived from them and checked).
impl<'de> Deserialize<'de> for Chess {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let state = StateRepr::deserialize(d)?;
        let config = ChessConfig {
            variant: state.variant,
            fen: Some(state.fen),
            chess960: state.chess960,
            ..ChessConfig::default()
        };
        let game = Chess::new(config).map_err(D::Error::custom)?;
        if game.status().to_move() != state.to_move {
            return Err(D::Error::custom("to_move does not follow from the position"));
        }
        Ok(game)
    }
}
