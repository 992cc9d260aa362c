//! Both forms of Supabase's server key, end to end. A project's new keys are opaque
//! (`sb_secret_...`): its API gateway takes one in the `apikey` header, refuses it as a bearer
//! token, and calls PostgREST with the service role's JWT in its place. Here a small gateway plays
//! that part in front of the tests' PostgREST, so a room is created and played through it with the
//! secret key; the legacy JWT key, which the other tests use directly, is refused by the gateway
//! the way Supabase refuses a JWT where a secret belongs.

use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tabula_api::store::{PostgrestStore, SupabaseKey};

use crate::client::{room_id, TestApi};
use crate::services::supabase;

const SECRET: &str = "sb_secret_tabula-tests-0123456789";

struct Gateway {
    upstream: String,
    jwt: String,
    http: reqwest::Client,
}

/// Supabase's gateway as far as keys go: the secret in `apikey` and no bearer token, or 401.
async fn gateway(State(gateway): State<Arc<Gateway>>, request: Request) -> Response {
    let headers = request.headers().clone();
    let key = headers.get("apikey").and_then(|v| v.to_str().ok());
    if key != Some(SECRET) || headers.contains_key("authorization") {
        let body = json!({"message": "Invalid API key", "hint": "a secret key goes in apikey alone"});
        return (StatusCode::UNAUTHORIZED, axum::Json(body)).into_response();
    }
    let method = reqwest::Method::from_bytes(request.method().as_str().as_bytes()).expect("an HTTP method");
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str()).to_owned();
    let body = to_bytes(request.into_body(), 1 << 20).await.expect("a request body");
    let mut forwarded = gateway
        .http
        .request(method, format!("{}{path}", gateway.upstream))
        .header("apikey", &gateway.jwt)
        .bearer_auth(&gateway.jwt)
        .body(body.to_vec());
    for (name, value) in
        headers.iter().filter(|(name, _)| !["host", "apikey", "content-length"].contains(&name.as_str()))
    {
        forwarded = forwarded.header(name.as_str(), value.as_bytes());
    }
    let answer = forwarded.send().await.expect("PostgREST answers");
    let mut out = HeaderMap::new();
    for (name, value) in answer.headers() {
        if !["content-length", "transfer-encoding", "connection"].contains(&name.as_str()) {
            let name = axum::http::HeaderName::from_bytes(name.as_str().as_bytes()).expect("a header name");
            out.insert(name, axum::http::HeaderValue::from_bytes(value.as_bytes()).expect("a header value"));
        }
    }
    let status = StatusCode::from_u16(answer.status().as_u16()).expect("a status");
    let bytes = answer.bytes().await.expect("PostgREST's body");
    (status, out, Body::from(bytes)).into_response()
}

/// The gateway on a free loopback port, in front of the tests' PostgREST; its address.
async fn start_gateway() -> String {
    let supabase = supabase();
    let state = Arc::new(Gateway {
        upstream: supabase.rest_url.trim_end_matches('/').to_owned(),
        jwt: supabase.jwt("service_role"),
        http: reqwest::Client::new(),
    });
    let app = axum::Router::new().fallback(gateway).with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_key_plays_through_supabase_s_gateway_and_a_jwt_is_not_sent_as_one() {
    let url = start_gateway().await;
    assert!(matches!(SupabaseKey::parse(SECRET), SupabaseKey::Secret(_)), "the key form is told from the key");
    let api = TestApi::start_with(Arc::new(PostgrestStore::new(&url, SupabaseKey::parse(SECRET))), None).await;
    let room = room_id();
    let [red, _] = api.seated_room(&room).await;
    let version = api.get(&room).await.body["version"].as_i64().unwrap();
    let played = api.play(&room, &red, version, json!({"row": 4, "col": 4})).await;
    assert_eq!(played.status, 200, "{}", played.raw);
    let read = api.get(&room).await;
    assert_eq!(read.body["moves"], json!([{"row": 4, "col": 4}]), "{}", read.raw);

    // A JWT key goes out as a bearer token too, which the gateway refuses where a secret belongs:
    // the store's header choice is what makes the secret key work.
    let jwt = supabase().jwt("service_role");
    let api = TestApi::start_with(Arc::new(PostgrestStore::new(&url, SupabaseKey::parse(&jwt))), None).await;
    let refused = api.get(&room).await;
    assert!(refused.status.is_server_error(), "a refused key is the server's fault, not the player's: {}", refused.raw);
    assert!(!refused.raw.contains(&jwt) && !refused.raw.contains("Invalid API key"), "no cause shown: {}", refused.raw);
}
