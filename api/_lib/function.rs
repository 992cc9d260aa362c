//! The Vercel function runner shared by `api/game.rs` and `api/cron.rs`: the full router behind
//! `vercel_runtime` (which, outside Vercel, serves plain HTTP on 127.0.0.1:$VERCEL_DEV_PORT).

use tower::ServiceBuilder;
use vercel_runtime::axum::VercelLayer;

use crate::config::{state_from_env, Deployment};

pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).try_init();
}

pub async fn run() -> Result<(), vercel_runtime::Error> {
    init_logging();
    let state = state_from_env(&Deployment::Serverless)?;
    let service = ServiceBuilder::new().layer(VercelLayer::new()).service(crate::routes::function_router(state));
    vercel_runtime::run(service).await
}
