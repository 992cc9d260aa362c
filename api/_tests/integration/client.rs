//! The API served over real HTTP on a loopback port, and a small client for it.

use std::net::SocketAddr;
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{json, Value};
use tabula_api::push::{Push, RoomChanges};
use tabula_api::ratelimit::{Limiters, RateLimiter};
use tabula_api::store::{PostgrestStore, SqliteStore, Store, SupabaseKey};
use tabula_api::webpush::{Notifier, PushHosts, VapidKeys};
use tabula_api::{router, AppState};

use crate::services::supabase;

pub const CRON_SECRET: &str = "test-cron-secret";

/// Which store a test runs against.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgrest,
}

impl Backend {
    pub fn store(self) -> Arc<dyn Store> {
        match self {
            Backend::Sqlite => Arc::new(SqliteStore::in_memory().expect("in-memory SQLite")),
            Backend::Postgrest => {
                let supabase = supabase();
                Arc::new(PostgrestStore::new(&supabase.rest_url, SupabaseKey::parse(&supabase.jwt("service_role"))))
            }
        }
    }
}

/// A room id no other test uses (the PostgREST database is shared by all tests).
pub fn room_id() -> String {
    format!("t{:016x}", rand::random::<u64>())
}

pub struct TestApi {
    pub base: String,
    pub store: Arc<dyn Store>,
    pub http: reqwest::Client,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
    pub raw: String,
}

impl Reply {
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}

impl TestApi {
    pub async fn start(backend: Backend) -> TestApi {
        Self::start_with(backend.store(), None).await
    }

    pub async fn start_with(store: Arc<dyn Store>, limiter: Option<Arc<dyn RateLimiter>>) -> TestApi {
        Self::serve(store.clone(), AppState::new(store, limiter, Some(CRON_SECRET.into()))).await
    }

    /// An API limited as deployed: reads and writes by their own limiters.
    pub async fn start_limited(store: Arc<dyn Store>, limiters: Limiters) -> TestApi {
        let state = AppState::new(store.clone(), None, Some(CRON_SECRET.into())).with_limiters(Some(limiters));
        Self::serve(store, state).await
    }

    /// An API that pushes room changes as the local server does (Server-Sent Events).
    pub async fn start_pushing(backend: Backend) -> TestApi {
        let store = backend.store();
        let push = Push::Local(RoomChanges::default());
        Self::serve(store.clone(), AppState::new(store, None, Some(CRON_SECRET.into())).with_push(push)).await
    }

    /// An API as deployed with Supabase Realtime (the functions push nothing themselves).
    pub async fn start_realtime(backend: Backend) -> TestApi {
        let store = backend.store();
        let push = Push::Supabase {
            url: "https://example.supabase.co".into(),
            socket: "wss://example.supabase.co/realtime/v1/websocket".into(),
            anon_key: "public".into(),
        };
        Self::serve(store.clone(), AppState::new(store, None, Some(CRON_SECRET.into())).with_push(push)).await
    }

    /// An API sending Web Push with a fresh VAPID pair, to the push services `hosts` allows.
    pub async fn start_notifying(backend: Backend, hosts: PushHosts) -> (TestApi, String) {
        let store = backend.store();
        let (public, private) = VapidKeys::generate().expect("a VAPID pair");
        let keys = VapidKeys::new(&public, &private, "mailto:tests@tabula.invalid").expect("the pair matches");
        let state = AppState::new(store.clone(), None, Some(CRON_SECRET.into()))
            .with_notifier(Some(Notifier::new(keys, hosts)));
        (Self::serve(store, state).await, public)
    }

    /// An API whose players count as gone after `abandon_after` without a poll.
    pub async fn start_abandoning(backend: Backend, abandon_after: std::time::Duration) -> TestApi {
        let store = backend.store();
        let state = AppState::new(store.clone(), None, Some(CRON_SECRET.into())).with_abandon_after(abandon_after);
        Self::serve(store, state).await
    }

    async fn serve(store: Arc<dyn Store>, state: AppState) -> TestApi {
        tabula_api::function::init_logging();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        // No pooled connections: the bad-request table sends bodies the server refuses before reading
        // them all (413), after which it closes that connection; a request that picked it up from the
        // pool failed with IncompleteMessage (seen once in CI). Each request gets its own connection.
        let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().expect("an HTTP client");
        TestApi { base, store, http }
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> Reply {
        let response = request.send().await.expect("the API answers");
        let status = response.status();
        let headers = response.headers().clone();
        let raw = response.text().await.unwrap();
        let body =
            if raw.is_empty() { Value::Null } else { serde_json::from_str(&raw).unwrap_or(Value::String(raw.clone())) };
        Reply { status, headers, body, raw }
    }

    pub fn url(&self) -> String {
        format!("{}/api/game", self.base)
    }

    pub async fn get(&self, room: &str) -> Reply {
        self.send(self.http.get(self.url()).query(&[("roomId", room)])).await
    }

    /// A seated player's poll: the token header tells the room they are still there.
    pub async fn poll(&self, room: &str, token: &str) -> Reply {
        self.send(self.http.get(self.url()).query(&[("roomId", room)]).header("x-tabula-token", token)).await
    }

    pub async fn post(&self, body: Value) -> Reply {
        self.send(self.http.post(self.url()).json(&body)).await
    }

    pub async fn put(&self, body: Value) -> Reply {
        self.send(self.http.put(self.url()).json(&body)).await
    }

    /// Creates a POPUCOM room with both seats taken; returns the tokens of seat 1 and seat 2.
    pub async fn seated_room(&self, room: &str) -> [String; 2] {
        self.seated_room_of(room, json!({})).await
    }

    /// Creates a room with both seats taken; `game` holds the request's `game` and `config`, if any.
    pub async fn seated_room_of(&self, room: &str, game: Value) -> [String; 2] {
        let mut tokens = Vec::new();
        for (seat, name) in [(1, "Ann"), (2, "Bo")] {
            let mut body = json!({"roomId": room, "seat": seat, "name": name});
            body.as_object_mut().unwrap().extend(game.as_object().cloned().unwrap_or_default());
            let reply = self.post(body).await;
            assert_eq!(reply.status, 200, "{}", reply.raw);
            tokens.push(reply.body["token"].as_str().expect("a token for the claimed seat").to_owned());
        }
        tokens.try_into().unwrap()
    }

    pub async fn play(&self, room: &str, token: &str, version: i64, mv: Value) -> Reply {
        self.put(json!({"roomId": room, "token": token, "version": version, "move": mv})).await
    }

    /// A PUT with an `action` and no move (resign, rematch, takeback, ...).
    pub async fn act(&self, room: &str, token: &str, version: i64, action: &str) -> Reply {
        self.put(json!({"roomId": room, "token": token, "version": version, "action": action})).await
    }
}
