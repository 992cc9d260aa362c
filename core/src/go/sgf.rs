//! SGF (FF[4]) for Go games: a game record written out, and a file's main line read back and
//! checked by replaying it. Only what a Go game needs is read (GM, SZ, KM, HA, AB, B, W, PB, PW,
//! RE); everything else is skipped. Written here rather than with a general SGF crate because the
//! site ships this code to phones, where every kilobyte counts against the page budget.

use std::fmt::Write as _;

use super::{Go, GoConfig, GoMove, KoRule, Vertex, BLACK, WHITE};
use crate::annotation::{Annotation, Mark};
use crate::game::{Game, Rejection, Seat};

/// A game as an SGF file holds it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    pub config: GoConfig,
    /// Plays and passes, each with its colour.
    pub moves: Vec<GoMove>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// SGF's result text: `B+3.5`, `W+R`, `0`.
    pub result: Option<String>,
    /// Each side's area at a scored end (points that are not its own live stones), for TB/TW.
    pub area: Option<[Vec<Vertex>; 2]>,
}

/// "B+3.5", "W+R", "B+" (won otherwise: on time, say), "0" (a draw): SGF's way of writing a result.
pub fn result_text(end: &Go, winner: Option<Seat>, reason: &str) -> String {
    let letter = match winner {
        None => return "0".to_owned(),
        Some(Seat::One) => "B",
        Some(Seat::Two) => "W",
    };
    match (reason, end.final_score()) {
        ("score", Some(score)) => format!("{letter}+{}", halves_text((score.black - score.white).abs())),
        ("resign" | "resigned", _) => format!("{letter}+R"),
        _ => format!("{letter}+"),
    }
}

