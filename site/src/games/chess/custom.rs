//! A custom variant: its definition in the seed's JSON model, written on the chess page and kept in
//! the browser, becomes the config the engine and the server take (`"definition"`), under its own
//! name, so a room of it never passes for a built-in variant. Only the chess page reads
//! definitions; it hands the local game the variant compiled, as the server hands rooms theirs.

#[cfg(feature = "game-page")]
use leptos::prelude::*;
use serde_json::Value;
#[cfg(feature = "game-page")]
use tabula_core::fairy::Variant;

use crate::storage;

/// The variant option's value that stands for the definition written on the page.
pub const CUSTOM: &str = "custom";

/// `{"variant": "custom"}` as the chess page last compiled it, for a build that reads no
/// definitions (the local game).
#[cfg(not(feature = "game-page"))]
pub fn compiled(config: Value) -> Result<Value, String> {
    if config["variant"] != CUSTOM {
        return Ok(config);
    }
    storage::custom_variant_compiled().ok_or_else(|| "definition: write one on the chess page first".to_owned())
}

#[cfg(feature = "game-page")]
thread_local! {
    // Counted, not owned by a view: it outlives every page that shows it.
    static TEXT: ArcRwSignal<String> = ArcRwSignal::new(storage::custom_variant().unwrap_or_else(template));
}

/// The definition being written, as typed (one per page, read wherever the options are).
#[cfg(feature = "game-page")]
pub fn text() -> ArcRwSignal<String> {
    TEXT.with(ArcRwSignal::clone)
}

/// Replaces the definition being written, and keeps it for the next visit.
#[cfg(feature = "game-page")]
pub fn set_text(new: String) {
    storage::save_custom_variant(&new);
    text().set(new);
}

/// A starting point: orthodox chess, written out.
#[cfg(feature = "game-page")]
fn template() -> String {
    starting_point("chess").unwrap_or_default()
}

/// The built-in variant `name` written out to be changed, renamed so it stays apart from the original.
#[cfg(feature = "game-page")]
pub fn starting_point(name: &str) -> Option<String> {
    let all: serde_json::Map<String, Value> = serde_json::from_str(tabula_core::fairy::BUILTIN_DEFINITIONS).ok()?;
    let mut definition = all.get(name)?.clone();
    let fields = definition.as_object_mut()?;
    // How Fairy-Stockfish names it: a matter for the agreement tests, not for the player.
    fields.remove("fairy_stockfish");
    fields.insert("name".into(), format!("my-{name}").into());
    serde_json::to_string_pretty(&definition).ok()
}

/// A name that is the player's own: letters, digits, `-` and `_`, up to 40, and not a built-in's.
#[cfg(feature = "game-page")]
fn own_name(definition: &Value) -> &str {
    let name = definition["name"].as_str().unwrap_or_default();
    let well_formed = (1..=40).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if well_formed && Variant::named(name).is_none() {
        name
    } else {
        CUSTOM
    }
}

/// `{"variant": "custom"}` with `text` read in: `{"variant": <its name>, "definition": <it>}`.
#[cfg(feature = "game-page")]
pub fn complete(mut config: Value, text: &str) -> Result<Value, String> {
    if config["variant"] != CUSTOM {
        return Ok(config);
    }
    let definition: Value = serde_json::from_str(text).map_err(|e| format!("definition: {e}"))?;
    config["variant"] = own_name(&definition).into();
    config["definition"] = definition;
    Ok(config)
}

#[cfg(all(test, feature = "game-page"))]
mod tests {
    use serde_json::json;
    use tabula_core::fairy::{Chess, ChessConfig};
    use tabula_core::Game;

    use super::*;

    #[test]
    fn a_built_in_written_out_is_a_custom_variant_of_the_same_rules() {
        let text = starting_point("capablanca").unwrap();
        let config = complete(json!({"variant": CUSTOM}), &text).unwrap();
        assert_eq!(config["variant"], "my-capablanca");
        let custom = Chess::new(serde_json::from_value::<ChessConfig>(config).unwrap()).unwrap();
        let original = Chess::new(ChessConfig { variant: "capablanca".into(), ..ChessConfig::default() }).unwrap();
        assert_eq!(custom.fen(), original.fen());
        assert_eq!(custom.legal_moves(), original.legal_moves());
        assert!(!text.contains("fairy_stockfish"));
    }

    #[test]
    fn a_custom_variant_takes_its_own_name_and_says_where_its_json_breaks() {
        let named = |name: Value| complete(json!({"variant": CUSTOM}), &json!({"name": name}).to_string()).unwrap();
        assert_eq!(named(json!("hex-ish_2"))["variant"], "hex-ish_2");
        assert_eq!(named(json!("capablanca"))["variant"], CUSTOM, "not a built-in's name");
        assert_eq!(named(json!("a b"))["variant"], CUSTOM);
        assert_eq!(named(json!(7))["variant"], CUSTOM);
        let broken = complete(json!({"variant": CUSTOM}), "{\"board\": [8, 8],\n}").unwrap_err();
        assert!(broken.starts_with("definition: ") && broken.contains("line 2"), "{broken}");
        let chess = json!({"variant": "chess"});
        assert_eq!(complete(chess.clone(), "not read"), Ok(chess));
    }
}
