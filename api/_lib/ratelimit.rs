//! Per-client-IP rate limiting. Deployed: Upstash's sliding window on Redis (one atomic Lua script,
//! keys that expire, one shared connection, a short timeout, and "allow and log" when Redis fails)
//! for what creates rows (`POST`: rooms, seats, quick play, Triplex solves), and an in-process
//! limiter (`governor`) per function instance for the rest: polls and moves are most requests, and
//! each check costs four Redis commands of Upstash's quota (docs/CAPACITY.md); a move is bounded by
//! its seat's token and the room's version anyway. Locally: the in-process limiter for everything,
//! only when a limit is configured.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::middleware::StateInformationMiddleware;
use governor::{DefaultKeyedRateLimiter, Quota};
use tokio::sync::OnceCell;

use crate::error::ApiError;

/// The answer for one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    pub limit: u64,
    pub remaining: u64,
    /// When the current window ends, in Unix milliseconds.
    pub reset_ms: u64,
}

#[async_trait]
pub trait RateLimiter: Send + Sync + 'static {
    async fn check(&self, key: &str) -> Decision;

    /// Whether the client's address may be taken from `x-forwarded-for` / `x-real-ip`: only behind
    /// a proxy that sets them (Vercel). A server facing clients directly uses the peer address, or
    /// anyone could pick a fresh key per request.
    fn trusts_forwarded_headers(&self) -> bool {
        true
    }
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// The client's address: the first `x-forwarded-for` hop (Vercel sets it), `x-real-ip`, or the peer.
pub fn client_ip(headers: &HeaderMap, peer: Option<SocketAddr>, trust_headers: bool) -> String {
    if !trust_headers {
        return peer.map(|addr| addr.ip().to_string()).unwrap_or_else(|| "unknown".to_owned());
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty());
    header("x-forwarded-for")
        .and_then(|list| list.split(',').next())
        .map(|ip| ip.trim().to_owned())
        .or_else(|| header("x-real-ip").map(str::to_owned))
        .or_else(|| peer.map(|addr| addr.ip().to_string()))
        .unwrap_or_else(|| "unknown".to_owned())
}

fn headers_for(decision: &Decision) -> Vec<(HeaderName, HeaderValue)> {
    vec![
        (HeaderName::from_static("x-ratelimit-limit"), HeaderValue::from(decision.limit)),
        (HeaderName::from_static("x-ratelimit-remaining"), HeaderValue::from(decision.remaining)),
        (HeaderName::from_static("x-ratelimit-reset"), HeaderValue::from(decision.reset_ms.div_ceil(1000))),
    ]
}

/// The limiter for requests that create rows (`POST`) and the one for everything else.
#[derive(Clone)]
pub struct Limiters {
    pub creating: Arc<dyn RateLimiter>,
    pub other: Arc<dyn RateLimiter>,
}

impl Limiters {
    /// One limiter counting every request.
    pub fn one(limiter: Arc<dyn RateLimiter>) -> Limiters {
        Limiters { creating: limiter.clone(), other: limiter }
    }
}

/// Axum middleware: 429 `rate_limited` when the client is over its limit, else the response with
/// its `X-RateLimit-*` headers.
pub async fn middleware(State(limiters): State<Limiters>, request: Request, next: Next) -> Response {
    let creating = request.method() == axum::http::Method::POST;
    let limiter = if creating { &limiters.creating } else { &limiters.other };
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0);
    let decision = limiter.check(&client_ip(request.headers(), peer, limiter.trusts_forwarded_headers())).await;
    if !decision.allowed {
        let retry_after_secs = decision.reset_ms.saturating_sub(now_ms()).div_ceil(1000).max(1);
        return ApiError::RateLimited { retry_after_secs, headers: headers_for(&decision) }.into_response();
    }
    let mut response = next.run(request).await;
    response.headers_mut().extend(headers_for(&decision));
    response
}

/// Upstash's sliding window, done atomically in Redis: the count of the current fixed window plus
/// the previous window's count weighted by how much of it still overlaps the sliding window.
/// Returns the remaining requests after this one, or -1 when refused (nothing is counted then).
const SLIDING_WINDOW_SCRIPT: &str = r#"
local current = tonumber(redis.call("GET", KEYS[1]) or "0")
local previous = tonumber(redis.call("GET", KEYS[2]) or "0")
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local weighted_previous = math.floor((1 - (now % window) / window) * previous)
if weighted_previous + current >= limit then
  return -1
end
local count = redis.call("INCR", KEYS[1])
if count == 1 then
  -- Live through the next window, where this one is the "previous" count, plus a margin.
  redis.call("PEXPIRE", KEYS[1], window * 2 + 1000)
end
return limit - (count + weighted_previous)
"#;

pub struct RedisLimiter {
    client: redis::Client,
    connection: OnceCell<redis::aio::ConnectionManager>,
    script: redis::Script,
    limit: u64,
    window_ms: u64,
    timeout: Duration,
    prefix: String,
}

