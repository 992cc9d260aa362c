//! The games the site knows, as data: each one's name in URLs and the API, its message ids, and
//! its options (read from and written to query strings, turned into the config the API takes).
//! A leaf: every other part of the site may read it, it reads none of them.

use serde_json::{Map, Value};
use tabula_core::GameKind;

/// A game the site shows: one of the engine's games (local games, rooms, the computer), or the
/// Triplex puzzle, which has pages of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slug {
    Played(GameKind),
    Triplex,
}

impl Slug {
    /// In the order the home lists them.
    pub const ALL: [Slug; 5] = [
        Slug::Played(GameKind::Popucom),
        Slug::Played(GameKind::Go),
        Slug::Played(GameKind::Edges),
        Slug::Played(GameKind::Chess),
        Slug::Triplex,
    ];

    /// The game's name in URLs (`/go`) and, for the engine's games, the API's game kind.
    pub fn name(self) -> &'static str {
        match self {
            Slug::Played(kind) => kind.name(),
            Slug::Triplex => "triplex",
        }
    }

    pub fn from_name(name: &str) -> Option<Slug> {
        Slug::ALL.into_iter().find(|slug| slug.name() == name)
    }

    /// Message ids: the game's title, one-line pitch, and rules (one message per point). Each fact
    /// is a match of its own, not a table of every game's facts: a bundle leaves out the ones it
    /// never asks for (the options' tables alone: 3 KB of the home bundle's WASM).
    pub fn title_id(self) -> &'static str {
        match self {
            Slug::Played(GameKind::Popucom) => "game-popucom",
            Slug::Played(GameKind::Go) => "game-go",
            Slug::Played(GameKind::Edges) => "game-edges",
            Slug::Played(GameKind::Chess) => "game-chess",
            Slug::Triplex => "game-triplex",
        }
    }

    pub fn pitch_id(self) -> &'static str {
        match self {
            Slug::Played(GameKind::Popucom) => "game-popucom-about",
            Slug::Played(GameKind::Go) => "game-go-about",
            Slug::Played(GameKind::Edges) => "game-edges-about",
            Slug::Played(GameKind::Chess) => "game-chess-about",
            Slug::Triplex => "game-triplex-about",
        }
    }

    pub fn rules_ids(self) -> &'static [&'static str] {
        match self {
            Slug::Played(GameKind::Popucom) => {
                &["popucom-rules-place", "popucom-rules-line", "popucom-rules-paint", "popucom-rules-end"]
            }
            Slug::Played(GameKind::Go) => {
                &["go-rules-place", "go-rules-capture", "go-rules-ko", "go-rules-end", "go-rules-score"]
            }
            Slug::Played(GameKind::Edges) => {
                &["edges-rules-board", "edges-rules-act", "edges-rules-capture", "edges-rules-end"]
            }
            Slug::Played(GameKind::Chess) => &["chess-rules-variants", "chess-rules-pieces", "chess-rules-end"],
            Slug::Triplex => &["triplex-rules-goal", "triplex-rules-rotate", "triplex-rules-levels"],
        }
    }

    pub fn options(self) -> &'static [GameOption] {
        match self {
            Slug::Played(GameKind::Go) => GO_OPTIONS,
            Slug::Played(GameKind::Edges) => EDGES_OPTIONS,
            Slug::Played(GameKind::Chess) => CHESS_OPTIONS,
            _ => &[],
        }
    }

    /// A two-player game with local games and rooms (its screens in `games::screens`); Triplex, a
    /// one-player puzzle, has its own pages instead (`games/triplex`).
    pub fn has_rooms(self) -> bool {
        matches!(self, Slug::Played(_))
    }

    /// Whether this bundle carries the game's screens (`games::screens` gives them): a bundle's
    /// Cargo features name the games it plays, and so the engines it compiles.
    pub fn screens_built(self) -> bool {
        match self {
            Slug::Played(kind) => kind.compiled(),
            Slug::Triplex => false,
        }
    }
}

