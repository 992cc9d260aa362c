//! Vercel function for `/api/card`: share cards, the PNG of a room's board and the page link-preview
//! crawlers get for `/room/<code>` (see `api/_lib/card/`).

#[tokio::main]
async fn main() -> Result<(), vercel_runtime::Error> {
    tabula_api::function::run().await
}
