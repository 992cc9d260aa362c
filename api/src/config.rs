//! Configuration from environment variables (documented in README and `.env.example`), turned into
//! the router's state: which store, which rate limiter, the cron secret.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::push::{Push, RoomChanges};
use crate::ratelimit::{LocalLimiter, RateLimiter, RedisLimiter};
use crate::routes::AppState;
use crate::store::{PostgrestStore, SqliteStore, Store, SupabaseKey};

/// The deployed functions' limit when `RATE_LIMIT_PER_MINUTE` is not set.
pub const DEFAULT_RATE_LIMIT_PER_MINUTE: u32 = 200;

#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(pub String);

/// Where the API runs: the deployed functions always rate-limit and need Supabase; the local
/// server keeps rooms in a file and rate-limits only when asked to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deployment {
    Serverless,
    Local { data_file: PathBuf },
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// The store named by the environment: PostgREST when `SUPABASE_URL` (or `SUPABASE_REST_URL`) is
/// set, else SQLite in the local data file.
pub fn store_from_env(deployment: &Deployment) -> Result<Arc<dyn Store>, ConfigError> {
    let rest_url = var("SUPABASE_REST_URL")
        .or_else(|| var("SUPABASE_URL").map(|url| format!("{}/rest/v1", url.trim_end_matches('/'))));
    if let Some(rest_url) = rest_url {
        let key = var("SUPABASE_SECRET_KEY").or_else(|| var("SUPABASE_SERVICE_ROLE_KEY")).ok_or_else(|| {
            ConfigError("SUPABASE_URL is set but neither SUPABASE_SECRET_KEY nor SUPABASE_SERVICE_ROLE_KEY".into())
        })?;
        return Ok(Arc::new(PostgrestStore::new(&rest_url, SupabaseKey::parse(&key))));
    }
    match deployment {
        Deployment::Serverless => Err(ConfigError(
            "the deployed API needs SUPABASE_URL and SUPABASE_SECRET_KEY (a function's disk does not last)".into(),
        )),
        Deployment::Local { data_file } => {
            let store =
                SqliteStore::open(data_file).map_err(|e| ConfigError(format!("{}: {e}", data_file.display())))?;
            Ok(Arc::new(store))
        }
    }
}

/// Redis (`REDIS_URL`, or `KV_URL` as Vercel's Upstash integration names it) when set; otherwise,
/// deployed, nothing can be shared between function instances, so an in-process limiter per instance.
pub fn limiter_from_env(deployment: &Deployment) -> Result<Option<Arc<dyn RateLimiter>>, ConfigError> {
    let configured = var("RATE_LIMIT_PER_MINUTE")
        .map(|v| {
            v.parse::<NonZeroU32>()
                .map_err(|_| ConfigError(format!("RATE_LIMIT_PER_MINUTE={v:?} is not a positive integer")))
        })
        .transpose()?;
    let limit = match (configured, deployment) {
        (Some(limit), _) => limit,
        (None, Deployment::Serverless) => NonZeroU32::new(DEFAULT_RATE_LIMIT_PER_MINUTE).expect("non-zero"),
        (None, Deployment::Local { .. }) => return Ok(None),
    };
    if let Some(url) = var("REDIS_URL").or_else(|| var("KV_URL")) {
        let limiter = RedisLimiter::new(&url, limit.get() as u64, Duration::from_secs(60))
            .map_err(|e| ConfigError(format!("REDIS_URL: {e}")))?;
        return Ok(Some(Arc::new(limiter)));
    }
    Ok(Some(Arc::new(LocalLimiter::per_minute(limit, *deployment == Deployment::Serverless))))
}

/// How room changes reach open pages: the local server pushes them itself; deployed, Supabase
/// Realtime does when its public key is given (`SUPABASE_ANON_KEY`, or `SUPABASE_PUBLISHABLE_KEY`
/// as Supabase's newer keys are named); otherwise pages only poll.
pub fn push_from_env(deployment: &Deployment) -> Push {
    match deployment {
        Deployment::Local { .. } => Push::Local(RoomChanges::default()),
        Deployment::Serverless => {
            match (var("SUPABASE_URL"), var("SUPABASE_ANON_KEY").or_else(|| var("SUPABASE_PUBLISHABLE_KEY"))) {
                (Some(url), Some(anon_key)) => Push::Supabase { url: url.trim_end_matches('/').to_owned(), anon_key },
                _ => Push::Off,
            }
        }
    }
}

pub fn state_from_env(deployment: &Deployment) -> Result<AppState, ConfigError> {
    let state = AppState::new(store_from_env(deployment)?, limiter_from_env(deployment)?, var("CRON_SECRET"))
        .with_push(push_from_env(deployment));
    Ok(match var("TABULA_ABANDON_SECONDS") {
        None => state,
        Some(v) => {
            let seconds = v.parse::<NonZeroU32>().map_err(|_| {
                ConfigError(format!("TABULA_ABANDON_SECONDS={v:?} is not a positive number of seconds"))
            })?;
            state.with_abandon_after(Duration::from_secs(seconds.get().into()))
        }
    })
}
