//! A custom variant: its definition in the seed's JSON model, written on the chess page and kept in
//! the browser, goes to the server to be checked (`"check": true`), which answers it compiled; the
//! page, the local game and rooms play that, and a room stores the definition under its own name,
//! so it never passes for a built-in variant. No page reads definitions itself: the reader is the
//! server's.

use serde_json::Value;
#[cfg(feature = "game-page")]
use {
    crate::api::ApiError,
    crate::browser::OnDemand,
    crate::i18n::I18n,
    leptos::prelude::*,
    tabula_core::fairy::{Variant, BUILTIN_DEFINITIONS},
};

use crate::storage;

/// The variant option's value that stands for the definition written on the page.
pub const CUSTOM: &str = "custom";

/// `{"variant": "custom"}` as the chess page last had it checked: a config with the definition and
/// the variant compiled, for the local game.
#[cfg(all(feature = "local-screen", not(feature = "game-page")))]
pub fn checked_config(config: Value) -> Result<Value, String> {
    if config["variant"] != CUSTOM {
        return Ok(config);
    }
    storage::custom_variant_checked().ok_or_else(|| "definition: write one on the chess page first".to_owned())
}

/// The definition being written (as typed), and the server's answer for the text it checked.
#[cfg(feature = "game-page")]
#[derive(Clone)]
pub struct Editor {
    pub text: ArcRwSignal<String>,
    pub checked: ArcRwSignal<Option<(String, Result<Value, String>)>>,
}

#[cfg(feature = "game-page")]
thread_local! {
    // Counted, not owned by a view: they outlive every page that shows them. Empty until the
    // player writes or the editor's code brings a starting point (`EditorCode`).
    static EDITOR: Editor = Editor {
        text: ArcRwSignal::new(storage::custom_variant().unwrap_or_default()),
        checked: ArcRwSignal::new(None),
    };
}

/// What writing a variant needs beyond the page's first paint, as the module loaded when the
/// player picks "Custom" hands it back: the built-in definitions to begin from (their JSON text
/// is no part of the page's first load) and the server's check (with the reader of its answers).
#[cfg(feature = "game-page")]
#[derive(Clone, Copy)]
pub struct EditorCode {
    pub starting_point: fn(&str) -> Option<String>,
    /// The config to check ([`to_check`]) as the server answers it: compiled, or refused.
    pub check: OnDemand<Value, Result<Value, ApiError>>,
}

#[cfg(feature = "game-page")]
#[leptos::wasm_split::wasm_split(chess_custom, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn editor_code() -> Result<EditorCode, leptos::wasm_split::SplitLoaderError> {
    Ok(EditorCode {
        starting_point,
        check: |config| Box::pin(async move { crate::api::check_config("chess", &config).await }),
    })
}

/// The page's one editor.
#[cfg(feature = "game-page")]
pub fn editor() -> Editor {
    EDITOR.with(Editor::clone)
}

#[cfg(feature = "game-page")]
impl Editor {
    /// Replaces the definition being written, and keeps it for the next visit.
    pub fn set_text(&self, new: String) {
        storage::save_custom_variant(&new);
        self.text.set(new);
    }

    /// Records the server's answer for `text` (the local game plays the last one accepted).
    pub fn set_checked(&self, text: String, answer: Result<Value, String>) {
        if let Ok(config) = &answer {
            storage::save_custom_variant_checked(config);
        }
        self.checked.set(Some((text, answer)));
    }

    /// `{"variant": "custom"}` as the server answered for the text being written: checked and
    /// compiled, refused, or not yet checked.
    pub fn complete(&self, config: Value) -> Result<Value, String> {
        if config["variant"] != CUSTOM {
            return Ok(config);
        }
        self.text.with(|text| {
            self.checked.with(|checked| match checked {
                Some((checked_text, answer)) if checked_text == text => answer.clone(),
                _ => Err(use_context::<I18n>().map(|i18n| i18n.t("chess-custom-checking")).unwrap_or_default()),
            })
        })
    }
}

/// The built-in variant `name` written out to be changed, renamed so it stays apart from the original.
#[cfg(feature = "game-page")]
pub fn starting_point(name: &str) -> Option<String> {
    let all: serde_json::Map<String, Value> = serde_json::from_str(BUILTIN_DEFINITIONS).ok()?;
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
    let well_formed =
        (1..=40).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if well_formed && Variant::named(name).is_none() {
        name
    } else {
        CUSTOM
    }
}

/// The config to check for the definition `text`: `{"variant": <its name>, "definition": <it>}`,
/// or where its JSON breaks.
#[cfg(feature = "game-page")]
pub fn to_check(text: &str) -> Result<Value, String> {
    let definition: Value = serde_json::from_str(text).map_err(|e| format!("definition: {e}"))?;
    Ok(serde_json::json!({"variant": own_name(&definition), "definition": definition}))
}

#[cfg(all(test, feature = "game-page"))]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_built_in_written_out_is_renamed_and_keeps_its_rules() {
        let text = starting_point("capablanca").unwrap();
        let config = to_check(&text).unwrap();
        assert_eq!(config["variant"], "my-capablanca");
        let all: serde_json::Map<String, Value> = serde_json::from_str(BUILTIN_DEFINITIONS).unwrap();
        for field in ["board", "pieces", "start", "castling", "promotion"] {
            assert_eq!(config["definition"][field], all["capablanca"][field], "{field}");
        }
        assert!(!text.contains("fairy_stockfish"));
    }

    #[test]
    fn a_custom_variant_takes_its_own_name_and_says_where_its_json_breaks() {
        let named = |name: Value| to_check(&json!({"name": name}).to_string()).unwrap();
        assert_eq!(named(json!("hex-ish_2"))["variant"], "hex-ish_2");
        assert_eq!(named(json!("capablanca"))["variant"], CUSTOM, "not a built-in's name");
        assert_eq!(named(json!("a b"))["variant"], CUSTOM);
        assert_eq!(named(json!(7))["variant"], CUSTOM);
        let broken = to_check("{\"board\": [8, 8],\n}").unwrap_err();
        assert!(broken.starts_with("definition: ") && broken.contains("line 2"), "{broken}");
    }

    #[test]
    fn only_the_answer_for_the_text_being_written_counts() {
        let editor = Editor { text: ArcRwSignal::new("{}".into()), checked: ArcRwSignal::new(None) };
        let chess = json!({"variant": "chess"});
        assert_eq!(editor.complete(chess.clone()), Ok(chess));
        let custom = json!({"variant": CUSTOM});
        assert!(editor.complete(custom.clone()).is_err(), "not checked yet");
        editor.checked.set(Some(("{}".into(), Err("definition.board: missing".into()))));
        assert_eq!(editor.complete(custom.clone()), Err("definition.board: missing".into()));
        let compiled = json!({"variant": "mine", "compiled": "AAEC"});
        editor.checked.set(Some(("{}".into(), Ok(compiled.clone()))));
        assert_eq!(editor.complete(custom.clone()), Ok(compiled));
        editor.text.set("{ }".into());
        assert!(editor.complete(custom).is_err(), "an answer for other text");
    }
}
