//! Vercel function for `/api/lobby` (see `api/_lib/routes.rs`): the same router as every function.

#[tokio::main]
async fn main() -> Result<(), vercel_runtime::Error> {
    tabula_api::function::run().await
}