/// Why a file cannot be read as a game we can play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    #[error("not SGF: {what} at byte {at}")]
    Malformed { at: usize, what: &'static str },
    #[error("the file holds no game")]
    Empty,
    #[error("the file records game {0}, not Go (GM[1])")]
    NotGo(String),
    #[error("a {0} board is not supported (square, 5 to 19)")]
    Size(String),
    #[error("setup stones other than the standard handicap")]
    Setup,
    #[error("bad {property} value {value:?}")]
    Value { property: &'static str, value: String },
    #[error("the game settings are refused: {0}")]
    Config(String),
    #[error("move {number} ({at}) is illegal: {code}")]
    Illegal { number: usize, at: String, code: &'static str },
}

fn point_text(size: usize, at: Vertex) -> String {
    let x = (b'a' + at.col) as char;
    let y = (b'a' + (size - at.row as usize) as u8) as char;
    format!("{x}{y}")
}

/// A move's note: its mark as SGF's move annotation, the chance and the better move as a comment.
fn annotate(out: &mut String, note: &Annotation) {
    let mut comment = format!("Black's chance of winning: {}%", note.percent());
    if let Some(mark) = note.mark {
        out.push_str(match mark {
            Mark::Blunder => "BM[2]",
            Mark::Mistake => "BM[1]",
            Mark::Inaccuracy => "DO[]",
        });
        let _ = write!(comment, ". {}", mark.word());
        if let Some(better) = &note.better {
            let _ = write!(comment, "; better {better}");
        }
    }
    let _ = write!(out, "C[{}]", escape(&comment));
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Komi and scores are whole half-points: `6.5`, `7`, `-0.5`.
fn halves_text(value: f64) -> String {
    let halves = (value * 2.0).round() as i64;
    let sign = if halves < 0 { "-" } else { "" };
    let magnitude = halves.unsigned_abs();
    if magnitude % 2 == 0 {
        format!("{sign}{}", magnitude / 2)
    } else {
        format!("{sign}{}.5", magnitude / 2)
    }
}

impl Record {
    /// The record of a game played from `config` through `moves`: its plays and passes (the scoring
    /// phase's marks are not SGF moves; a scored end writes each side's area instead), the names of
    /// black and white, and its result as the room or screen has it: the winner (`None` for a draw)
    /// and the reason. Errors only if the moves do not replay.
    pub fn of_game(
        config: GoConfig,
        moves: &[GoMove],
        [black, white]: [Option<String>; 2],
        result: Option<(Option<Seat>, &str)>,
    ) -> Result<Record, SgfError> {
        let mut end = Go::new(config.clone()).map_err(|e| SgfError::Config(e.0))?;
        for (index, mv) in moves.iter().enumerate() {
            end.play(mv).map_err(|e| SgfError::Illegal { number: index + 1, at: mv_text(mv), code: e.code() })?;
        }
        let area = end.final_score().map(|_| {
            let owners = end.area_owners();
            let board = end.board();
            [BLACK, WHITE].map(|colour| {
                board
                    .points()
                    .filter(|&p| owners[p] == colour && (board.colour(p) != colour || end.is_dead(p)))
                    .map(|p| end.vertex_of(p))
                    .collect()
            })
        });
        let moves = moves.iter().filter(|m| matches!(m, GoMove::Play { .. } | GoMove::Pass { .. })).copied().collect();
        let result = result.map(|(winner, reason)| result_text(&end, winner, reason));
        Ok(Record { config, moves, black, white, result, area })
    }

    /// The record as SGF: the root with the game info, then one node per move. Errors only if the
    /// moves do not replay.
    pub fn to_sgf(&self) -> Result<String, SgfError> {
        self.to_sgf_annotated(&[])
    }

    /// The same with a review's notes on the moves (`notes[i]` on `moves[i]`; fewer notes than
    /// moves leave the rest bare), as Go reviewers' files have them: black's chance of winning and
    /// the computer's better move in a comment (`C`), the marks as SGF's own move annotations
    /// (`BM[2]` a blunder, `BM[1]` a mistake, `DO[]` an inaccuracy).
    pub fn to_sgf_annotated(&self, notes: &[Annotation]) -> Result<String, SgfError> {
        let mut game = Go::new(self.config.clone()).map_err(|e| SgfError::Config(e.0))?;
        let size = self.config.size;
        let mut out = format!(
            "(;GM[1]FF[4]CA[UTF-8]AP[Tabula:{}]SZ[{size}]KM[{}]RU[Chinese]",
            env!("CARGO_PKG_VERSION"),
            halves_text(self.config.komi)
        );
        if self.config.handicap > 0 {
            let _ = write!(out, "HA[{}]AB", self.config.handicap);
            for point in game.board().points().filter(|&p| game.board().colour(p) == BLACK) {
                let _ = write!(out, "[{}]", point_text(size, game.vertex_of(point)));
            }
        }
        for (property, name) in [("PB", &self.black), ("PW", &self.white), ("RE", &self.result)] {
            if let Some(name) = name {
                let _ = write!(out, "{property}[{}]", escape(name));
            }
        }
        for (index, mv) in self.moves.iter().enumerate() {
            let colour = game.mover(mv).unwrap_or(Seat::One);
            let letter = if colour == Seat::One { 'B' } else { 'W' };
            match mv {
                GoMove::Play { at, .. } => {
                    let _ = write!(out, "\n;{letter}[{}]", point_text(size, *at));
                }
                GoMove::Pass { .. } => {
                    let _ = write!(out, "\n;{letter}[]");
                }
                _ => continue,
            }
            if let Some(note) = notes.get(index) {
                annotate(&mut out, note);
            }
            game.play(mv).map_err(|e| SgfError::Illegal { number: index + 1, at: mv_text(mv), code: e.code() })?;
        }
        if let Some(area) = &self.area {
            for (property, points) in [("TB", &area[0]), ("TW", &area[1])] {
                if !points.is_empty() {
                    out.push_str(property);
                    for at in points {
                        let _ = write!(out, "[{}]", point_text(size, *at));
                    }
                }
            }
        }
        out.push_str(")\n");
        Ok(out)
    }

    /// Reads the first game's main line, and checks it: a square board of 5 to 19, komi in halves,
    /// setup stones only on the engine's handicap points, every move legal in turn.
    pub fn from_sgf(text: &str) -> Result<Record, SgfError> {
        let nodes = Parser { text: text.as_bytes(), at: 0 }.main_line()?;
        let root = nodes.first().ok_or(SgfError::Empty)?;
        let value = |id: &str| root.iter().find(|(p, _)| p == id).and_then(|(_, v)| v.first().cloned());
        if let Some(game) = value("GM").filter(|g| g.trim() != "1") {
            return Err(SgfError::NotGo(game));
        }
        let size = match value("SZ") {
            None => 19,
            Some(text) => {
                let (w, h) = text.split_once(':').unwrap_or((&text, &text));
                match (w.trim().parse::<usize>(), h.trim().parse::<usize>()) {
                    (Ok(w), Ok(h)) if w == h && (5..=19).contains(&w) => w,
                    _ => return Err(SgfError::Size(text.replace(':', "x"))),
                }
            }
        };
        let komi = match value("KM") {
            None => 0.0,
            Some(text) => halves(&text).ok_or(SgfError::Value { property: "KM", value: text })? as f64 / 2.0,
        };
        let mut setup: Vec<Vertex> = Vec::new();
        for node in &nodes {
            for (property, values) in node {
                match property.as_str() {
                    "AB" => {
                        for value in values {
                            setup.extend(points(size, value)?);
                        }
                    }
                    "AW" | "AE" => return Err(SgfError::Setup),
                    _ => {}
                }
            }
        }
        let handicap = match value("HA") {
            Some(text) => text.trim().parse::<usize>().map_err(|_| SgfError::Value { property: "HA", value: text })?,
            None => 0,
        };
        if handicap != 0 && handicap != setup.len() {
            return Err(SgfError::Setup);
        }
        let config = GoConfig { size, komi, handicap: setup.len(), ko: KoRule::Psk };
        let mut game = Go::new(config.clone()).map_err(|e| SgfError::Config(e.0))?;
        let mut placed: Vec<Vertex> =
            game.board().points().filter(|&p| game.board().colour(p) == BLACK).map(|p| game.vertex_of(p)).collect();
        placed.sort();
        setup.sort();
        setup.dedup();
        if placed != setup {
            return Err(SgfError::Setup);
        }
        let mut moves = Vec::new();
        for node in &nodes {
            for (property, values) in node {
                let colour = match property.as_str() {
                    "B" => Seat::One,
                    "W" => Seat::Two,
                    _ => continue,
                };
                let raw = values.first().map(String::as_str).unwrap_or("");
                let number = moves.len() + 1;
                let mv = match raw {
                    // FF[3] wrote a pass on boards up to 19 as `tt`.
                    "" | "tt" => GoMove::Pass { colour: Some(colour) },
                    raw => match points(size, raw)?.as_slice() {
                        [at] => GoMove::Play { at: *at, colour: Some(colour) },
                        _ => return Err(SgfError::Value { property: "B/W", value: raw.to_owned() }),
                    },
                };
                game.play(&mv).map_err(|e| SgfError::Illegal { number, at: mv_text(&mv), code: e.code() })?;
                moves.push(mv);
            }
        }
        Ok(Record { config, moves, black: value("PB"), white: value("PW"), result: value("RE"), area: None })
    }
}

fn mv_text(mv: &GoMove) -> String {
    match mv {
        GoMove::Play { at, .. } => at.to_string(),
        _ => "pass".to_owned(),
    }
}

fn halves(text: &str) -> Option<i64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let whole: i64 = whole.parse().ok()?;
    let half = match fraction.trim_end_matches('0') {
        "" => 0,
        "5" => 1,
        _ => return None,
    };
    Some(whole * 2 + if text.starts_with('-') { -half } else { half })
}

/// A point (`dd`) or a rectangle of points (`aa:cc`) on a board of `size`.
fn points(size: usize, value: &str) -> Result<Vec<Vertex>, SgfError> {
    let bad = || SgfError::Value { property: "point", value: value.to_owned() };
    let point = |text: &str| -> Result<(usize, usize), SgfError> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_lowercase) {
            return Err(bad());
        }
        let (x, y) = ((bytes[0] - b'a') as usize, (bytes[1] - b'a') as usize);
        if x >= size || y >= size {
            return Err(bad());
        }
        Ok((x, y))
    };
    let (from, to) = match value.split_once(':') {
        Some((a, b)) => (point(a)?, point(b)?),
        None => (point(value)?, point(value)?),
    };
    if from.0 > to.0 || from.1 > to.1 {
        return Err(bad());
    }
    let mut out = Vec::new();
    for y in from.1..=to.1 {
        for x in from.0..=to.0 {
            out.push(Vertex { col: x as u8, row: (size - y) as u8 });
        }
    }
    Ok(out)
}

