//! A variant given as data at run time: a custom variant, or the definition a room stored when it
//! was created. Read under limits, and every refusal names the field at fault
//! (`definition.pieces.G.moves[0].move.type: ...`), so the server can refuse a bad one before any
//! room exists and the page can say what to fix.

use serde_json::Value;

use super::{Position, Variant, VariantDef, BUILTIN_DEFINITIONS};

/// The largest definition accepted, written as compact JSON.
pub const MAX_DEFINITION_BYTES: usize = 64 * 1024;

impl Variant {
    /// Reads and checks a definition in the seed's JSON model: it fits in 64 KiB, every field
    /// reads, every piece it names exists, and it has a start position on its board with a royal
    /// piece for each side.
    pub fn from_definition(name: &str, definition: &Value) -> Result<Variant, String> {
        if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
            return Err(format!("variant: {name:?} is no name (1 to 40 characters)"));
        }
        let size = serde_json::to_vec(definition).map_or(usize::MAX, |bytes| bytes.len());
        if size > MAX_DEFINITION_BYTES {
            return Err(format!("definition: {size} bytes; at most {MAX_DEFINITION_BYTES} (64 KiB)"));
        }
        if !definition.is_object() {
            return Err("definition: a variant is a JSON object ({\"board\": ..., \"pieces\": ...})".into());
        }
        let def: VariantDef = serde_path_to_error::deserialize(definition).map_err(|error| {
            let path = error.path().to_string();
            let field = if path == "." { String::new() } else { format!(".{path}") };
            format!("definition{field}: {}", error.inner())
        })?;
        let variant = Variant::from_def(name, &def).map_err(|e| format!("definition.{e}"))?;
        let start = variant
            .start
            .as_deref()
            .ok_or("definition.start: a start position is needed (start, or initialPiecePositions)")?;
        let position = Position::from_fen(&variant, start, false).map_err(|e| format!("definition.start: {e}"))?;
        for (colour, side) in ["White", "Black"].into_iter().enumerate() {
            if !position.has_royal(colour as u8) {
                return Err(format!(
                    "definition.start: {side} has no royal piece (mark the king \"royal\": true and place it)"
                ));
            }
        }
        Ok(variant)
    }

    /// The built-in variant `name` as the seed's JSON model (what a room stores), if there is one.
    #[cfg(not(compiled_variants))]
    pub fn builtin_definition(name: &str) -> Option<&'static Value> {
        static DEFINITIONS: std::sync::OnceLock<serde_json::Map<String, Value>> = std::sync::OnceLock::new();
        let all =
            DEFINITIONS.get_or_init(|| serde_json::from_str(BUILTIN_DEFINITIONS).expect("the shipped variants read"));
        all.get(&Variant::named(name)?.name)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn refusal(definition: Value) -> String {
        Variant::from_definition("custom", &definition).expect_err("refused")
    }

    fn refused_with(definition: Value, start: &str) {
        let refusal = refusal(definition);
        assert!(refusal.starts_with(start), "{refusal:?} should start with {start:?}");
    }

    /// A king and a rook each on a 4 x 4 board: the smallest definition used below, changed one
    /// field at a time.
    fn small() -> Value {
        json!({
            "board": [4, 4],
            "pieces": {
                "K": {"royal": true, "expandMoves": "X", "moves": [
                    {"move": {"type": "leaper", "direction": [1, 0]}},
                    {"move": {"type": "leaper", "direction": [1, 1]}}]},
                "R": {"expandMoves": "X", "moves": [{"move": {"type": "rider", "direction": [1, 0]}}]}
            },
            "start": "k2r/4/4/R2K w - - 0 1"
        })
    }

    #[test]
    fn a_small_definition_reads() {
        let variant = Variant::from_definition("custom", &small()).unwrap();
        assert_eq!((variant.files(), variant.ranks(), variant.name.as_str()), (4, 4, "custom"));
    }

    #[test]
    fn every_built_in_variant_reads_back_from_its_definition() {
        for (name, builtin) in Variant::builtin() {
            let definition = Variant::builtin_definition(name).unwrap();
            let variant = Variant::from_definition(name, definition).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(variant.compiled_text(), builtin.compiled_text(), "{name}");
        }
    }

    #[test]
    fn refusals_name_the_field_at_fault() {
        let mut bad = small();
        bad["pieces"]["R"]["moves"][0]["move"]["type"] = json!("jumper");
        refused_with(bad, "definition.pieces.R.moves[0].move.type: \"jumper\"");
        let mut bad = small();
        bad["pieces"]["R"]["moves"][0]["move"]["direction"] = json!([1]);
        refused_with(bad, "definition.pieces.R.moves[0].move");
        let mut bad = small();
        bad["pieces"]["R"]["moves"][0]["move"]["direction"] = json!([0, 0]);
        refused_with(bad, "definition.pieces.R.moves[0].move.direction: [0, 0] must move");
        let mut bad = small();
        bad["pieces"]["R"]["moves"][0] = json!({"move": {"ref": "Q"}});
        assert_eq!(refusal(bad), "definition.pieces.R.moves[0].move.ref: no piece \"Q\"");
        let mut bad = small();
        bad["board"] = json!([13, 4]);
        refused_with(bad, "definition.board: 13 x 4");
        let mut bad = small();
        bad["board"] = json!("big");
        refused_with(bad, "definition.board: ");
        let mut bad = small();
        bad["promotion"] = json!(["R", "Q"]);
        assert_eq!(refusal(bad), "definition.promotion[1]: no piece \"Q\"");
        let mut bad = small();
        bad["pieces"]["K"]["royal"] = json!(false);
        refused_with(bad, "definition.start: White has no royal piece");
        let mut bad = small();
        bad["start"] = json!("k2r/4/4/R2K/4 w - - 0 1");
        assert_eq!(refusal(bad), "definition.start: 5 ranks in the FEN, the board has 4");
        let mut bad = small();
        bad["start"] = json!("k2r/4/4/R3K w - - 0 1");
        refused_with(bad, "definition.start: ");
        let mut bad = small();
        bad.as_object_mut().unwrap().remove("start");
        refused_with(bad, "definition.start: a start position is needed");
        let mut bad = small();
        bad["pieces"]["R"]["moves"][0]["when"] = json!("sometimes");
        refused_with(bad, "definition.pieces.R.moves[0].when: ");
        let mut bad = small();
        bad["pieces"]["r2"] = json!({"moves": []});
        refused_with(bad, "definition.pieces.r2: a piece's id is one capital letter");
        refused_with(json!([1, 2]), "definition: ");
        let named = |name: &str| Variant::from_definition(name, &small()).map(|v| v.name);
        assert_eq!(named(&"x".repeat(40)), Ok("x".repeat(40)));
        assert!(named(&"x".repeat(41)).unwrap_err().starts_with("variant: "));
        assert!(named("").unwrap_err().starts_with("variant: "));
        assert!(named("a\nb").unwrap_err().starts_with("variant: "));
    }

    #[test]
    fn definitions_that_would_ask_too_much_are_refused() {
        let mut big = small();
        big["description"] = json!("x".repeat(MAX_DEFINITION_BYTES));
        assert!(refusal(big).contains("at most 65536 (64 KiB)"));
        // Each piece is a knight's leap followed by any move of the piece before it: a few lines
        // that would ask for 8^8 steps.
        let mut chain = small();
        let pieces = chain["pieces"].as_object_mut().unwrap();
        for (letter, before) in ["A", "B", "C", "D", "E", "F", "G"].into_iter().zip(["R", "A", "B", "C", "D", "E", "F"])
        {
            let leap =
                json!({"move": {"type": "leaper", "direction": [1, 2]}, "children": [{"move": {"ref": before}}]});
            pieces.insert(letter.into(), json!({"expandMoves": "X", "moves": [leap]}));
        }
        let started = std::time::Instant::now();
        let refused = refusal(chain);
        assert!(refused.contains("more than 1024 steps"), "{refused}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "refused quickly");
        let mut looped = small();
        looped["pieces"]["R"]["moves"][0] = json!({"move": {"ref": "R"}});
        refused_with(looped, "definition.pieces.R: references loop");
    }

    /// A room keeps the definition it began with; its page gets the variant compiled, and the
    /// definition only when it is not a built-in one as shipped.
    #[test]
    fn games_store_their_definition_and_send_pages_what_they_can_read() {
        use crate::fairy::{Chess, ChessConfig};
        use crate::game::Game;
        let capablanca = ChessConfig { variant: "capablanca".into(), ..ChessConfig::default() };
        let stored = Chess::new(capablanca.clone()).unwrap().stored_config();
        assert_eq!(stored.definition.as_ref(), Variant::builtin_definition("capablanca"));
        let reloaded = Chess::new(stored).unwrap();
        let sent = reloaded.client_config();
        assert_eq!(sent.definition, None, "a built-in variant goes to pages by name");
        let by_name =
            ChessConfig { compiled: Some(Variant::shared("capablanca").unwrap().compiled_text()), ..capablanca };
        assert_eq!(sent, by_name, "and compiled: the rooms' pages carry no built-in variants");

        // The same variant with one piece changed is a variant of its own, even under the old name.
        let mut changed = Variant::builtin_definition("capablanca").unwrap().clone();
        changed["pieces"]["A"] = changed["pieces"]["N"].clone();
        let config = ChessConfig { variant: "capablanca".into(), definition: Some(changed), ..ChessConfig::default() };
        let game = Chess::new(config.clone()).unwrap();
        assert_eq!(game.stored_config(), config);
        let sent = game.client_config();
        let compiled = Variant::from_compiled_text(sent.compiled.as_deref().expect("compiled for the page")).unwrap();
        assert_eq!(compiled.compiled_text(), game.variant().compiled_text());
        assert_ne!(compiled.compiled_text(), Variant::shared("capablanca").unwrap().compiled_text());

        let broken = ChessConfig { definition: Some(json!({"board": [8, 8]})), ..ChessConfig::default() };
        let refusal = Chess::new(broken).unwrap_err().0;
        assert!(refusal.starts_with("definition"), "{refusal}");
    }
}
