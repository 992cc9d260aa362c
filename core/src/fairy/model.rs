//! The seed's JSON model of a variant and its pieces (`shared/rules/fairy.md`), as read, and its
//! compilation into per-colour move trees with the symmetry expansions applied.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A variant as written in the data files. The seed's own names are accepted too: `boardSize` (a
/// number for a square board, or [files, ranks]), `withCastling`, `promotionCandidates`,
/// `initialPiecePositions` with `isAsymmetric`.
#[derive(Clone, Debug, Deserialize)]
pub struct VariantDef {
    /// Files and ranks.
    #[serde(alias = "boardSize", deserialize_with = "board_size")]
    pub board: [usize; 2],
    #[serde(default, alias = "withCastling")]
    pub castling: bool,
    /// Piece ids a pawn may promote to.
    #[serde(default, alias = "promotionCandidates")]
    pub promotion: Vec<String>,
    /// The seed's start position: rank (0-based from White's side) to pieces by file, `null` for
    /// empty. Symmetric games list White's ranks and Black's are their mirror images; asymmetric
    /// games prefix every piece with `W` or `B`.
    #[serde(default, rename = "initialPiecePositions")]
    pub initial_piece_positions: Option<BTreeMap<String, Vec<Option<String>>>>,
    #[serde(default, rename = "isAsymmetric")]
    pub is_asymmetric: bool,
    /// The rank (0-based, seen from White) a pawn's double step starts from.
    #[serde(default)]
    pub double_step_rank_white_0based: Option<usize>,
    /// Beyond the seed: the ranks (0-based, each colour's own count from the bottom) where pawns may
    /// double-step, when more than one (vs Pawns: White's ranks 1 to 4).
    #[serde(default)]
    pub double_step_ranks_white_0based: Option<Vec<usize>>,
    #[serde(default)]
    pub double_step_ranks_black_0based: Option<Vec<usize>>,
    /// Beyond the seed: promotion is optional on this many last ranks (mandatory on the last).
    #[serde(default)]
    pub promotion_ranks: Option<usize>,
    /// Beyond the seed: at most this many pieces of a type on the board after a promotion.
    #[serde(default)]
    pub promotion_limits: BTreeMap<String, usize>,
    /// Beyond the seed: where castling puts the king, queenside then kingside (0-based files;
    /// by default the c-file and the file next to the corner, as on 8 and 10 files).
    #[serde(default)]
    pub castling_king_files: Option<[usize; 2]>,
    /// Where the rook lands, queenside then kingside (by default next to the king, inside).
    #[serde(default)]
    pub castling_rook_files: Option<[usize; 2]>,
    /// Beyond the seed: a stalemated side loses (shatranj) instead of drawing.
    #[serde(default)]
    pub stalemate_loses: bool,
    /// Beyond the seed: a side left with its king alone loses, unless its reply bares the other
    /// king too (shatranj's bare king, as Fairy-Stockfish plays it).
    #[serde(default)]
    pub bare_king_loses: bool,
    /// Fairy-Stockfish's name for this variant, where its rules are the same (the differential
    /// test plays every such variant against it; the name is also accepted as an alias).
    #[serde(default)]
    pub fairy_stockfish: Option<String>,
    /// The usual start position (FEN).
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub pieces: BTreeMap<String, PieceDef>,
}

fn board_size<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[usize; 2], D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Size {
        Square(usize),
        Rect([usize; 2]),
    }
    Ok(match Size::deserialize(d)? {
        Size::Square(n) => [n, n],
        Size::Rect(size) => size,
    })
}

impl VariantDef {
    /// The start position in FEN: `start` if given, else built from `initialPiecePositions`
    /// (White to move, castling rights for every king and rook on their home squares if castling is on).
    pub fn start_fen(&self) -> Result<Option<String>, String> {
        if let Some(start) = &self.start {
            return Ok(Some(start.clone()));
        }
        let Some(ranks) = &self.initial_piece_positions else { return Ok(None) };
        let [files, height] = self.board;
        let mut grid: Vec<Vec<Option<char>>> = vec![vec![None; files]; height];
        for (rank, pieces) in ranks {
            let field = format!("initialPiecePositions.{rank}");
            let rank: usize = rank.parse().map_err(|_| format!("{field}: a rank is a number from 0"))?;
            if rank >= height || pieces.len() > files {
                return Err(format!("{field}: does not fit the {files} x {height} board"));
            }
            for (file, piece) in pieces.iter().enumerate() {
                let Some(piece) = piece else { continue };
                let (white, id) = match (self.is_asymmetric, piece.strip_prefix('W'), piece.strip_prefix('B')) {
                    (false, _, _) => (true, piece.as_str()),
                    (true, Some(id), _) => (true, id),
                    (true, _, Some(id)) => (false, id),
                    _ => return Err(format!("{field}: {piece:?}; asymmetric games prefix pieces with W or B")),
                };
                let letter = id
                    .chars()
                    .next()
                    .filter(|_| self.pieces.contains_key(id))
                    .ok_or(format!("{field}: no piece {id:?}"))?;
                grid[rank][file] = Some(if white { letter } else { letter.to_ascii_lowercase() });
                if !self.is_asymmetric {
                    grid[height - 1 - rank][file] = Some(letter.to_ascii_lowercase());
                }
            }
        }
        let rows: Vec<String> = grid
            .iter()
            .rev()
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for cell in row {
                    match cell {
                        None => empty += 1,
                        Some(c) => {
                            if empty > 0 {
                                text += &empty.to_string();
                                empty = 0;
                            }
                            text.push(*c);
                        }
                    }
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                text
            })
            .collect();
        let rights = if self.castling { "KQkq" } else { "-" };
        Ok(Some(format!("{} w {rights} - 0 1", rows.join("/"))))
    }
}

