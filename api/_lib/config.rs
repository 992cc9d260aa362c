//! Configuration from environment variables (documented in docs/CONFIGURATION.md and `.env.example`), turned into
//! the router's state: which store, which rate limiter, the cron secret.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::push::{Push, RoomChanges};
use crate::ratelimit::{Limiters, LocalLimiter, RedisLimiter};
use crate::state::AppState;
use crate::store::{PostgrestStore, SqliteStore, Store, SupabaseKey};
use crate::webpush::{Notifier, PushHosts, VapidKeys};

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

/// Requests that create rows through Redis (`REDIS_URL`, or `KV_URL` as Vercel's Upstash
/// integration names it) when set, the rest through an in-process limiter at the same rate (per
/// function instance: polls and moves are most requests, and each check costs Upstash commands).
/// Without Redis, the in-process limiter for all.
pub fn limiter_from_env(deployment: &Deployment) -> Result<Option<Limiters>, ConfigError> {
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
    let local = Arc::new(LocalLimiter::per_minute(limit, *deployment == Deployment::Serverless));
    if let Some(url) = var("REDIS_URL").or_else(|| var("KV_URL")) {
        let limiter = RedisLimiter::new(&url, limit.get() as u64, Duration::from_secs(60))
            .map_err(|e| ConfigError(format!("REDIS_URL: {e}")))?;
        return Ok(Some(Limiters { creating: Arc::new(limiter), other: local }));
    }
    Ok(Some(Limiters::one(local)))
}

/// How room changes reach open pages. Supabase Realtime when its public key is given
/// (`SUPABASE_ANON_KEY`, or `SUPABASE_PUBLISHABLE_KEY` as Supabase's newer keys are named) and a
/// Realtime is known (the project's, or `SUPABASE_REALTIME_URL`): its broadcasts come from the
/// database, so they carry every writer's moves, the local server's too when it keeps rooms in
/// Supabase. Otherwise the local server pushes its own writes, and deployed, pages only poll.
pub fn push_from_env(deployment: &Deployment) -> Push {
    push_from(deployment, var)
}

fn push_from(deployment: &Deployment, var: impl Fn(&str) -> Option<String>) -> Push {
    let project = var("SUPABASE_URL").map(|url| url.trim_end_matches('/').to_owned());
    let realtime = var("SUPABASE_REALTIME_URL")
        .map(|url| url.trim_end_matches('/').to_owned())
        .or_else(|| project.as_ref().map(|url| format!("{url}/realtime/v1")));
    let anon_key = var("SUPABASE_ANON_KEY").or_else(|| var("SUPABASE_PUBLISHABLE_KEY"));
    match (realtime, anon_key, deployment) {
        (Some(realtime), Some(anon_key), _) => {
            // Realtime's websocket, as its clients address it: `wss://<project>/realtime/v1/websocket`.
            let socket = match realtime.split_once("://") {
                Some(("https", rest)) => format!("wss://{rest}/websocket"),
                Some(("http", rest)) => format!("ws://{rest}/websocket"),
                _ => format!("{realtime}/websocket"),
            };
            Push::Supabase { url: project.unwrap_or(realtime), socket, anon_key }
        }
        (_, _, Deployment::Local { .. }) => Push::Local(RoomChanges::default()),
        (_, _, Deployment::Serverless) => Push::Off,
    }
}

/// Web Push when its keys are set: `VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY` and `VAPID_SUBJECT`
/// (all three or none), to the push services `PUSH_SERVICE_HOSTS` names (the known ones if unset).
pub fn notifier_from_env() -> Result<Option<Notifier>, ConfigError> {
    notifier_from(var)
}

