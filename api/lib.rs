//! Tabula's HTTP API: thin glue between requests, the rule engine (`tabula-core`) and a room store.
//! The `/api/game` router, the stores and the Vercel functions land here (issue 3); the local
//! server (`tabula serve`) and the serverless functions will share one router from this crate.

pub use tabula_core as rules;
