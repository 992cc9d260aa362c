//! A variant compiled from the JSON model (`VariantDef`), read and written compiled (postcard, hex
//! text), the built-in ones, and the tables that follow from its pieces.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::{compile, Hop, Mode, Node};
use super::{draws, figures, AttackLine, PieceType, Variant, VariantDef, MAX_FILES, MAX_SQUARES};

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

pub(super) fn write_white<S: serde::Serializer>(nodes: &[Vec<Node>; 2], s: S) -> Result<S::Ok, S::Error> {
    nodes[0].serialize(s)
}

pub(super) fn read_white<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[Vec<Node>; 2], D::Error> {
    let white = Vec::<Node>::deserialize(d)?;
    let black = flip(&white);
    Ok([white, black])
}

pub(super) fn no_coords() -> [(i32, i32); MAX_SQUARES] {
    [(0, 0); MAX_SQUARES]
}

fn coords_of(files: usize, ranks: usize) -> [(i32, i32); MAX_SQUARES] {
    let mut coords = no_coords();
    for (sq, c) in coords.iter_mut().enumerate().take(files * ranks) {
        *c = ((sq % files) as i32, (sq / files) as i32);
    }
    coords
}

pub(super) fn flip(nodes: &[Node]) -> Vec<Node> {
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
            crate::small_sort::sort_small_by(&mut directions, |a, b| a < b);
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
        let mut reader = super::compiled::Reader::new(bytes);
        let read = reader.variants().filter(|_| reader.is_empty());
        let mut variants = read.ok_or("compiled variants that do not read")?;
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
        let mut reader = super::compiled::Reader::new(&bytes);
        let read = reader.variant().filter(|_| reader.is_empty());
        let mut variant = read.ok_or("a compiled variant that does not read")?;
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

    pub(super) fn piece_of(&self, letter: char) -> Option<u8> {
        self.pieces.iter().position(|p| p.letter == letter.to_ascii_uppercase()).map(|i| i as u8)
    }
}
