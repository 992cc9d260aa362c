//! Vercel function for `/api/game`: rooms, seats and moves (see `api/_lib/routes.rs`).

#[tokio::main]
async fn main() -> Result<(), vercel_runtime::Error> {
    tabula_api::function::run().await
}
