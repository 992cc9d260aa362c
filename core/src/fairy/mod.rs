//! Fairy chess from data: variants and pieces in the seed's JSON model (`shared/rules/fairy.md`),
//! compiled into move trees; positions in FEN (up to 12 x 12), moves in UCI notation as
//! Fairy-Stockfish writes them, perft. Copy-make positions on a mailbox board.

#[cfg(feature = "definitions")]
mod definition;
#[cfg(test)]
mod differential;
#[cfg(feature = "definitions")]
pub use definition::MAX_DEFINITION_BYTES;

/// The built-in variants in the seed's JSON model, by name: what rooms store, and starting points
/// for a custom variant.
pub const BUILTIN_DEFINITIONS: &str = include_str!("../../data/fairy-variants.json");
mod draws;
mod figures;
mod game;
mod material;
mod model;
pub mod pgn;
pub mod reach;
mod san;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use game::{Chess, ChessConfig, ChessError, UciMove};
pub use model::VariantDef;
use model::{compile, Condition, Hop, Mode, Node};

pub const MAX_FILES: usize = 12;
pub const MAX_SQUARES: usize = MAX_FILES * MAX_FILES;
const NONE: u8 = u8::MAX;

/// A piece type of a variant, with its moves for White and for Black (dy turned over).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct PieceType {
    letter: char,
    royal: bool,
    pawn: bool,
    /// Compiled, only White's are written: Black's are theirs turned over.
    #[serde(serialize_with = "write_white", deserialize_with = "read_white")]
    nodes: [Vec<Node>; 2],
    /// Whether attacks can be found by walking back from the target (no capturing move with
    /// children, bounces or conditions); otherwise the pieces of this type are asked forward.
    simple: bool,
    /// Two of its moves can reach one square (same direction twice, children, bounces).
    needs_dedup: bool,
    /// A chess king, knight or bishop, for the material draw.
    shape: draws::Shape,
    /// The drawing that shows it, if one does (`figures.rs`).
    figure: Option<String>,
    /// Its worth in centipawns, if the definition gives one (`material.rs` estimates the others).
    value: Option<i32>,
}

/// Simple attacks along one direction (as the attacker moves): which piece types leap it, which
/// ride it without limit, which ride it a limited distance.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct AttackLine {
    dx: i32,
    dy: i32,
    leapers: u64,
    riders: u64,
    limited: Vec<(usize, u32)>,
}

fn attack_lines(pieces: &[PieceType], colour: usize) -> Vec<AttackLine> {
    let mut lines: Vec<AttackLine> = Vec::new();
    for (index, piece) in pieces.iter().enumerate().filter(|(_, p)| p.simple) {
        for node in piece.nodes[colour].iter().filter(|n| n.mode != Mode::MoveOnly) {
            let at = match lines.iter().position(|l| (l.dx, l.dy) == (node.dx, node.dy)) {
                Some(at) => at,
                None => {
                    lines.push(AttackLine { dx: node.dx, dy: node.dy, ..AttackLine::default() });
                    lines.len() - 1
                }
            };
            let line = &mut lines[at];
            match (node.rider, node.length) {
                (false, _) | (true, 1) => line.leapers |= 1 << index,
                (true, 0) => line.riders |= 1 << index,
                (true, n) => line.limited.push((index, n)),
            }
        }
    }
    lines
}

/// A compiled variant.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Variant {
    pub name: String,
    files: usize,
    ranks: usize,
    castling: bool,
    /// Queenside then kingside: the files castling puts the king and the rook on.
    castling_files: [[usize; 2]; 2],
    stalemate_loses: bool,
    bare_king_loses: bool,
    promotion: Vec<u8>,
    /// Per colour, the ranks (absolute) where a pawn counts as unmoved.
    double_step: [Vec<usize>; 2],
    /// Promotion is optional on this many last ranks, mandatory on the last.
    promotion_ranks: usize,
    /// Per piece type: at most this many on the board after a promotion. (Not `usize::MAX` for "no
    /// limit": compiled natively, that would not read back on wasm32.)
    promotion_limits: Vec<Option<usize>>,
    pub description: String,
    /// The start position, if the data gives one.
    pub start: Option<String>,
    /// Fairy-Stockfish's name for the same game, if it has one.
    pub fairy_stockfish: Option<String>,
    pieces: Vec<PieceType>,
    /// Some piece needs forward generation to find its attacks.
    has_complex: bool,
    /// By attacking colour (compiled: computed again when read).
    #[serde(skip)]
    lines: [Vec<AttackLine>; 2],
    /// File and rank of each square (no division in the move loops).
    #[serde(skip, default = "no_coords")]
    coords: [(i32, i32); MAX_SQUARES],
}

fn write_white<S: serde::Serializer>(nodes: &[Vec<Node>; 2], s: S) -> Result<S::Ok, S::Error> {
    nodes[0].serialize(s)
}

fn read_white<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[Vec<Node>; 2], D::Error> {
    let white = Vec::<Node>::deserialize(d)?;
    let black = flip(&white);
    Ok([white, black])
}

