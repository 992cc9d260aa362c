//! Vercel function for `/api/cron`: the daily idle-room cleanup (see `api/_lib/routes.rs`).

#[tokio::main]
async fn main() -> Result<(), vercel_runtime::Error> {
    tabula_api::function::run().await
}
