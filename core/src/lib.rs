//! Tabula's rule engines: pure Rust, no I/O, no async, no clock, randomness only from a caller's
//! seeded generator. Builds for native targets and `wasm32-unknown-unknown`.
//!
//! Every game implements [`Game`]; [`GameKind`] and [`AnyGame`] erase the type behind JSON so the
//! API, the store and the site handle any game the same way.
//!
//! ```
//! use tabula_core::{Game, Seat, Status};
//! use tabula_core::popucom::{Cell, Popucom};
//!
//! let mut game = Popucom::new(Default::default()).unwrap();
//! game.play(&Cell::new(4, 4)).unwrap();
//! assert_eq!(game.status(), Status::ToMove(Seat::Two));
//! // An illegal move is an error value and leaves the state unchanged.
//! let before = game.clone();
//! assert!(game.play(&Cell::new(4, 4)).is_err());
//! assert_eq!(game, before);
//! ```
//!
//! ```
//! use serde_json::json;
//! use tabula_core::GameKind;
//!
//! let game = GameKind::Popucom.replay(&json!({}), &[json!([4, 4]), json!({"row": 0, "col": 0})]).unwrap();
//! assert_eq!(game.state()["moves_played"], 2);
//! ```

#[cfg(feature = "all-games")]
pub mod ai;
pub mod annotation;
#[cfg(feature = "all-games")]
mod any;
#[cfg(feature = "edges")]
pub mod edges;
// What only the computer players read of a position is unused in a build without them (a page's bundle).
#[cfg(feature = "fairy")]
#[cfg_attr(not(feature = "all-games"), allow(dead_code))]
pub mod fairy;
mod game;
#[cfg(feature = "go")]
pub mod go;
mod kind;
#[cfg(feature = "popucom")]
pub mod popucom;
#[cfg(any(feature = "go", feature = "fairy"))]
mod small_sort;
#[cfg(feature = "triplex")]
pub mod triplex;

#[cfg(feature = "all-games")]
pub use any::{AnyGame, AnyReplayError, GameVisitor, MoveError};
pub use game::{BySeat, ConfigError, Game, Outcome, Rejection, ReplayError, ReplayFailure, Seat, Status};
pub use kind::{GameKind, UnknownGame};