fn no_coords() -> [(i32, i32); MAX_SQUARES] {
    [(0, 0); MAX_SQUARES]
}

fn coords_of(files: usize, ranks: usize) -> [(i32, i32); MAX_SQUARES] {
    let mut coords = no_coords();
    for (sq, c) in coords.iter_mut().enumerate().take(files * ranks) {
        *c = ((sq % files) as i32, (sq / files) as i32);
    }
    coords
}

fn flip(nodes: &[Node]) -> Vec<Node> {
    nodes.iter().map(|n| Node { dy: -n.dy, children: flip(&n.children), ..n.clone() }).collect()
}

impl Variant {
    pub fn from_def(name: &str, def: &VariantDef) -> Result<Variant, String> {
        let [files, ranks] = def.board;
        if !(1..=MAX_FILES).contains(&files) || !(1..=MAX_FILES).contains(&ranks) {
            return Err(format!("board: {files} x {ranks}; from 1 x 1 to 12 x 12"));
        }
        if def.pieces.len() > 63 {
            return Err(format!("pieces: {} piece types; at most 63", def.pieces.len()));
        }
        let mut pieces = Vec::new();
        for (id, piece) in &def.pieces {
            let mut letters = id.chars();
            let letter = letters.next().filter(|c| c.is_ascii_uppercase() && letters.next().is_none());
            let letter =
                letter.ok_or_else(|| format!("pieces.{id}: a piece's id is one capital letter (FEN needs it)"))?;
            let white = compile(&def.pieces, id, 0)?;
            let plain = |n: &Node| n.children.is_empty() && n.reflections == 0 && n.hop == Hop::None;
            // A piece attacks every square any path of its tree can capture on: a move-only step
            // attacks nothing itself, but its children may (the seed's griffin), so only a
            // move-only step without children can be left out of the attack test.
            let simple = white.iter().all(|n| match n.mode {
                Mode::MoveOnly => n.children.is_empty(),
                _ => plain(n) && n.when.is_none(),
            });
            let mut directions: Vec<(i32, i32)> = white.iter().map(|n| (n.dx, n.dy)).collect();
            directions.sort_unstable();
            directions.dedup();
            let needs_dedup = directions.len() != white.len() || !white.iter().all(plain);
            let black = flip(&white);
            let shape = draws::shape(&white, piece.royal);
            let figure = figures::figure(&white, piece.royal, piece.pawn);
            pieces.push(PieceType {
                letter,
                royal: piece.royal,
                pawn: piece.pawn,
                nodes: [white, black],
                simple,
                needs_dedup,
                shape,
                figure,
                // Bounded, so that a hostile definition cannot overflow an evaluation.
                value: piece.value.filter(|v| v.is_finite()).map(|v| (v * 100.0).clamp(0.0, 100_000.0).round() as i32),
            });
        }
        let index = |id: &String| pieces.iter().position(|p| p.letter.to_string() == *id).map(|i| i as u8);
        let promotion = def
            .promotion
            .iter()
            .enumerate()
            .map(|(at, id)| index(id).ok_or(format!("promotion[{at}]: no piece {id:?}")))
            .collect::<Result<_, _>>()?;
        let has_complex = pieces.iter().any(|p| !p.simple);
        let white_steps = def
            .double_step_ranks_white_0based
            .clone()
            .unwrap_or_else(|| vec![def.double_step_rank_white_0based.unwrap_or(1)]);
        let black_steps = def
            .double_step_ranks_black_0based
            .clone()
            .unwrap_or_else(|| vec![ranks - 1 - def.double_step_rank_white_0based.unwrap_or(1)]);
        let mut promotion_limits = vec![None; pieces.len()];
        for (id, &limit) in &def.promotion_limits {
            let at = pieces
                .iter()
                .position(|p| p.letter.to_string() == *id)
                .ok_or(format!("promotion_limits.{id}: no such piece"))?;
            promotion_limits[at] = Some(limit);
        }
        let kings = def.castling_king_files.unwrap_or([2, files.saturating_sub(2)]);
        let rooks = def.castling_rook_files.unwrap_or([kings[0] + 1, kings[1].saturating_sub(1)]);
        if kings.iter().chain(&rooks).any(|&f| f >= files) {
            return Err(format!(
                "castling_king_files, castling_rook_files: {kings:?} and {rooks:?} must be on the board's {files} files"
            ));
        }
        let mut variant = Variant {
            castling_files: [[kings[0], rooks[0]], [kings[1], rooks[1]]],
            fairy_stockfish: def.fairy_stockfish.clone(),
            stalemate_loses: def.stalemate_loses,
            bare_king_loses: def.bare_king_loses,
            double_step: [white_steps, black_steps],
            promotion_ranks: def.promotion_ranks.unwrap_or(1).max(1),
            promotion_limits,
            description: def.description.clone().unwrap_or_default(),
            start: def.start_fen()?,
            coords: no_coords(),
            has_complex,
            lines: Default::default(),
            name: name.to_owned(),
            files,
            ranks,
            castling: def.castling,
            promotion,
            pieces,
        };
        variant.derive_tables();
        Ok(variant)
    }

