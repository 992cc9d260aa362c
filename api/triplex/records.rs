//! Vercel function for `/api/triplex/records` (see `api/_lib/triplex.rs`): the same router as every function.

#[tokio::main]
async fn main() -> Result<(), vercel_runtime::Error> {
    tabula_api::function::run().await
}