/// A text shown for an option value: a message id, or literal text (numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Id(&'static str),
    Text(&'static str),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub value: &'static str,
    pub label: Label,
    /// Listed under "more" (rarely chosen values).
    pub more: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    Choice(&'static [Choice]),
    /// A number in halves (komi): `min` to `max` half-points, written like `6.5`.
    Halves {
        min: i64,
        max: i64,
    },
    /// A whole number from `min` to `max`.
    Whole {
        min: i64,
        max: i64,
    },
}

/// One option of a game's config: `key` is both the URL query key and the config field (`supply.0`
/// is the first item of the config's `supply` list).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameOption {
    pub key: &'static str,
    pub label: &'static str,
    pub kind: OptionKind,
    pub default: &'static str,
}

const fn choice(value: &'static str, label: Label, more: bool) -> Choice {
    Choice { value, label, more }
}

const GO_SIZES: &[Choice] = &[
    choice("9", Label::Text("9 × 9"), false),
    choice("13", Label::Text("13 × 13"), false),
    choice("19", Label::Text("19 × 19"), false),
    choice("5", Label::Text("5 × 5"), true),
    choice("6", Label::Text("6 × 6"), true),
    choice("7", Label::Text("7 × 7"), true),
    choice("8", Label::Text("8 × 8"), true),
    choice("10", Label::Text("10 × 10"), true),
    choice("11", Label::Text("11 × 11"), true),
    choice("12", Label::Text("12 × 12"), true),
    choice("14", Label::Text("14 × 14"), true),
    choice("15", Label::Text("15 × 15"), true),
    choice("16", Label::Text("16 × 16"), true),
    choice("17", Label::Text("17 × 17"), true),
    choice("18", Label::Text("18 × 18"), true),
];

const GO_HANDICAPS: &[Choice] = &[
    choice("0", Label::Id("go-handicap-none"), false),
    choice("2", Label::Text("2"), false),
    choice("3", Label::Text("3"), false),
    choice("4", Label::Text("4"), false),
    choice("5", Label::Text("5"), false),
    choice("6", Label::Text("6"), false),
    choice("7", Label::Text("7"), false),
    choice("8", Label::Text("8"), false),
    choice("9", Label::Text("9"), false),
];

const GO_KO: &[Choice] =
    &[choice("psk", Label::Id("go-ko-psk"), false), choice("simple", Label::Id("go-ko-simple"), false)];

const GO_OPTIONS: &[GameOption] = &[
    GameOption { key: "size", label: "go-option-size", kind: OptionKind::Choice(GO_SIZES), default: "9" },
    GameOption {
        key: "komi",
        label: "go-option-komi",
        kind: OptionKind::Halves { min: -200, max: 200 },
        default: "7.5",
    },
    GameOption { key: "handicap", label: "go-option-handicap", kind: OptionKind::Choice(GO_HANDICAPS), default: "0" },
    GameOption { key: "ko", label: "go-option-ko", kind: OptionKind::Choice(GO_KO), default: "psk" },
];

const EDGES_SIZES: &[Choice] = &[
    choice("8", Label::Text("8 × 8"), false),
    choice("6", Label::Text("6 × 6"), false),
    choice("10", Label::Text("10 × 10"), false),
    choice("12", Label::Text("12 × 12"), false),
    choice("3", Label::Text("3 × 3"), true),
    choice("4", Label::Text("4 × 4"), true),
    choice("5", Label::Text("5 × 5"), true),
    choice("7", Label::Text("7 × 7"), true),
    choice("9", Label::Text("9 × 9"), true),
    choice("11", Label::Text("11 × 11"), true),
];

