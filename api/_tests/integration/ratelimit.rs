//! The Redis sliding-window limiter against a real redis-server, directly and through the API.

use std::sync::Arc;
use std::time::{Duration, Instant};

use redis::AsyncCommands;
use tabula_api::ratelimit::{Limiters, LocalLimiter, RateLimiter, RedisLimiter};

use crate::client::{Backend, TestApi};
use crate::services::{free_port, redis_url};

fn limiter(prefix: &str) -> RedisLimiter {
    RedisLimiter::new(redis_url(), 200, Duration::from_secs(60)).unwrap().with_prefix(prefix)
}

#[tokio::test]
async fn the_201st_request_in_a_minute_is_refused_through_the_api() {
    let prefix = format!("test-{:x}", rand::random::<u64>());
    let api = TestApi::start_with(Backend::Sqlite.store(), Some(Arc::new(limiter(&prefix)))).await;
    let mut last = None;
    for n in 1..=200 {
        let reply = api
            .send(
                api.http
                    .get(api.url())
                    .query(&[("roomId", "nowhere")])
                    .header("x-forwarded-for", "203.0.113.7, 10.0.0.1"),
            )
            .await;
        assert_eq!(reply.status, 404, "request {n} is not limited");
        assert_eq!(reply.headers["x-ratelimit-limit"], "200");
        last = Some(reply);
    }
    assert_eq!(last.unwrap().headers["x-ratelimit-remaining"], "0");
    let refused = api
        .send(api.http.get(api.url()).query(&[("roomId", "nowhere")]).header("x-forwarded-for", "203.0.113.7"))
        .await;
    assert_eq!((refused.status.as_u16(), refused.code()), (429, "rate_limited"), "{}", refused.raw);
    let retry_after: u64 = refused.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after), "Retry-After {retry_after}");
    assert_eq!(refused.headers["x-ratelimit-remaining"], "0");
    assert!(refused.headers.contains_key("x-ratelimit-reset"));
    // The Triplex records share the limit.
    let records = api.http.get(format!("{}/api/triplex/records", api.base)).query(&[("level", "1")]);
    let solve = api.http.post(format!("{}/api/triplex/solve", api.base)).json(&serde_json::json!({}));
    for request in [records, solve] {
        let reply = api.send(request.header("x-forwarded-for", "203.0.113.7")).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (429, "rate_limited"), "{}", reply.raw);
    }
    // Another client is not affected.
    let other = api
        .send(api.http.get(api.url()).query(&[("roomId", "nowhere")]).header("x-forwarded-for", "198.51.100.1"))
        .await;
    assert_eq!(other.status, 404);
}

/// As deployed: a request that creates rows (POST) is counted in Redis, a poll or a move only by
/// the instance's own limiter (they are most requests, and each Redis check costs Upstash's quota),
/// which still refuses a client over the limit.
#[tokio::test]
async fn only_creation_reaches_redis() {
    let prefix = format!("test-{:x}", rand::random::<u64>());
    let other = Arc::new(LocalLimiter::per_minute(std::num::NonZeroU32::new(200).unwrap(), true));
    let limiters = Limiters { creating: Arc::new(limiter(&prefix)), other };
    let api = TestApi::start_limited(Backend::Sqlite.store(), limiters).await;
    let mut redis = redis::Client::open(redis_url()).unwrap().get_multiplexed_async_connection().await.unwrap();
    let ip = "203.0.113.9";
    let read = || api.http.get(api.url()).query(&[("roomId", "nowhere")]).header("x-forwarded-for", ip);
    let mv = serde_json::json!({"roomId": "nowhere", "token": "t", "version": 0, "move": [4, 4]});
    for _ in 0..3 {
        let reply = api.send(read()).await;
        assert_eq!(reply.status, 404);
        assert_eq!(reply.headers["x-ratelimit-limit"], "200", "polls are limited too");
        let reply = api.send(api.http.put(api.url()).json(&mv).header("x-forwarded-for", ip)).await;
        assert_eq!(reply.status, 404, "{}", reply.raw);
    }
    let keys: Vec<String> = redis.keys(format!("{prefix}:*")).await.unwrap();
    assert!(keys.is_empty(), "polls or moves reached Redis: {keys:?}");

    let check = serde_json::json!({"check": true, "game": "popucom"});
    let create = api.send(api.http.post(api.url()).json(&check).header("x-forwarded-for", ip)).await;
    assert_eq!(create.status, 200, "{}", create.raw);
    let keys: Vec<String> = redis.keys(format!("{prefix}:*")).await.unwrap();
    assert_eq!(keys.len(), 1, "the POST was counted in Redis: {keys:?}");
    assert_eq!(redis.get::<_, i64>(&keys[0]).await.unwrap(), 1);

    let mut statuses = Vec::new();
    for _ in 0..200 {
        statuses.push(api.send(read()).await.status.as_u16());
    }
    assert_eq!(statuses.last(), Some(&429), "a client over the limit is refused polls: {statuses:?}");
}

#[tokio::test]
async fn window_keys_expire() {
    let prefix = format!("test-{:x}", rand::random::<u64>());
    let limiter = limiter(&prefix);
    for _ in 0..3 {
        assert!(limiter.check("198.51.100.9").await.allowed);
    }
    let mut redis = redis::Client::open(redis_url()).unwrap().get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis.keys(format!("{prefix}:*")).await.unwrap();
    assert_eq!(keys.len(), 1, "one key for the current window: {keys:?}");
    let ttl_ms: i64 = redis.pttl(&keys[0]).await.unwrap();
    assert!(ttl_ms > 60_000 && ttl_ms <= 121_000, "the key expires after two windows and a second: {ttl_ms} ms");
    let count: i64 = redis.get(&keys[0]).await.unwrap();
    assert_eq!(count, 3);
}

#[tokio::test]
async fn an_unreachable_redis_lets_requests_through_quickly() {
    // Plain and TLS (Upstash's `rediss://`) URLs alike.
    for scheme in ["redis", "rediss"] {
        let nowhere = format!("{scheme}://127.0.0.1:{}", free_port());
        let limiter = RedisLimiter::new(&nowhere, 1, Duration::from_secs(60)).unwrap();
        let start = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check("203.0.113.1").await.allowed, "fail open: the game stays up");
        }
        assert!(
            start.elapsed() < Duration::from_secs(8),
            "{scheme}: each check gives up quickly: {:?}",
            start.elapsed()
        );
    }
}

#[tokio::test]
async fn a_server_facing_clients_directly_ignores_forwarded_headers() {
    use tabula_api::ratelimit::LocalLimiter;
    let limiter = LocalLimiter::per_minute(std::num::NonZeroU32::new(2).unwrap(), false);
    let api = TestApi::start_with(Backend::Sqlite.store(), Some(Arc::new(limiter))).await;
    let mut statuses = Vec::new();
    for n in 0..3 {
        // A client inventing a new address per request is still one client (its peer address).
        let spoofed = format!("198.51.100.{n}");
        let reply =
            api.send(api.http.get(api.url()).query(&[("roomId", "nowhere")]).header("x-forwarded-for", spoofed)).await;
        statuses.push(reply.status.as_u16());
    }
    assert_eq!(statuses, [404, 404, 429]);
}