#[derive(Clone, Debug, Deserialize)]
pub struct PieceDef {
    /// What the piece is worth, in pawns (the seed model's `value`); the computer player estimates
    /// it from the piece's moves when a definition leaves it out.
    #[serde(default)]
    pub value: Option<f64>,
    pub moves: Vec<MoveNode>,
    #[serde(rename = "expandMoves", default)]
    pub expand: Option<String>,
    #[serde(default)]
    pub royal: bool,
    #[serde(default)]
    pub pawn: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub struct MoveNode {
    #[serde(rename = "move")]
    pub spec: MoveSpec,
    #[serde(default)]
    pub children: Vec<MoveNode>,
    #[serde(default)]
    pub when: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum MoveSpec {
    Ref {
        #[serde(rename = "ref")]
        piece: String,
    },
    Step {
        #[serde(rename = "type")]
        kind: String,
        direction: [i32; 2],
        #[serde(default)]
        length: Option<u32>,
        #[serde(rename = "reflectionLimit", default)]
        reflection_limit: Option<u32>,
        #[serde(default)]
        option: Option<String>,
    },
}

/// How a move treats the first piece in its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hop {
    /// Stops there (captures an enemy).
    None,
    /// The cannon: jumps it, then rides on to the next piece.
    Cannon,
    /// The grasshopper: lands on the square just behind it.
    Grasshopper,
}

/// `when`: the seed's `moveCount0` (the piece has not moved yet), generalised to `moveCountN` (exactly
/// N moves made) and `moveCount%M=R` (the count is R modulo M: an imitator cycling through pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Condition {
    Count(u16),
    Cycle { every: u16, at: u16 },
}

impl Condition {
    pub fn parse(text: &str) -> Result<Condition, String> {
        let bad = || format!("unsupported condition {text:?} (moveCountN or moveCount%M=R)");
        let rest = text.strip_prefix("moveCount").ok_or_else(bad)?;
        if let Some(cycle) = rest.strip_prefix('%') {
            let (every, at) = cycle.split_once('=').ok_or_else(bad)?;
            let (every, at): (u16, u16) = (every.parse().map_err(|_| bad())?, at.parse().map_err(|_| bad())?);
            if every == 0 || at >= every {
                return Err(bad());
            }
            return Ok(Condition::Cycle { every, at });
        }
        rest.parse().map(Condition::Count).map_err(|_| bad())
    }

