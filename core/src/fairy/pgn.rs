//! PGN records of fairy chess games: the seven-tag roster's names and result, plus `Variant`, `FEN`
//! and `SetUp` so a game of any variant from any position reads back. Moves are written in SAN and
//! read in SAN or UCI; comments, variations and annotation glyphs are skipped when reading.

use super::{ChessConfig, UciMove, Variant};
use crate::annotation::Annotation;
use crate::game::{Game, Seat};

/// A game as a PGN file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub config: ChessConfig,
    pub moves: Vec<UciMove>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game still going.
    pub result: String,
}

/// Why a file cannot be read as a game we can play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("not PGN: {0}")]
    Malformed(String),
    #[error("variant {0:?} is not one we have")]
    Variant(String),
    #[error("the game settings are refused: {0}")]
    Config(String),
    #[error("move {number} ({text}) is illegal")]
    Illegal { number: usize, text: String },
}

/// The PGN result of a game: who won, or a draw.
pub fn result_text(winner: Option<Seat>) -> &'static str {
    match winner {
        Some(Seat::One) => "1-0",
        Some(Seat::Two) => "0-1",
        None => "1/2-1/2",
    }
}

/// Centipawns as pawns with two decimals, `-1.05` (written by hand: no float formatting in the
/// site's bundles).
fn pawns(centipawns: i32) -> String {
    let sign = if centipawns < 0 { "-" } else { "" };
    let magnitude = centipawns.unsigned_abs();
    format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

fn tag(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
}

impl Record {
    /// The record as PGN; an error if a move does not replay from the start.
    pub fn to_pgn(&self) -> Result<String, PgnError> {
        self.to_pgn_annotated(&[])
    }

    /// The same with a review's notes on the moves (`notes[i]` on `moves[i]`), as lichess exports
    /// an analysed game: the mark as a glyph (`$6`, `$2`, `$4`), then a comment with the
    /// evaluation from White's side in pawns (`{ [%eval 0.35] }`, from the chance of winning, see
    /// [`Annotation::centipawns`]) and the computer's better move.
    pub fn to_pgn_annotated(&self, notes: &[Annotation]) -> Result<String, PgnError> {
        let mut game = super::Chess::new(self.config.clone()).map_err(|e| PgnError::Config(e.0))?;
        let mut text = String::new();
        let name =
            if self.config.chess960 { format!("{}960", game.variant().name) } else { game.variant().name.clone() };
        let unknown = || "?".to_owned();
        for (key, value) in [
            ("Event", "Tabula game".to_owned()),
            ("Site", "Tabula".to_owned()),
            ("White", self.white.clone().unwrap_or_else(unknown)),
            ("Black", self.black.clone().unwrap_or_else(unknown)),
            ("Result", self.result.clone()),
            ("Variant", name),
            ("SetUp", "1".to_owned()),
            ("FEN", game.fen()),
        ] {
            text += &tag(key, &value);
        }
        text.push('\n');
        let mut line = String::new();
        let mut tokens = Vec::new();
        for (ply, mv) in self.moves.iter().enumerate() {
            let number = fullmove(&game.fen());
            let white = game.status().to_move() == Some(Seat::One);
            if white {
                tokens.push(format!("{number}."));
            } else if ply == 0 || notes.get(ply - 1).is_some() {
                // Black's move after a comment carries its number again, as PGN exports write it.
                tokens.push(format!("{number}..."));
            }
            let san = game.san(mv).ok_or_else(|| PgnError::Illegal { number: ply + 1, text: mv.0.clone() })?;
            tokens.push(san);
            if let Some(note) = notes.get(ply) {
                tokens.extend(note.mark.map(|mark| format!("${}", mark.nag())));
                let better = note.better.as_ref().map(|better| format!(" Better: {better}.")).unwrap_or_default();
                tokens.push(format!("{{ [%eval {}]{better} }}", pawns(note.centipawns())));
            }
            game.play(mv).map_err(|_| PgnError::Illegal { number: ply + 1, text: mv.0.clone() })?;
        }
        tokens.push(self.result.clone());
        // Lines of at most 80 characters, as the export format asks.
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                text += &line;
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line += &token;
        }
        text += &line;
        text.push('\n');
        Ok(text)
    }

    /// Reads the first game of a PGN file: the variant (ours or Fairy-Stockfish's name, `…960` for
    /// the Chess960 setting; chess when absent), the start position, the moves in SAN or UCI.
    pub fn from_pgn(text: &str) -> Result<Record, PgnError> {
        Record::from_pgn_playing(text, &ChessConfig::default())
    }

    /// As `from_pgn`, where a `Variant` tag naming the variant of `playing` (a custom one, say) means
    /// that variant: a custom variant's game reads back where it is played.
    pub fn from_pgn_playing(text: &str, playing: &ChessConfig) -> Result<Record, PgnError> {
        let (tags, movetext) = split_tags(text)?;
        let get = |key: &str| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.clone());
        let custom = playing.definition.is_some() || playing.compiled.is_some();
        let config = match get("Variant") {
            Some(name) if custom && name == playing.variant => {
                ChessConfig { fen: get("FEN"), chess960: false, ..playing.clone() }
            }
            variant => config_of(variant, get("FEN"))?,
        };
        let mut game = super::Chess::new(config.clone()).map_err(|e| PgnError::Config(e.0))?;
        let mut moves = Vec::new();
        let mut result = get("Result").filter(|r| RESULTS.contains(&r.as_str())).unwrap_or_else(|| "*".to_owned());
        for token in move_tokens(&movetext)? {
            if RESULTS.contains(&token.as_str()) {
                result = token;
                break;
            }
            let illegal = || PgnError::Illegal { number: moves.len() + 1, text: token.clone() };
            let mv = game.read_move(&token).ok_or_else(illegal)?;
            game.play(&mv).map_err(|_| illegal())?;
            moves.push(mv);
        }
        let known = |name: Option<String>| name.filter(|n| !n.is_empty() && n != "?");
        Ok(Record { config, moves, white: known(get("White")), black: known(get("Black")), result })
    }
}

