//! The names of Tabula's games, compiled whatever games a build has: each game's engine names its
//! own kind ([`crate::Game::KIND`]); what plays any of them by kind is `any.rs` (every game).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Every game Tabula knows, by its stable name (`"popucom"`) in URLs, JSON and the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Popucom,
    Edges,
    Go,
    Chess,
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [GameKind::Popucom, GameKind::Edges, GameKind::Go, GameKind::Chess];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::Popucom => "popucom",
            GameKind::Edges => "edges",
            GameKind::Go => "go",
            GameKind::Chess => "chess",
        }
    }

    /// Whether this build has the game's engine (its Cargo feature): a web bundle compiles only
    /// the games it shows.
    pub fn compiled(self) -> bool {
        match self {
            GameKind::Popucom => cfg!(feature = "popucom"),
            GameKind::Edges => cfg!(feature = "edges"),
            GameKind::Go => cfg!(feature = "go"),
            GameKind::Chess => cfg!(feature = "fairy"),
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        GameKind::ALL.into_iter().find(|kind| kind.name() == name).ok_or_else(|| UnknownGame(name.to_owned()))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?}")]
pub struct UnknownGame(pub String);