/// The built-in fairy chess variants (`core/data/fairy-variants.json`), the best known first, and
/// one's own.
const CHESS_VARIANTS: &[Choice] = &[
    choice("chess", Label::Text("chess"), false),
    choice("capablanca", Label::Text("capablanca"), false),
    choice("grand", Label::Text("grand"), false),
    choice("shatranj", Label::Text("shatranj"), false),
    choice("janus", Label::Text("janus"), false),
    choice("chancellor9", Label::Text("chancellor9"), false),
    choice("knightmate", Label::Text("knightmate"), false),
    choice("amazon", Label::Text("amazon"), false),
    choice("nightrider", Label::Text("nightrider"), false),
    choice("grasshopper", Label::Text("grasshopper"), false),
    choice("minichess", Label::Text("minichess"), false),
    choice("courier", Label::Text("courier"), false),
    choice("big12", Label::Text("big12"), true),
    choice("leapriders", Label::Text("leapriders"), true),
    choice("menagerie", Label::Text("menagerie"), true),
    choice("griffin-laser", Label::Text("griffin-laser"), true),
    choice("griffin-seed", Label::Text("griffin-seed"), true),
    choice("reflecting1", Label::Text("reflecting1"), true),
    choice("reflecting2", Label::Text("reflecting2"), true),
    choice("reflecting3", Label::Text("reflecting3"), true),
    choice("hoppers", Label::Text("hoppers"), true),
    choice("vspawns", Label::Text("vspawns"), true),
    choice("wildebeest11", Label::Text("wildebeest11"), true),
    choice("unicorn-capablanca", Label::Text("unicorn-capablanca"), true),
    choice("camelchess", Label::Text("camelchess"), true),
    choice("imitator", Label::Text("imitator"), true),
    // The definition written on the page (`games::chess::custom`).
    choice("custom", Label::Id("chess-custom"), false),
];

const CHESS_OPTIONS: &[GameOption] = &[GameOption {
    key: "variant",
    label: "chess-option-variant",
    kind: OptionKind::Choice(CHESS_VARIANTS),
    default: "chess",
}];

/// The original's defaults: 8 x 8, 5 cells to win, 6 edges each.
const EDGES_OPTIONS: &[GameOption] = &[
    GameOption { key: "size", label: "edges-option-size", kind: OptionKind::Choice(EDGES_SIZES), default: "8" },
    GameOption {
        key: "cells_to_win",
        label: "edges-option-win",
        kind: OptionKind::Whole { min: 1, max: 144 },
        default: "5",
    },
    GameOption {
        key: "supply.0",
        label: "edges-option-supply-1",
        kind: OptionKind::Whole { min: 1, max: 99 },
        default: "6",
    },
    GameOption {
        key: "supply.1",
        label: "edges-option-supply-2",
        kind: OptionKind::Whole { min: 1, max: 99 },
        default: "6",
    },
];

/// The options' values read from a query string (`size=19&komi=6.5`), each defaulted and checked
/// against its kind: anything unknown or out of range falls back to the default.
pub fn option_values(slug: Slug, query: &str) -> Vec<(&'static str, String)> {
    let given: Vec<(String, String)> = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.replace("%2E", ".").replace("%2D", "-")))
        .collect();
    slug.options()
        .iter()
        .map(|option| {
            let value = given.iter().find(|(k, _)| k == option.key).map(|(_, v)| v.as_str());
            let valid = value.filter(|v| option_accepts(option, v));
            (option.key, valid.unwrap_or(option.default).to_owned())
        })
        .collect()
}

fn option_accepts(option: &GameOption, value: &str) -> bool {
    match option.kind {
        OptionKind::Choice(choices) => choices.iter().any(|c| c.value == value),
        OptionKind::Halves { min, max } => halves(value).is_some_and(|h| (min..=max).contains(&h)),
        OptionKind::Whole { min, max } => value.parse::<i64>().is_ok_and(|n| (min..=max).contains(&n)),
    }
}