impl RedisLimiter {
    /// `url` is `redis://` or `rediss://` (Upstash). Nothing connects until the first request.
    pub fn new(url: &str, limit: u64, window: Duration) -> Result<RedisLimiter, redis::RedisError> {
        // `rediss://` needs a process-wide rustls crypto provider; choose ring explicitly, since
        // rustls refuses to guess when a build enables more than one (another crate may add one).
        let _ = rustls::crypto::ring::default_provider().install_default();
        Ok(RedisLimiter {
            client: redis::Client::open(url)?,
            connection: OnceCell::new(),
            script: redis::Script::new(SLIDING_WINDOW_SCRIPT),
            limit,
            window_ms: window.as_millis() as u64,
            timeout: Duration::from_millis(800),
            prefix: "tabula:ratelimit".to_owned(),
        })
    }

    /// Keys go under `prefix` (tests use their own).
    pub fn with_prefix(mut self, prefix: &str) -> RedisLimiter {
        self.prefix = prefix.to_owned();
        self
    }

    async fn remaining(&self, key: &str, now: u64) -> Result<i64, String> {
        let connection = tokio::time::timeout(
            self.timeout,
            self.connection.get_or_try_init(|| {
                let config = redis::aio::ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(self.timeout))
                    .set_response_timeout(Some(self.timeout))
                    .set_number_of_retries(1);
                redis::aio::ConnectionManager::new_with_config(self.client.clone(), config)
            }),
        )
        .await
        .map_err(|_| "connecting timed out".to_owned())?
        .map_err(|e| e.to_string())?;
        let mut connection = connection.clone();
        let bucket = now / self.window_ms;
        let mut invocation = self.script.prepare_invoke();
        invocation
            .key(format!("{}:{key}:{bucket}", self.prefix))
            .key(format!("{}:{key}:{}", self.prefix, bucket.wrapping_sub(1)))
            .arg(self.limit)
            .arg(now)
            .arg(self.window_ms);
        tokio::time::timeout(self.timeout, invocation.invoke_async::<i64>(&mut connection))
            .await
            .map_err(|_| "script timed out".to_owned())?
            .map_err(|e| e.to_string())
    }
}

#[async_trait]
impl RateLimiter for RedisLimiter {
    async fn check(&self, key: &str) -> Decision {
        let now = now_ms();
        let reset_ms = (now / self.window_ms + 1) * self.window_ms;
        match self.remaining(key, now).await {
            Ok(remaining) => {
                Decision { allowed: remaining >= 0, limit: self.limit, remaining: remaining.max(0) as u64, reset_ms }
            }
            Err(error) => {
                // A limiter outage must not take the game down: allow, and say so in the log.
                tracing::warn!(%error, "rate limiter unavailable; request allowed");
                Decision { allowed: true, limit: self.limit, remaining: self.limit, reset_ms }
            }
        }
    }
}

/// In-process limiter for `tabula serve` (GCRA: `limit` per minute, bursts up to `limit`).
pub struct LocalLimiter {
    limiter: governor::RateLimiter<
        String,
        governor::state::keyed::DefaultKeyedStateStore<String>,
        governor::clock::DefaultClock,
        StateInformationMiddleware,
    >,
    limit: u64,
    checks: std::sync::atomic::AtomicU64,
    trust_forwarded: bool,
}

impl LocalLimiter {
    /// `trust_forwarded`: the deployed functions sit behind Vercel's proxy; `tabula serve` does not.
    pub fn per_minute(limit: NonZeroU32, trust_forwarded: bool) -> LocalLimiter {
        let limiter =
            DefaultKeyedRateLimiter::keyed(Quota::per_minute(limit)).with_middleware::<StateInformationMiddleware>();
        LocalLimiter { limiter, limit: limit.get() as u64, checks: Default::default(), trust_forwarded }
    }
}

#[async_trait]
impl RateLimiter for LocalLimiter {
    fn trusts_forwarded_headers(&self) -> bool {
        self.trust_forwarded
    }

    async fn check(&self, key: &str) -> Decision {
        // Forget clients whose window has passed, now and then, so memory stays bounded.
        if self.checks.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 1024 == 1023 {
            self.limiter.retain_recent();
        }
        let now = now_ms();
        match self.limiter.check_key(&key.to_owned()) {
            Ok(snapshot) => Decision {
                allowed: true,
                limit: self.limit,
                remaining: snapshot.remaining_burst_capacity() as u64,
                reset_ms: now + 60_000 / self.limit.max(1),
            },
            Err(not_until) => {
                let wait =
                    not_until.wait_time_from(governor::clock::Clock::now(&governor::clock::DefaultClock::default()));
                Decision { allowed: false, limit: self.limit, remaining: 0, reset_ms: now + wait.as_millis() as u64 }
            }
        }
    }
}
