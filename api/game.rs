//! The Vercel function for every public API path: `/api/game` (rooms, seats and moves), and through
//! `vercel.json`'s rewrites `/api/lobby`, `/api/push`, `/api/card`, `/api/triplex/solve` and
//! `/api/triplex/records` (see `api/_lib/routes.rs` and `api/_lib/function.rs`).

#[tokio::main]
async fn main() -> Result<(), vercel_runtime::Error> {
    tabula_api::function::run().await
}