/// The query string of option values (for `/go/local?...` and share links).
pub fn option_query(values: &[(&'static str, String)]) -> String {
    values.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&")
}

/// `6.5` as 13 half-points; `7`, `-0.5`, `7.0` likewise. Anything else is not a number of halves.
/// (Kept off floating point: the site formats and parses no floats, which saves their code.)
pub fn halves(text: &str) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let negative = whole.starts_with('-');
    let whole: i64 = whole.parse().ok()?;
    let half = match fraction {
        "0" | "00" => 0,
        "5" | "50" => 1,
        _ => return None,
    };
    Some(whole * 2 + if negative { -half } else { half })
}

/// Half-points written as players write them: `6.5`, `7`, `-0.5`.
pub fn half_text(halves: i64) -> String {
    let sign = if halves < 0 { "-" } else { "" };
    let magnitude = halves.unsigned_abs();
    match magnitude % 2 {
        0 => format!("{sign}{}", magnitude / 2),
        _ => format!("{sign}{}.5", magnitude / 2),
    }
}

/// The game config the API and the engine take: each option's value under its key (or as an item
/// of a list, `supply.0`), as a number when it is one.
pub fn config_of(values: &[(&'static str, String)]) -> Value {
    let mut config = Map::new();
    for (key, value) in values {
        let json = match (value.parse::<i64>(), halves(value)) {
            (Ok(n), _) => Value::from(n),
            (_, Some(h)) => Value::from(h as f64 / 2.0),
            _ => Value::from(value.as_str()),
        };
        match key.split_once('.') {
            // `supply.0`: an item of a list, in order.
            Some((list, _)) => {
                let items = config.entry(list.to_owned()).or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(items) = items {
                    items.push(json);
                }
            }
            None => {
                config.insert((*key).to_owned(), json);
            }
        }
    }
    Value::Object(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for slug in Slug::ALL {
            assert_eq!(Slug::from_name(slug.name()), Some(slug));
        }
        assert_eq!(Slug::from_name("room"), None);
    }

    #[test]
    fn options_are_read_checked_and_defaulted() {
        let values = option_values(Slug::Played(GameKind::Go), "size=19&komi=6.5&handicap=4&ko=simple&junk=1");
        assert_eq!(config_of(&values), serde_json::json!({"size": 19, "komi": 6.5, "handicap": 4, "ko": "simple"}));
        let values = option_values(Slug::Played(GameKind::Go), "size=20&komi=6.3&handicap=1&ko=x");
        assert_eq!(config_of(&values), serde_json::json!({"size": 9, "komi": 7.5, "handicap": 0, "ko": "psk"}));
        assert_eq!(option_query(&option_values(Slug::Played(GameKind::Go), "")), "size=9&komi=7.5&handicap=0&ko=psk");
        assert_eq!(config_of(&option_values(Slug::Played(GameKind::Popucom), "size=19")), serde_json::json!({}));
        // Edges & Blocks: the original's defaults, and each side's supply into one list.
        let edges = |query| config_of(&option_values(Slug::Played(GameKind::Edges), query));
        assert_eq!(edges(""), serde_json::json!({"size": 8, "cells_to_win": 5, "supply": [6, 6]}));
        assert_eq!(
            edges("size=12&cells_to_win=9&supply.0=4&supply.1=30"),
            serde_json::json!({"size": 12, "cells_to_win": 9, "supply": [4, 30]})
        );
        assert_eq!(edges("size=2&cells_to_win=0&supply.1=100"), edges(""), "out of range: the defaults");
    }

    #[test]
    fn halves_read_and_write_like_komi() {
        for (text, h) in [("6.5", 13), ("7", 14), ("7.0", 14), ("-0.5", -1), ("-3", -6), ("0", 0)] {
            assert_eq!(halves(text), Some(h), "{text}");
        }
        for bad in ["6.3", "x", "", "1.", "--1"] {
            assert_eq!(halves(bad), None, "{bad}");
        }
        assert_eq!([13, 14, -1, 0, -6].map(half_text), ["6.5", "7", "-0.5", "0", "-3"]);
    }

    #[test]
    fn every_default_is_a_valid_value() {
        for slug in Slug::ALL {
            for option in slug.options() {
                assert!(option_accepts(option, option.default), "{} {}", slug.name(), option.key);
            }
        }
    }
}