    /// Reads a JSON object of variants (`{"chess": {...}, ...}`).
    pub fn all_from_json(text: &str) -> Result<BTreeMap<String, Variant>, String> {
        let defs: BTreeMap<String, serde_json::Value> = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut out = BTreeMap::new();
        for (name, value) in defs {
            let def: VariantDef = serde_json::from_value(value).map_err(|e| format!("{name}: {e}"))?;
            out.insert(name.clone(), Variant::from_def(&name, &def).map_err(|e| format!("{name}: {e}"))?);
        }
        Ok(out)
    }

    /// Variants already compiled, as bytes (postcard): what the web app reads its built-in variants
    /// from (see `core/build.rs`).
    pub fn to_compiled(variants: &BTreeMap<String, Variant>) -> Vec<u8> {
        postcard::to_allocvec(variants).expect("variants serialise")
    }

    /// Reads what `to_compiled` wrote.
    pub fn from_compiled(bytes: &[u8]) -> Result<BTreeMap<String, Variant>, String> {
        let mut variants: BTreeMap<String, Variant> = postcard::from_bytes(bytes).map_err(|e| e.to_string())?;
        variants.values_mut().for_each(Variant::derive_tables);
        Ok(variants)
    }

    /// This variant compiled, as hex text: how a room's variant reaches the pages that carry no
    /// reader of the JSON model (the server writes it; `from_compiled_text` reads it).
    pub fn compiled_text(&self) -> String {
        hex::encode(postcard::to_allocvec(self).expect("a variant serialises"))
    }

    /// Reads what `compiled_text` wrote, refusing bytes whose indices could not be played.
    pub fn from_compiled_text(text: &str) -> Result<Variant, String> {
        // Fixed words: the decoders' own messages would bring their formatting into every room.
        let bytes = hex::decode(text).map_err(|_| "a compiled variant that is not hex".to_owned())?;
        let mut variant: Variant =
            postcard::from_bytes(&bytes).map_err(|_| "a compiled variant that does not read".to_owned())?;
        let pieces = variant.pieces.len();
        let fits = (1..=MAX_FILES).contains(&variant.files)
            && (1..=MAX_FILES).contains(&variant.ranks)
            && pieces <= 63
            && variant.promotion.iter().all(|&p| (p as usize) < pieces)
            && variant.promotion_limits.len() == pieces
            && variant.castling_files.iter().flatten().all(|&f| f < variant.files);
        if !fits {
            return Err("a compiled variant that does not fit its board".into());
        }
        variant.derive_tables();
        Ok(variant)
    }

    /// The tables that follow from the rest (not written when compiled): attack lines, square coordinates.
    fn derive_tables(&mut self) {
        self.lines = [attack_lines(&self.pieces, 0), attack_lines(&self.pieces, 1)];
        self.coords = coords_of(self.files, self.ranks);
    }

    pub fn files(&self) -> usize {
        self.files
    }

    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// Whether the piece written `letter` (either case) is royal: the one that can be checkmated.
    pub fn is_royal(&self, letter: char) -> bool {
        self.piece_of(letter).is_some_and(|p| self.pieces[p as usize].royal)
    }

    /// The name of the drawing that shows the piece written `letter` (`site/static/pieces.svg`):
    /// `knight`, `archbishop`; `None` for a piece no drawing shows (or no such piece).
    pub fn figure(&self, letter: char) -> Option<&str> {
        self.piece_of(letter).and_then(|p| self.pieces[p as usize].figure.as_deref())
    }

    /// The letters (upper case) of the pieces a pawn may promote to, in the variant's order.
    pub fn promotion_letters(&self) -> Vec<char> {
        self.promotion.iter().map(|&p| self.pieces[p as usize].letter.to_ascii_uppercase()).collect()
    }