fn fullmove(fen: &str) -> u32 {
    fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1)
}

/// The settings a `Variant` and `FEN` tag pair names.
fn config_of(variant: Option<String>, fen: Option<String>) -> Result<ChessConfig, PgnError> {
    let name = variant.unwrap_or_else(|| "chess".to_owned());
    let find = |name: &str| {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "standard" | "" => Some("chess".to_owned()),
            _ => Variant::named(&lower).or_else(|| Variant::named(name)).map(|v| v.name.clone()),
        }
    };
    let (variant, chess960) = match find(&name) {
        Some(found) => (found, false),
        None => {
            let base = name.strip_suffix("960").ok_or_else(|| PgnError::Variant(name.clone()))?;
            (find(base).ok_or_else(|| PgnError::Variant(name.clone()))?, true)
        }
    };
    Ok(ChessConfig { variant, fen, chess960, ..ChessConfig::default() })
}

/// The tag pairs and the movetext after them.
fn split_tags(text: &str) -> Result<(Vec<(String, String)>, String), PgnError> {
    let mut tags = Vec::new();
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    while let Some(after) = rest.strip_prefix('[') {
        let (key, value_part) = after.split_once(char::is_whitespace).ok_or_else(|| bad("a tag without a value"))?;
        let value_part = value_part.trim_start().strip_prefix('"').ok_or_else(|| bad("a tag value without quotes"))?;
        let mut value = String::new();
        let mut chars = value_part.char_indices();
        let end = loop {
            match chars.next() {
                Some((_, '\\')) => value.extend(chars.next().map(|(_, c)| c)),
                Some((i, '"')) => break i,
                Some((_, c)) => value.push(c),
                None => return Err(bad("an unclosed tag value")),
            }
        };
        let after_value = value_part[end + 1..].trim_start();
        rest = after_value.strip_prefix(']').ok_or_else(|| bad("an unclosed tag"))?.trim_start();
        tags.push((key.to_owned(), value));
    }
    Ok((tags, rest.to_owned()))
}

fn bad(what: &str) -> PgnError {
    PgnError::Malformed(what.to_owned())
}

/// The moves and the result of a movetext, without numbers, comments, variations and glyphs.
fn move_tokens(movetext: &str) -> Result<Vec<String>, PgnError> {
    let mut plain = String::new();
    let (mut depth, mut chars) = (0usize, movetext.chars());
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                chars.by_ref().find(|&c| c == '}').ok_or_else(|| bad("an unclosed comment"))?;
                plain.push(' ');
            }
            ';' => {
                chars.by_ref().find(|&c| c == '\n');
                plain.push(' ');
            }
            '(' => depth += 1,
            ')' => depth = depth.checked_sub(1).ok_or_else(|| bad("a variation closed twice"))?,
            '[' if depth == 0 => break, // The next game's tags.
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    if depth > 0 {
        return Err(bad("an unclosed variation"));
    }
    Ok(plain
        .split_whitespace()
        .filter(|t| !t.starts_with('$'))
        // A move number, alone (`12.`, `12...`) or glued to its move (`12.e4`).
        .map(|t| if t.contains('.') { t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.') } else { t })
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect())
}
