//! The API over real HTTP, against real services started by the tests themselves.

mod client;
mod services;
mod suite;