    /// A built-in variant by its name, or by Fairy-Stockfish's name for it (`chancellor`, `losalamos`).
    pub fn named(name: &str) -> Option<&'static Variant> {
        let builtin = Variant::builtin();
        builtin.get(name).or_else(|| builtin.values().find(|v| v.fairy_stockfish.as_deref() == Some(name)))
    }

    /// A built-in variant as `named` finds it, shared: what a game holds (no copy per game).
    #[cfg(not(compiled_variants))]
    pub fn shared(name: &str) -> Option<std::sync::Arc<Variant>> {
        static SHARED: std::sync::OnceLock<BTreeMap<String, std::sync::Arc<Variant>>> = std::sync::OnceLock::new();
        let shared = SHARED.get_or_init(|| {
            // Inserted one by one: collecting would link a sort into every room's page.
            let mut shared = BTreeMap::new();
            for (name, variant) in Variant::builtin() {
                shared.insert(name.clone(), std::sync::Arc::new(variant.clone()));
            }
            shared
        });
        shared.get(&Variant::named(name)?.name).cloned()
    }

    /// In the web app, which plays one variant at a time, a copy: no map of them all (its code is
    /// about a kilobyte of a room's page).
    #[cfg(compiled_variants)]
    pub fn shared(name: &str) -> Option<std::sync::Arc<Variant>> {
        Variant::named(name).map(|variant| std::sync::Arc::new(variant.clone()))
    }

    /// The variants Tabula ships (`core/data/fairy-variants.json`), by name. A build without the
    /// `builtin-variants` feature (the rooms' pages: the server sends each room's variant compiled)
    /// ships orthodox chess alone, shown until a room's variant arrives (or none, natively).
    pub fn builtin() -> &'static BTreeMap<String, Variant> {
        static BUILTIN: std::sync::OnceLock<BTreeMap<String, Variant>> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            #[cfg(all(not(feature = "builtin-variants"), compiled_variants))]
            {
                let chess = Variant::from_compiled_text(include_str!(env!("TABULA_FAIRY_CHESS"))).expect("chess reads");
                let mut variants = BTreeMap::new();
                variants.insert(chess.name.clone(), chess);
                return variants;
            }
            #[cfg(all(not(feature = "builtin-variants"), not(compiled_variants)))]
            return BTreeMap::new();
            #[cfg(all(feature = "builtin-variants", compiled_variants))]
            let variants = Variant::from_compiled(include_bytes!(env!("TABULA_FAIRY_VARIANTS")));
            #[cfg(all(feature = "builtin-variants", not(compiled_variants)))]
            let variants = Variant::all_from_json(include_str!("../../data/fairy-variants.json"));
            #[cfg(feature = "builtin-variants")]
            variants.expect("the shipped variants compile")
        })
    }

    fn piece_of(&self, letter: char) -> Option<u8> {
        self.pieces.iter().position(|p| p.letter == letter.to_ascii_uppercase()).map(|i| i as u8)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    None,
    EnPassant(u8),
    /// Rook from, rook to.
    Castle(u8, u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    from: u8,
    to: u8,
    /// Piece index + 1 of the promotion, or 0.
    promotion: u8,
    special: Special,
}

/// A position: mailbox squares (`rank * files + file`, rank 0 is White's first), each 0 for empty or
/// `1 + piece index + 64 * colour`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    squares: [u8; MAX_SQUARES],
    /// 0 White, 1 Black.
    side: u8,
    /// Squares of the rooks that may still castle (NONE when unused).
    castle_rooks: [u8; 4],
    ep: u8,
    chess960: bool,
    /// Each side's royal piece square (NONE without one).
    royal: [u8; 2],
    /// Plies since the last capture or pawn move, and the move number.
    halfmove: u16,
    fullmove: u16,
    /// How many moves the piece on each square has made (0 for pieces read from a FEN).
    moved: [u16; MAX_SQUARES],
}

fn colour_of(cell: u8) -> u8 {
    (cell - 1) / 64
}

fn piece_of(cell: u8) -> usize {
    ((cell - 1) % 64) as usize
}

fn file_char(file: usize) -> char {
    (b'a' + file as u8) as char
}