fn notifier_from(var: impl Fn(&str) -> Option<String>) -> Result<Option<Notifier>, ConfigError> {
    let hosts = PushHosts::parse(var("PUSH_SERVICE_HOSTS").as_deref());
    match (var("VAPID_PUBLIC_KEY"), var("VAPID_PRIVATE_KEY"), var("VAPID_SUBJECT")) {
        (None, None, None) => Ok(None),
        (Some(public), Some(private), Some(subject)) => {
            let keys = VapidKeys::new(&public, &private, &subject).map_err(ConfigError)?;
            // Webhooks post the room's full address: the site's, where it is known.
            let site = var("TABULA_PUBLIC_URL")
                .or_else(|| var("VERCEL_PROJECT_PRODUCTION_URL").map(|h| format!("https://{h}")));
            Ok(Some(Notifier::new(keys, hosts).with_site(site)))
        }
        _ => Err(ConfigError(
            "Web Push needs all of VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (or none)".into(),
        )),
    }
}

pub fn state_from_env(deployment: &Deployment) -> Result<AppState, ConfigError> {
    let state = AppState::new(store_from_env(deployment)?, None, var("CRON_SECRET"))
        .with_limiters(limiter_from_env(deployment)?)
        .with_push(push_from_env(deployment))
        .with_notifier(notifier_from_env()?);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn push(deployment: &Deployment, vars: &[(&str, &str)]) -> String {
        let lookup = |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string());
        match push_from(deployment, lookup) {
            Push::Local(_) => "local".into(),
            Push::Off => "off".into(),
            Push::Supabase { url, socket, anon_key } => format!("{url} {socket} {anon_key}"),
        }
    }

    #[test]
    fn web_push_needs_all_three_vapid_settings_and_a_matching_pair() {
        let (public, private) = VapidKeys::generate().unwrap();
        let (other, _) = VapidKeys::generate().unwrap();
        let notifier = |vars: &[(&str, &str)]| {
            notifier_from(|name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
                .map(|n| n.is_some())
                .map_err(|e| e.to_string())
        };
        assert_eq!(notifier(&[]), Ok(false));
        let subject = ("VAPID_SUBJECT", "mailto:ops@example.com");
        assert_eq!(notifier(&[("VAPID_PUBLIC_KEY", &public), ("VAPID_PRIVATE_KEY", &private), subject]), Ok(true));
        let partial = notifier(&[("VAPID_PUBLIC_KEY", &public), ("VAPID_PRIVATE_KEY", &private)]);
        assert!(partial.unwrap_err().contains("all of"));
        let mismatched = notifier(&[("VAPID_PUBLIC_KEY", &other), ("VAPID_PRIVATE_KEY", &private), subject]);
        assert!(mismatched.unwrap_err().contains("not the public key"));
    }

    #[test]
    fn realtime_is_used_wherever_its_key_and_address_are_known() {
        let local = Deployment::Local { data_file: "x.db".into() };
        let deployed = Deployment::Serverless;
        let project = ("SUPABASE_URL", "https://abc.supabase.co/");
        for deployment in [&local, &deployed] {
            assert_eq!(
                push(deployment, &[project, ("SUPABASE_ANON_KEY", "anon")]),
                "https://abc.supabase.co wss://abc.supabase.co/realtime/v1/websocket anon"
            );
            assert_eq!(
                push(deployment, &[project, ("SUPABASE_PUBLISHABLE_KEY", "sb_publishable_x")]),
                "https://abc.supabase.co wss://abc.supabase.co/realtime/v1/websocket sb_publishable_x"
            );
            // A Realtime of its own (self-hosted, or a test's stand-in), with or without a project.
            assert_eq!(
                push(
                    deployment,
                    &[("SUPABASE_REALTIME_URL", "http://127.0.0.1:9/realtime/v1"), ("SUPABASE_ANON_KEY", "k")]
                ),
                "http://127.0.0.1:9/realtime/v1 ws://127.0.0.1:9/realtime/v1/websocket k"
            );
        }
        assert_eq!(push(&local, &[project]), "local", "no public key: the local server pushes its own writes");
        assert_eq!(push(&local, &[("SUPABASE_ANON_KEY", "k")]), "local", "a key but no Realtime");
        assert_eq!(push(&deployed, &[project]), "off");
        assert_eq!(push(&deployed, &[]), "off");
    }
}