/// A node's properties: identifier and values.
type Node = Vec<(String, Vec<String>)>;

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn fail<T>(&self, what: &'static str) -> Result<T, SgfError> {
        Err(SgfError::Malformed { at: self.at, what })
    }

    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    /// The first game tree's main line: its nodes, then the first variation's, recursively; the
    /// other variations are read (so a broken file is still refused) and dropped.
    fn main_line(mut self) -> Result<Vec<Node>, SgfError> {
        match self.peek() {
            None => Err(SgfError::Empty),
            Some(b'(') => {
                let mut nodes = Vec::new();
                self.tree(&mut nodes, true)?;
                Ok(nodes)
            }
            Some(_) => self.fail("expected ( to open a game"),
        }
    }

    fn tree(&mut self, nodes: &mut Vec<Node>, keep: bool) -> Result<(), SgfError> {
        self.at += 1; // (
        if self.peek() != Some(b';') {
            return self.fail("expected ; to start a node");
        }
        while self.peek() == Some(b';') {
            self.at += 1;
            let node = self.node()?;
            if keep {
                nodes.push(node);
            }
        }
        let mut first = true;
        loop {
            match self.peek() {
                Some(b'(') => {
                    self.tree(nodes, keep && first)?;
                    first = false;
                }
                Some(b')') => {
                    self.at += 1;
                    return Ok(());
                }
                None => return self.fail("unclosed game tree"),
                Some(_) => return self.fail("unexpected character"),
            }
        }
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_uppercase() {
                break;
            }
            let start = self.at;
            while self.text.get(self.at).is_some_and(u8::is_ascii_uppercase) {
                self.at += 1;
            }
            let id = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                values.push(self.value()?);
            }
            if values.is_empty() {
                return self.fail("a property without a value");
            }
            node.push((id, values));
        }
        Ok(node)
    }

    fn value(&mut self) -> Result<String, SgfError> {
        self.at += 1; // [
        let mut value = Vec::new();
        loop {
            match self.text.get(self.at) {
                None => return self.fail("unclosed property value"),
                Some(b']') => break,
                Some(b'\\') => {
                    self.at += 1;
                    match self.text.get(self.at) {
                        // An escaped line break is a soft break: nothing.
                        Some(b'\n') | Some(b'\r') => {}
                        Some(&c) => value.push(c),
                        None => return self.fail("unclosed property value"),
                    }
                }
                Some(&c) => value.push(c),
            }
            self.at += 1;
        }
        self.at += 1; // ]
        String::from_utf8(value).or_else(|_| self.fail("a value that is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(at: &str) -> GoMove {
        GoMove::Play { at: at.parse().unwrap(), colour: None }
    }

    fn config(size: usize, komi: f64, handicap: usize) -> GoConfig {
        GoConfig { size, komi, handicap, ko: KoRule::Psk }
    }

    #[test]
    fn results_are_written_as_sgf_writes_them() {
        let pass = GoMove::Pass { colour: None };
        let mut scored = Go::new(config(5, 0.5, 0)).unwrap();
        for mv in [play("C3"), pass, pass, GoMove::Accept { colour: Some(Seat::One) }] {
            scored.play(&mv).unwrap();
        }
        scored.play(&GoMove::Accept { colour: Some(Seat::Two) }).unwrap();
        assert_eq!(result_text(&scored, Some(Seat::One), "score"), "B+24.5", "25 points against komi 0.5");
        assert_eq!(result_text(&scored, Some(Seat::Two), "resigned"), "W+R");
        assert_eq!(result_text(&scored, Some(Seat::Two), "timeout"), "W+");
        assert_eq!(result_text(&scored, None, "score"), "0");
    }

    #[test]
    fn a_record_writes_and_reads_back() {
        let record = Record {
            config: config(19, 6.5, 2),
            moves: vec![play("K10"), play("Q4"), GoMove::Pass { colour: None }, play("C3")],
            black: Some("Ann [1]".into()),
            white: None,
            result: Some("W+R".into()),
            area: None,
        };
        let text = record.to_sgf().unwrap();
        for part in
            ["SZ[19]", "KM[6.5]", "HA[2]AB[pd][dp]", "PB[Ann [1\\]]", "RE[W+R]", ";W[jj]", ";B[pp]", ";W[]", ";B[cq]"]
        {
            assert!(text.contains(part), "{part} missing from {text}");
        }
        let back = Record::from_sgf(&text).unwrap();
        assert_eq!(back.config, record.config);
        assert_eq!(back.black.as_deref(), Some("Ann [1]"));
        assert_eq!(back.result.as_deref(), Some("W+R"));
        let colours: Vec<Option<Seat>> = back.moves.iter().map(GoMove::colour).collect();
        assert_eq!(colours, [Some(Seat::Two), Some(Seat::One), Some(Seat::Two), Some(Seat::One)]);
        assert_eq!(Go::replay(back.config, &back.moves).unwrap(), Go::replay(record.config, &record.moves).unwrap());
    }

    #[test]
    fn a_reviewed_game_writes_its_notes_and_reads_back_without_them() {
        let record =
            Record { config: config(9, 7.5, 0), moves: vec![play("E5"), play("A1"), play("D4")], ..Record::default() };
        let notes = [
            Annotation { first_chance: 0.55, mark: None, better: None },
            Annotation { first_chance: 0.875, mark: Some(Mark::Blunder), better: Some("C3 [x]".into()) },
        ];
        let text = record.to_sgf_annotated(&notes).unwrap();
        assert!(text.contains(";B[ee]C[Black's chance of winning: 55%]"), "{text}");
        assert!(text.contains(";W[ai]BM[2]C[Black's chance of winning: 88%. blunder; better C3 [x\\]]"), "{text}");
        assert!(text.contains(";B[df])"), "a move without a note is bare: {text}");
        let back = Record::from_sgf(&text).unwrap();
        assert_eq!(back.moves.len(), 3);
        assert_eq!(Go::replay(back.config, &back.moves).unwrap(), Go::replay(record.config, &record.moves).unwrap());
    }

    #[test]
    fn files_from_other_programs_read() {
        // Variations (only the main line counts), a compressed point list, FF[3] passes, escapes,
        // soft line breaks, and properties we do not use.
        let text = "(;FF[3]GM[1]SZ[9]KM[7]C[a \\] comment\\\n]AB[cc:dd]HA[4]PL[W];W[ee](;B[ff];W[tt])(;B[gg]))";
        let record = Record::from_sgf(text);
        // GNU Go's four-stone handicap on 9x9 is on the 3-3 points, not a square block.
        assert_eq!(record, Err(SgfError::Setup));
        let text = "(;GM[1]SZ[9]KM[7]C[a \\] comment\\\n]AB[gc][cg][gg][cc]HA[4];W[ee](;B[ff];W[tt])(;B[ge]))";
        let record = Record::from_sgf(text).unwrap();
        assert_eq!(record.config, config(9, 7.0, 4));
        assert_eq!(
            record.moves,
            vec![
                GoMove::Play { at: "E5".parse().unwrap(), colour: Some(Seat::Two) },
                GoMove::Play { at: "F4".parse().unwrap(), colour: Some(Seat::One) },
                GoMove::Pass { colour: Some(Seat::Two) },
            ]
        );
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let error = |text: &str| Record::from_sgf(text).unwrap_err();
        assert!(matches!(error("this is not sgf"), SgfError::Malformed { at: 0, .. }));
        assert!(matches!(error("(;GM[1]SZ[9];B[ee"), SgfError::Malformed { what: "unclosed property value", .. }));
        assert!(matches!(error("(;GM[1]SZ[9];B[ee]"), SgfError::Malformed { what: "unclosed game tree", .. }));
        assert_eq!(error(""), SgfError::Empty);
        assert_eq!(error("(;GM[2]SZ[8])"), SgfError::NotGo("2".into()));
        assert_eq!(error("(;GM[1]SZ[21])"), SgfError::Size("21".into()));
        assert_eq!(error("(;GM[1]SZ[9:13])"), SgfError::Size("9x13".into()));
        assert_eq!(error("(;GM[1]SZ[9]AW[ee])"), SgfError::Setup);
        assert_eq!(error("(;GM[1]SZ[9]HA[2]AB[aa][bb])"), SgfError::Setup);
        assert_eq!(error("(;GM[1]SZ[9]KM[0.3])"), SgfError::Value { property: "KM", value: "0.3".into() });
        assert_eq!(error("(;GM[1]SZ[9];B[zz])"), SgfError::Value { property: "point", value: "zz".into() });
        assert_eq!(
            error("(;GM[1]SZ[9];B[ee];W[ee])"),
            SgfError::Illegal { number: 2, at: "E5".into(), code: "occupied" }
        );
        assert_eq!(
            error("(;GM[1]SZ[9];B[ee];B[dd])"),
            SgfError::Illegal { number: 2, at: "D6".into(), code: "not_your_turn" }
        );
    }

    #[test]
    fn a_scored_game_writes_its_area() {
        let record = Record {
            config: config(5, 0.5, 0),
            moves: vec![play("C3")],
            result: Some("B+24.5".into()),
            area: Some([vec!["A1".parse().unwrap(), "B1".parse().unwrap()], vec![]]),
            ..Record::default()
        };
        let text = record.to_sgf().unwrap();
        assert!(text.contains("RE[B+24.5]") && text.contains(";B[cc]TB[ae][be])"), "{text}");
        assert!(!text.contains("TW"), "no empty TW");
    }
}