    pub fn holds(self, count: u16) -> bool {
        match self {
            Condition::Count(n) => count == n,
            Condition::Cycle { every, at } => count % every == at,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    Both,
    MoveOnly,
    CaptureOnly,
}

/// One compiled step: a leap or a ride in a fixed direction (already turned for its colour).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Node {
    pub rider: bool,
    pub hop: Hop,
    pub dx: i32,
    pub dy: i32,
    /// Ride limit (0: unlimited).
    pub length: u32,
    pub reflections: u32,
    pub mode: Mode,
    /// A condition on the piece's move count.
    pub when: Option<Condition>,
    pub children: Vec<Node>,
}

impl Node {
    fn transform(&self, f: &impl Fn(i32, i32) -> (i32, i32)) -> Node {
        let (dx, dy) = f(self.dx, self.dy);
        Node { dx, dy, children: self.children.iter().map(|c| c.transform(f)).collect(), ..self.clone() }
    }
}

/// A symmetry of the board, on directions.
type Symmetry = fn(i32, i32) -> (i32, i32);

/// The symmetric images an `expandMoves` value asks for, the identity first.
fn images(expand: Option<&str>) -> Vec<Symmetry> {
    let identity: Symmetry = |x, y| (x, y);
    match expand {
        Some("V") => vec![identity, |x, y| (x, -y)],
        Some("H") => vec![identity, |x, y| (-x, y)],
        Some("X") => vec![
            identity,
            |x, y| (-x, y),
            |x, y| (x, -y),
            |x, y| (-x, -y),
            |x, y| (y, x),
            |x, y| (-y, x),
            |x, y| (y, -x),
            |x, y| (-y, -x),
        ],
        _ => vec![identity],
    }
}

/// At most this many compiled steps (children counted) per piece: references and expansions
/// multiply, so a short definition could otherwise ask for millions.
pub const MAX_STEPS: usize = 1024;

/// How far a single step may go in each axis (a 12 x 12 board has 11 files beside any square).
const MAX_OFFSET: i32 = super::MAX_FILES as i32 - 1;

fn steps(nodes: &[Node]) -> usize {
    nodes.iter().map(|n| 1 + steps(&n.children)).sum()
}

/// Compiles a piece's moves (references resolved, expansions applied, duplicates dropped), as seen
/// from White. Errors name the field at fault (`pieces.G.moves[0].move.type: ...`).
pub fn compile(pieces: &BTreeMap<String, PieceDef>, id: &str, depth: usize) -> Result<Vec<Node>, String> {
    let path = format!("pieces.{id}");
    if depth > 8 {
        return Err(format!("{path}: references loop (or nest deeper than 8)"));
    }
    let def = pieces.get(id).ok_or_else(|| format!("{path}: no such piece"))?;
    let mut base = Vec::new();
    for (index, node) in def.moves.iter().enumerate() {
        base.extend(compile_node(pieces, node, depth, &format!("{path}.moves[{index}]"))?);
        if steps(&base) > MAX_STEPS {
            return Err(format!("{path}.moves: more than {MAX_STEPS} steps once references are resolved"));
        }
    }
    let mut out: Vec<Node> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for image in images(def.expand.as_deref()) {
        for node in &base {
            let turned = node.transform(&image);
            if seen.insert(turned.clone()) {
                out.push(turned);
            }
        }
        if steps(&out) > MAX_STEPS {
            return Err(format!("{path}.expandMoves: more than {MAX_STEPS} steps once expanded"));
        }
    }
    Ok(out)
}

fn compile_node(
    pieces: &BTreeMap<String, PieceDef>,
    node: &MoveNode,
    depth: usize,
    path: &str,
) -> Result<Vec<Node>, String> {
    let when = node.when.as_deref().map(Condition::parse).transpose().map_err(|e| format!("{path}.when: {e}"))?;
    match &node.spec {
        MoveSpec::Ref { piece } => {
            if !pieces.contains_key(piece) {
                return Err(format!("{path}.move.ref: no piece {piece:?}"));
            }
            let mut nodes = compile(pieces, piece, depth + 1)?;
            for n in &mut nodes {
                if when.is_some() && n.when.is_some() {
                    return Err(format!(
                        "{path}.when: a condition on a reference to {piece}, whose moves have their own"
                    ));
                }
                n.when = n.when.or(when);
            }
            Ok(nodes)
        }
        MoveSpec::Step { kind, direction, length, reflection_limit, option } => {
            let (rider, hop) = match kind.as_str() {
                "leaper" => (false, Hop::None),
                "rider" => (true, Hop::None),
                "hopper" => (true, Hop::Cannon),
                "grasshopper" => (true, Hop::Grasshopper),
                other => {
                    return Err(format!(
                        "{path}.move.type: {other:?} is not a move type (leaper, rider, hopper, grasshopper)"
                    ))
                }
            };
            let mode = match option.as_deref() {
                None => Mode::Both,
                Some("move-only") => Mode::MoveOnly,
                Some("capture-only") => Mode::CaptureOnly,
                Some(other) => return Err(format!("{path}.move.option: {other:?} is not move-only or capture-only")),
            };
            let [dx, dy] = *direction;
            if (dx, dy) == (0, 0) || dx.abs() > MAX_OFFSET || dy.abs() > MAX_OFFSET {
                return Err(format!(
                    "{path}.move.direction: [{dx}, {dy}] must move, at most {MAX_OFFSET} squares each way"
                ));
            }
            let length = length.unwrap_or(0);
            if length > MAX_OFFSET as u32 {
                return Err(format!("{path}.move.length: {length} is more than {MAX_OFFSET} (0 or absent: no limit)"));
            }
            let reflections = reflection_limit.unwrap_or(0);
            if reflections > 16 {
                return Err(format!("{path}.move.reflectionLimit: {reflections} is more than 16"));
            }
            let mut children = Vec::new();
            for (index, child) in node.children.iter().enumerate() {
                children.extend(compile_node(pieces, child, depth, &format!("{path}.children[{index}]"))?);
            }
            Ok(vec![Node { rider, hop, dx, dy, length, reflections, mode, when, children }])
        }
    }
}
