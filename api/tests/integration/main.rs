//! The API over real HTTP, against real services started by the tests themselves.

mod client;
mod database;
mod function;
mod ratelimit;
mod services;
mod suite;
