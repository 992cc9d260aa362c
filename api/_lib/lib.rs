//! Tabula's HTTP API: thin glue between requests, the rule engine (`tabula-core`) and a store.
//! One axum router ([`router`]) serves the Vercel functions (`api/game.rs`, `api/cron.rs`) and the
//! local server (`tabula serve`).

mod body;
mod cache;
pub mod card;
pub mod clock;
pub mod config;
pub mod error;
mod events;
pub mod function;
mod game;
mod http;
pub mod lobby;
pub mod notify;
pub mod push;
pub mod ratelimit;
mod records;
pub mod room;
mod routes;
mod rules;
mod seats;
mod state;
pub mod store;
pub mod token;
pub mod triplex;
pub mod webpush;

pub use routes::router;
pub use state::{AppState, IDLE_ROOM_HOURS};