impl Position {
    pub fn from_fen(variant: &Variant, fen: &str, chess960: bool) -> Result<Position, String> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or("empty FEN")?;
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != variant.ranks {
            return Err(format!("{} ranks in the FEN, the board has {}", rows.len(), variant.ranks));
        }
        let mut squares = [0u8; MAX_SQUARES];
        for (i, row) in rows.iter().enumerate() {
            let rank = variant.ranks - 1 - i;
            let (mut file, mut digits) = (0usize, String::new());
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    if chars.peek().is_some_and(|n| n.is_ascii_digit()) {
                        continue;
                    }
                    file = file.saturating_add(digits.parse::<usize>().map_err(|e| e.to_string())?);
                    digits.clear();
                    continue;
                }
                let piece = variant.piece_of(c).ok_or_else(|| format!("unknown piece {c:?}"))?;
                if file >= variant.files {
                    return Err(format!("rank {} is too long", rank + 1));
                }
                let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
                squares[rank * variant.files + file] = 1 + piece + 64 * colour;
                file += 1;
            }
            if file != variant.files {
                return Err(format!("rank {} has {file} files, not {}", rank + 1, variant.files));
            }
        }
        let side = match fields.next().unwrap_or("w") {
            "w" => 0,
            "b" => 1,
            other => return Err(format!("side to move {other:?}")),
        };
        let mut position = Position {
            squares,
            side,
            castle_rooks: [NONE; 4],
            ep: NONE,
            chess960,
            royal: [NONE; 2],
            halfmove: 0,
            fullmove: 1,
            moved: [0; MAX_SQUARES],
        };
        for colour in 0..2u8 {
            let royal = (0..variant.files * variant.ranks).filter(|&sq| {
                let cell = squares[sq];
                cell != 0 && colour_of(cell) == colour && variant.pieces[piece_of(cell)].royal
            });
            let royal: Vec<usize> = royal.collect();
            if royal.len() > 1 {
                return Err("more than one royal piece of a colour".into());
            }
            position.royal[colour as usize] = royal.first().map_or(NONE, |&sq| sq as u8);
        }
        let rights = fields.next().unwrap_or("-");
        let mut slot = 0;
        // A variant without castling has no castling rights, whatever a FEN from elsewhere says.
        for c in rights.chars().filter(|&c| c != '-' && variant.castling) {
            let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
            let rank = if colour == 0 { 0 } else { variant.ranks - 1 };
            let king = (0..variant.files)
                .find(|&f| {
                    position
                        .piece_at(rank * variant.files + f)
                        .is_some_and(|(p, col)| col == colour && variant.pieces[p].royal)
                })
                .ok_or_else(|| format!("castling right {c} without a king on the back rank"))?;
            let is_rook = |f: usize| {
                let cell = position.squares[rank * variant.files + f];
                cell != 0
                    && colour_of(cell) == colour
                    && !variant.pieces[piece_of(cell)].royal
                    && !variant.pieces[piece_of(cell)].pawn
            };
            let file = match c.to_ascii_lowercase() {
                'k' => (king + 1..variant.files).rev().find(|&f| is_rook(f)),
                'q' => (0..king).find(|&f| is_rook(f)),
                letter => Some((letter as u8).wrapping_sub(b'a') as usize).filter(|&f| f < variant.files && is_rook(f)),
            }
            .ok_or_else(|| format!("castling right {c} without its rook"))?;
            if slot < 4 {
                position.castle_rooks[slot] = (rank * variant.files + file) as u8;
                slot += 1;
            }
        }
        if let Some(ep) = fields.next().filter(|&e| e != "-") {
            position.ep = parse_square(variant, ep).ok_or_else(|| format!("bad en passant square {ep:?}"))? as u8;
        }
        position.halfmove = fields.next().map_or(Ok(0), str::parse).map_err(|_| "bad halfmove clock")?;
        position.fullmove = fields.next().map_or(Ok(1), str::parse).map_err(|_| "bad move number")?;
        Ok(position)
    }

    /// The piece on `sq` and its colour.
    pub(crate) fn piece_at(&self, sq: usize) -> Option<(usize, u8)> {
        let cell = self.squares[sq];
        (cell != 0).then(|| (piece_of(cell), colour_of(cell)))
    }

    #[inline]
    fn step(variant: &Variant, sq: usize, dx: i32, dy: i32) -> Option<usize> {
        let (f, r) = variant.coords[sq];
        let (f, r) = (f + dx, r + dy);
        (f >= 0 && r >= 0 && (f as usize) < variant.files && (r as usize) < variant.ranks)
            .then(|| r as usize * variant.files + f as usize)
    }

    /// Whether a move's condition holds for the piece on `origin`. A pawn's `moveCount0` means its
    /// double-step rank(s), as Fairy-Stockfish plays it (a FEN carries no move counts).
    fn condition_holds(&self, variant: &Variant, origin: usize, piece: usize, colour: u8, when: Condition) -> bool {
        if variant.pieces[piece].pawn && when == Condition::Count(0) {
            return variant.double_step[colour as usize].contains(&(origin / variant.files));
        }
        when.holds(self.moved[origin])
    }

    /// Adds the targets of `node` from `at` for the piece on `origin` (treated as empty: it moves).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        variant: &Variant,
        origin: usize,
        at: usize,
        node: &Node,
        piece: usize,
        colour: u8,
        out: &mut Vec<(usize, bool)>,
    ) {
        if let Some(when) = node.when {
            if !self.condition_holds(variant, origin, piece, colour, when) {
                return;
            }
        }
        let occupant = |sq: usize| if sq == origin { 0 } else { self.squares[sq] };
        if node.hop != Hop::None {
            return self.hop(variant, origin, node, colour, out);
        }
        let (mut dx, mut dy) = (node.dx, node.dy);
        let (mut sq, mut steps, mut bounces) = (at, 0u32, 0u32);
        loop {
            let next = match Self::step(variant, sq, dx, dy) {
                Some(next) => next,
                None if node.rider && bounces < node.reflections => {
                    let (f, r) = variant.coords[sq];
                    if f + dx < 0 || f + dx >= variant.files as i32 {
                        dx = -dx;
                    }
                    if r + dy < 0 || r + dy >= variant.ranks as i32 {
                        dy = -dy;
                    }
                    bounces += 1;
                    match Self::step(variant, sq, dx, dy) {
                        Some(next) => next,
                        None => return,
                    }
                }
                None => return,
            };
            steps += 1;
            let cell = occupant(next);
            if cell == 0 {
                if node.mode != Mode::CaptureOnly && next != origin {
                    out.push((next, false));
                } else if node.mode == Mode::CaptureOnly && next as u8 == self.ep && variant.pieces[piece].pawn {
                    out.push((next, true));
                }
                for child in &node.children {
                    self.walk(variant, origin, next, child, piece, colour, out);
                }
            } else {
                if colour_of(cell) != colour && node.mode != Mode::MoveOnly {
                    out.push((next, true));
                }
                return;
            }
            if !node.rider || (node.length > 0 && steps >= node.length) {
                return;
            }
            sq = next;
        }
    }

    /// Hoppers: ride over empty squares to the first piece (the screen); the grasshopper lands just
    /// behind it, the cannon rides on to the next piece and takes it.
    fn hop(&self, variant: &Variant, origin: usize, node: &Node, colour: u8, out: &mut Vec<(usize, bool)>) {
        let mut sq = origin;
        let mut screened = false;
        while let Some(next) = Self::step(variant, sq, node.dx, node.dy) {
            sq = next;
            let cell = self.squares[next];
            if !screened {
                if cell == 0 {
                    continue;
                }
                screened = true;
                if node.hop == Hop::Grasshopper {
                    let Some(land) = Self::step(variant, next, node.dx, node.dy) else { return };
                    let target = self.squares[land];
                    if target == 0 && node.mode != Mode::CaptureOnly {
                        out.push((land, false));
                    } else if target != 0 && colour_of(target) != colour && node.mode != Mode::MoveOnly {
                        out.push((land, true));
                    }
                    return;
                }
                continue;
            }
            if cell == 0 {
                if node.mode != Mode::CaptureOnly {
                    out.push((next, false));
                }
                continue;
            }
            if colour_of(cell) != colour && node.mode != Mode::MoveOnly {
                out.push((next, true));
            }
            return;
        }
    }

    fn targets(&self, variant: &Variant, sq: usize, out: &mut Vec<(usize, bool)>) {
        let cell = self.squares[sq];
        let (piece, colour) = (piece_of(cell), colour_of(cell));
        for node in &variant.pieces[piece].nodes[colour as usize] {
            self.walk(variant, sq, sq, node, piece, colour, out);
        }
    }

    /// Whether a piece of `by` attacks `target`.
    pub fn attacked(&self, variant: &Variant, target: usize, by: u8) -> bool {
        for line in &variant.lines[by as usize] {
            let mut sq = target;
            let mut steps = 0u32;
            while let Some(prev) = Self::step(variant, sq, -line.dx, -line.dy) {
                steps += 1;
                let cell = self.squares[prev];
                if cell == 0 {
                    if line.riders == 0 && line.limited.is_empty() {
                        break;
                    }
                    sq = prev;
                    continue;
                }
                if colour_of(cell) == by {
                    let piece = piece_of(cell);
                    let bit = 1u64 << piece;
                    if (steps == 1 && line.leapers & bit != 0)
                        || line.riders & bit != 0
                        || line.limited.iter().any(|&(p, n)| p == piece && steps <= n)
                    {
                        return true;
                    }
                }
                break;
            }
        }
        if !variant.has_complex {
            return false;
        }
        // The other pieces are asked forward, with an enemy standing on an empty target so that
        // a capture there shows (castling asks about empty squares).
        let mut probe = *self;
        if probe.squares[target] == 0 {
            probe.squares[target] = 1 + 64 * (1 - by);
        }
        let mut out = Vec::new();
        for sq in 0..variant.files * variant.ranks {
            let cell = probe.squares[sq];
            if cell != 0 && colour_of(cell) == by && !variant.pieces[piece_of(cell)].simple {
                out.clear();
                probe.targets(variant, sq, &mut out);
                if out.iter().any(|&(to, capture)| capture && to == target) {
                    return true;
                }
            }
        }
        false
    }

    fn royal_square(&self, _variant: &Variant, colour: u8) -> Option<usize> {
        let sq = self.royal[colour as usize];
        (sq != NONE).then_some(sq as usize)
    }

    /// Whether `colour` (0 White, 1 Black) has a royal piece on the board.
    pub fn has_royal(&self, colour: u8) -> bool {
        self.royal[colour as usize] != NONE
    }

    pub fn in_check(&self, variant: &Variant) -> bool {
        self.royal_square(variant, self.side).is_some_and(|k| self.attacked(variant, k, 1 - self.side))
    }

    fn pseudo_moves(&self, variant: &Variant, moves: &mut Vec<Move>) {
        let mut targets = Vec::new();
        // How far into the promotion zone a rank is: 1 on the last rank, 0 outside the zone.
        let zone = |colour: u8, rank: usize| {
            let depth = if colour == 0 { variant.ranks - rank } else { rank + 1 };
            if depth <= variant.promotion_ranks {
                depth
            } else {
                0
            }
        };
        let mut on_board = [0usize; 64];
        for &cell in &self.squares[..variant.files * variant.ranks] {
            if cell != 0 && colour_of(cell) == self.side {
                on_board[piece_of(cell)] += 1;
            }
        }
        let candidates: Vec<u8> = variant
            .promotion
            .iter()
            .copied()
            .filter(|&p| variant.promotion_limits[p as usize].is_none_or(|limit| on_board[p as usize] < limit))
            .collect();
        for from in 0..variant.files * variant.ranks {
            let cell = self.squares[from];
            if cell == 0 || colour_of(cell) != self.side {
                continue;
            }
            targets.clear();
            self.targets(variant, from, &mut targets);
            if variant.pieces[piece_of(cell)].needs_dedup {
                targets.sort_unstable();
                targets.dedup_by_key(|t| t.0);
            }
            let pawn = variant.pieces[piece_of(cell)].pawn;
            for &(to, _) in &targets {
                let special = if pawn && to as u8 == self.ep && self.squares[to] == 0 {
                    let behind = if self.side == 0 { to - variant.files } else { to + variant.files };
                    Special::EnPassant(behind as u8)
                } else {
                    Special::None
                };
                let depth = if pawn && !variant.promotion.is_empty() { zone(self.side, to / variant.files) } else { 0 };
                for &p in if depth > 0 { &candidates[..] } else { &[] } {
                    moves.push(Move { from: from as u8, to: to as u8, promotion: p + 1, special });
                }
                // Staying a pawn: outside the zone, or inside it but not on the last rank.
                if depth != 1 {
                    moves.push(Move { from: from as u8, to: to as u8, promotion: 0, special });
                }
            }
        }
        if variant.castling {
            self.castling_moves(variant, moves);
        }
    }

    fn castling_moves(&self, variant: &Variant, moves: &mut Vec<Move>) {
        let Some(king) = self.royal_square(variant, self.side) else { return };
        let rank = king / variant.files;
        for &rook in self.castle_rooks.iter().filter(|&&r| r != NONE) {
            let rook = rook as usize;
            let cell = self.squares[rook];
            if cell == 0 || colour_of(cell) != self.side || rook / variant.files != rank {
                continue;
            }
            let kingside = rook > king;
            // By default g/c on 8 files, i/c on 10 (the spec's "W-3" is off by one against its own
            // examples); a variant's data may say otherwise (Chancellor: g on 9 files; Janus: b and i).
            let [king_file, rook_file] = variant.castling_files[kingside as usize];
            let (king_to, rook_to) = (rank * variant.files + king_file, rank * variant.files + rook_file);
            let low = king.min(rook).min(king_to).min(rook_to);
            let high = king.max(rook).max(king_to).max(rook_to);
            if (low..=high).any(|sq| sq != king && sq != rook && self.squares[sq] != 0) {
                continue;
            }
            let (a, b) = (king.min(king_to), king.max(king_to));
            if (a..=b).any(|sq| self.attacked(variant, sq, 1 - self.side)) {
                continue;
            }
            moves.push(Move {
                from: king as u8,
                to: king_to as u8,
                promotion: 0,
                special: Special::Castle(rook as u8, rook_to as u8),
            });
        }
    }

    /// The position after `mv` (which must come from this position's moves).
    pub fn after(&self, variant: &Variant, mv: Move) -> Position {
        let mut next = *self;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let moving = self.squares[from];
        next.ep = NONE;
        let count = self.moved[from].saturating_add(1);
        next.moved[from] = 0;
        next.moved[to] = count;
        match mv.special {
            Special::Castle(rook_from, rook_to) => {
                let rook = self.squares[rook_from as usize];
                let rook_count = self.moved[rook_from as usize].saturating_add(1);
                next.squares[from] = 0;
                next.squares[rook_from as usize] = 0;
                next.moved[rook_from as usize] = 0;
                next.squares[to] = moving;
                next.moved[to] = count;
                next.squares[rook_to as usize] = rook;
                next.moved[rook_to as usize] = rook_count;
            }
            Special::EnPassant(captured) => {
                next.squares[captured as usize] = 0;
                next.moved[captured as usize] = 0;
                next.squares[from] = 0;
                next.squares[to] = moving;
            }
            Special::None => {
                next.squares[from] = 0;
                next.squares[to] = if mv.promotion > 0 { mv.promotion + 64 * self.side } else { moving };
                let piece = &variant.pieces[piece_of(moving)];
                let (df, dr) = (
                    (to % variant.files) as i32 - (from % variant.files) as i32,
                    (to / variant.files) as i32 - (from / variant.files) as i32,
                );
                if piece.pawn && df == 0 && dr.abs() == 2 {
                    next.ep = ((from + to) / 2) as u8;
                }
            }
        }
        // Castling rights go with a moved king or a moved or captured rook.
        let king_moved = variant.pieces[piece_of(moving)].royal;
        if king_moved {
            next.royal[self.side as usize] = to as u8;
        }
        // A position with a side in check can be given; taking its royal piece leaves it without one.
        if next.royal[1 - self.side as usize] == to as u8 {
            next.royal[1 - self.side as usize] = NONE;
        }
        for rook in next.castle_rooks.iter_mut() {
            if *rook == NONE {
                continue;
            }
            let r = *rook as usize;
            let rook_colour = if r / variant.files == 0 { 0 } else { 1 };
            if r == from || r == to || (king_moved && rook_colour == self.side) {
                *rook = NONE;
            }
        }
        let capture = self.squares[to] != 0 || matches!(mv.special, Special::EnPassant(_));
        next.halfmove =
            if capture || variant.pieces[piece_of(moving)].pawn { 0 } else { self.halfmove.saturating_add(1) };
        if self.side == 1 {
            next.fullmove = self.fullmove.saturating_add(1);
        }
        next.side = 1 - self.side;
        next
    }

    /// 0 for White to move, 1 for Black.
    pub fn side_to_move(&self) -> u8 {
        self.side
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The position in FEN (castling rights as KQkq, or as rook files in Chess960; the en passant
    /// square only when a pawn could capture there, as Fairy-Stockfish writes it).
    pub fn fen(&self, variant: &Variant) -> String {
        let mut rows = Vec::new();
        for rank in (0..variant.ranks).rev() {
            let (mut row, mut empty) = (String::new(), 0);
            for file in 0..variant.files {
                let cell = self.squares[rank * variant.files + file];
                if cell == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                let letter = variant.pieces[piece_of(cell)].letter;
                row.push(if colour_of(cell) == 0 { letter } else { letter.to_ascii_lowercase() });
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let mut rights: Vec<char> = self
            .castle_rooks
            .iter()
            .filter(|&&r| r != NONE)
            .map(|&r| {
                let (r, white) = (r as usize, (r as usize) < variant.files);
                let king = self.royal[if white { 0 } else { 1 }] as usize % variant.files;
                let letter = if self.chess960 {
                    file_char(r % variant.files).to_ascii_uppercase()
                } else if r % variant.files > king {
                    'K'
                } else {
                    'Q'
                };
                if white {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                }
            })
            .collect();
        rights.sort_by_key(|c| (c.is_ascii_lowercase(), *c == 'Q' || *c == 'q'));
        let rights: String = if rights.is_empty() { "-".into() } else { rights.into_iter().collect() };
        // As Fairy-Stockfish writes it: only where a pawn of the side to move could capture en
        // passant (even if that capture would expose its king).
        let capturable = self.ep != NONE && {
            let mut moves = Vec::new();
            self.pseudo_moves(variant, &mut moves);
            moves.iter().any(|mv| matches!(mv.special, Special::EnPassant(_)))
        };
        let ep = if !capturable {
            "-".into()
        } else {
            format!("{}{}", file_char(self.ep as usize % variant.files), self.ep as usize / variant.files + 1)
        };
        let side = if self.side == 0 { "w" } else { "b" };
        format!("{} {side} {rights} {ep} {} {}", rows.join("/"), self.halfmove, self.fullmove)
    }

    pub fn legal_moves(&self, variant: &Variant) -> Vec<Move> {
        let mut moves = Vec::new();
        self.pseudo_moves(variant, &mut moves);
        let king = self.royal_square(variant, self.side);
        // Out of check, a move of another piece (not en passant) can only expose the king along a
        // rider's line through the square it leaves; elsewhere it needs no test.
        let quiet = !variant.has_complex && !self.in_check(variant);
        moves.retain(|&mv| {
            let Some(king) = king else { return true };
            if quiet
                && mv.from as usize != king
                && mv.special == Special::None
                && !self.on_rider_line(variant, king, mv.from as usize)
            {
                return true;
            }
            let next = self.after(variant, mv);
            !next.royal_square(variant, self.side).is_some_and(|k| next.attacked(variant, k, next.side))
        });
        moves
    }

    /// Whether `sq` lies on a line along which an enemy rider could attack `king`.
    fn on_rider_line(&self, variant: &Variant, king: usize, sq: usize) -> bool {
        let files = variant.files as i32;
        let (df, dr) = ((sq as i32 % files) - (king as i32 % files), (sq as i32 / files) - (king as i32 / files));
        variant.lines[1 - self.side as usize].iter().filter(|l| l.riders != 0 || !l.limited.is_empty()).any(|l| {
            // sq = king - j * (dx, dy) for some j >= 1.
            let j = if l.dx != 0 { -df / l.dx } else { -dr / l.dy };
            j >= 1 && -j * l.dx == df && -j * l.dy == dr
        })
    }

    pub fn perft(&self, variant: &Variant, depth: u32) -> u64 {
        let moves = self.legal_moves(variant);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|&mv| self.after(variant, mv).perft(variant, depth - 1)).sum()
    }

    /// UCI: from and to squares, a lowercase promotion letter; castling as the king's move, or in
    /// Chess960 as king-takes-rook.
    pub fn uci(&self, variant: &Variant, mv: Move) -> String {
        let name = |sq: usize| format!("{}{}", file_char(sq % variant.files), sq / variant.files + 1);
        let to = match mv.special {
            Special::Castle(rook, _) if self.chess960 => rook as usize,
            _ => mv.to as usize,
        };
        let mut text = format!("{}{}", name(mv.from as usize), name(to));
        if mv.promotion > 0 {
            text.push(variant.pieces[mv.promotion as usize - 1].letter.to_ascii_lowercase());
        }
        text
    }
}

fn parse_square(variant: &Variant, text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let file = (chars.next()? as u8).checked_sub(b'a')? as usize;
    let rank: usize = chars.as_str().parse().ok()?;
    (file < variant.files && (1..=variant.ranks).contains(&rank)).then(|| (rank - 1) * variant.files + file)
}
