//! A compiled variant read from postcard's bytes by hand: serde's derived readers of these types,
//! with postcard's, weighed about 3 KB of a chess page's first load. The fields come in the order
//! the types declare them, in postcard's encoding: unsigned integers and enum variants as varints,
//! signed ones zigzagged, a byte for `bool`, `u8` and `Option`'s tag, a length before strings
//! (a `char` is one) and sequences, none before arrays. Writing stays postcard's
//! (`Variant::compiled_text`, `to_compiled`); a test reads every built-in variant back to the same
//! bytes, so a field added to the types without a line here fails it.

use std::collections::BTreeMap;

use super::draws::Shape;
use super::model::{Condition, Hop, Mode, Node};
use super::{variant, PieceType, Variant};

/// Deeper move trees than any variant has: a bound on the reader's recursion.
const MAX_DEPTH: usize = 16;

pub(super) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.bytes.split_first()?;
        self.bytes = rest;
        Some(first)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn number<T: TryFrom<u64>>(&mut self) -> Option<T> {
        T::try_from(self.varint()?).ok()
    }

    fn signed(&mut self) -> Option<i32> {
        let zigzag: u32 = self.number()?;
        Some((zigzag >> 1) as i32 ^ -((zigzag & 1) as i32))
    }

    fn flag(&mut self) -> Option<bool> {
        match self.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn string(&mut self) -> Option<String> {
        let len: usize = self.number()?;
        if len > self.bytes.len() {
            return None;
        }
        let (text, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        String::from_utf8(text.to_vec()).ok()
    }

    fn letter(&mut self) -> Option<char> {
        let text = self.string()?;
        let mut chars = text.chars();
        chars.next().filter(|_| chars.next().is_none())
    }

    fn option<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        match self.flag()? {
            false => Some(None),
            true => read(self).map(Some),
        }
    }

    fn list<T>(&mut self, mut read: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let len: usize = self.number()?;
        // Every item takes a byte at least: a longer length is a broken text, not an allocation.
        if len > self.bytes.len() {
            return None;
        }
        (0..len).map(|_| read(self)).collect()
    }

    fn node(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let rider = self.flag()?;
        let hop = [Hop::None, Hop::Cannon, Hop::Grasshopper].get(self.number::<usize>()?).copied()?;
        let (dx, dy) = (self.signed()?, self.signed()?);
        let (length, reflections) = (self.number()?, self.number()?);
        let mode = [Mode::Both, Mode::MoveOnly, Mode::CaptureOnly].get(self.number::<usize>()?).copied()?;
        let when = self.option(|r| match r.number::<u32>()? {
            0 => Some(Condition::Count(r.number()?)),
            1 => Some(Condition::Cycle { every: r.number()?, at: r.number()? }),
            _ => None,
        })?;
        let children = self.list(|r| r.node(depth + 1))?;
        Some(Node { rider, hop, dx, dy, length, reflections, mode, when, children })
    }

    fn piece(&mut self) -> Option<PieceType> {
        let (letter, royal, pawn) = (self.letter()?, self.flag()?, self.flag()?);
        let white = self.list(|r| r.node(0))?;
        let black = variant::flip(&white);
        let (simple, needs_dedup) = (self.flag()?, self.flag()?);
        let shape = [Shape::King, Shape::Knight, Shape::Bishop, Shape::Other].get(self.number::<usize>()?).copied()?;
        let figure = self.option(Self::string)?;
        let value = self.option(Self::signed)?;
        Some(PieceType { letter, royal, pawn, nodes: [white, black], simple, needs_dedup, shape, figure, value })
    }

    /// A variant, its derived tables not built yet (`Variant::derive_tables`).
    pub(super) fn variant(&mut self) -> Option<Variant> {
        let name = self.string()?;
        let (files, ranks, castling) = (self.number()?, self.number()?, self.flag()?);
        let castling_files = [[self.number()?, self.number()?], [self.number()?, self.number()?]];
        let (stalemate_loses, bare_king_loses) = (self.flag()?, self.flag()?);
        let promotion = self.list(Self::byte)?;
        let double_step = [self.list(Self::number)?, self.list(Self::number)?];
        let promotion_ranks = self.number()?;
        let promotion_limits = self.list(|r| r.option(Self::number))?;
        let description = self.string()?;
        let start = self.option(Self::string)?;
        let fairy_stockfish = self.option(Self::string)?;
        let pieces = self.list(Self::piece)?;
        let has_complex = self.flag()?;
        Some(Variant {
            name,
            files,
            ranks,
            castling,
            castling_files,
            stalemate_loses,
            bare_king_loses,
            promotion,
            double_step,
            promotion_ranks,
            promotion_limits,
            description,
            start,
            fairy_stockfish,
            pieces,
            has_complex,
            lines: Default::default(),
            coords: variant::no_coords(),
        })
    }

    /// Variants by name, as `Variant::to_compiled` writes them.
    pub(super) fn variants(&mut self) -> Option<BTreeMap<String, Variant>> {
        let len: usize = self.number()?;
        let mut variants = BTreeMap::new();
        for _ in 0..len {
            let name = self.string()?;
            variants.insert(name, self.variant()?);
        }
        Some(variants)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_variant_reads_back_to_postcards_bytes() {
        let variants = Variant::all_from_json(super::super::BUILTIN_DEFINITIONS).unwrap();
        let bytes = Variant::to_compiled(&variants);
        let mut reader = Reader::new(&bytes);
        let read = reader.variants().expect("the built-in variants read");
        assert!(reader.is_empty(), "bytes left over");
        assert_eq!(read.len(), variants.len());
        assert_eq!(Variant::to_compiled(&read), bytes);
        for variant in variants.values() {
            let text = variant.compiled_text();
            let back = Variant::from_compiled_text(&text).unwrap();
            assert_eq!(back.compiled_text(), text, "{}", variant.name);
        }
    }

    #[test]
    fn broken_bytes_are_refused_not_read() {
        let chess = Variant::all_from_json(super::super::BUILTIN_DEFINITIONS).unwrap().remove("chess").unwrap();
        let bytes = postcard::to_allocvec(&chess).unwrap();
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            assert!(Reader::new(&bytes[..cut]).variant().is_none(), "cut at {cut}");
        }
        // A length far beyond the bytes left.
        assert!(Reader::new(&[0xff, 0xff, 0xff, 0x0f]).variant().is_none());
    }
}
