//! Vercel's edge on loopback: every request is routed by the Build Output's route table
//! (`output.rs`) to a static file or to a running function (`functions.rs`), with the headers the
//! platform adds (the client's address in `x-forwarded-for` and `x-real-ip`, the invocation ids).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, Request, State};
use axum::response::Response;

use crate::functions::Function;
use crate::output::{Output, Target};

pub struct Edge {
    pub output: Output,
    pub functions: BTreeMap<String, Function>,
    client: reqwest::Client,
}

/// Serves `output` and `functions` on a free loopback port; returns the base URL.
pub async fn serve(output: Output, functions: BTreeMap<String, Function>) -> (String, Arc<Edge>) {
    let edge = Arc::new(Edge { output, functions, client: reqwest::Client::new() });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback(handle).with_state(edge.clone());
    tokio::spawn(async move {
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await.unwrap();
    });
    (base, edge)
}

fn content_type(file: &std::path::Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "application/javascript",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("css") => "text/css",
        Some("svg") => "image/svg+xml",
        Some("xml") => "application/xml",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

async fn handle(
    State(edge): State<Arc<Edge>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let routed = edge.output.route(parts.uri.path(), parts.uri.query().unwrap_or(""), &parts.headers);
    let mut response = match &routed.target {
        Target::Static { file, content_type: given } => {
            let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            Response::builder()
                .status(routed.status.unwrap_or(200))
                .header("content-type", given.clone().unwrap_or_else(|| content_type(file).to_owned()))
                .body(Body::from(bytes))
                .unwrap()
        }
        Target::Status(status) => Response::builder().status(*status).body(Body::from("")).unwrap(),
        Target::Function(name) => {
            let function = edge.functions.get(name).unwrap_or_else(|| panic!("no running function {name}"));
            let mut url = url::Url::parse(&format!("http://127.0.0.1:{}{}", function.port, routed.path)).unwrap();
            if !routed.query.is_empty() {
                url.query_pairs_mut().extend_pairs(&routed.query);
            }
            // reqwest 0.11 speaks http 0.2's types: the request is copied over by name and bytes.
            let mut headers = reqwest::header::HeaderMap::new();
            for (key, value) in &parts.headers {
                if key != "host" {
                    headers.append(
                        reqwest::header::HeaderName::from_bytes(key.as_str().as_bytes()).unwrap(),
                        reqwest::header::HeaderValue::from_bytes(value.as_bytes()).unwrap(),
                    );
                }
            }
            let client_ip = peer.ip().to_string();
            headers.insert("x-forwarded-for", client_ip.parse().unwrap());
            headers.insert("x-real-ip", client_ip.parse().unwrap());
            let ids = function.invocation();
            headers.insert("x-vercel-internal-invocation-id", ids.0.parse().unwrap());
            headers.insert("x-vercel-internal-request-id", ids.1.to_string().parse().unwrap());
            let body = to_bytes(body, 1 << 20).await.unwrap();
            let answer = edge
                .client
                .request(reqwest::Method::from_bytes(parts.method.as_str().as_bytes()).unwrap(), url)
                .headers(headers)
                .body(body)
                .send()
                .await
                .unwrap_or_else(|e| panic!("function {name} did not answer: {e}"));
            let mut response = Response::builder().status(answer.status().as_u16());
            for (key, value) in answer.headers() {
                response = response.header(key.as_str(), value.as_bytes());
            }
            let bytes = answer.bytes().await.unwrap();
            // The platform counts the invocation done on its `end` message.
            let edge_ref = edge.clone();
            let name = name.clone();
            tokio::task::spawn_blocking(move || edge_ref.functions[&name].ended(&ids)).await.unwrap();
            response.body(Body::from(bytes)).unwrap()
        }
    };
    for (name, value) in &routed.headers {
        response
            .headers_mut()
            .insert(axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
    }
    response
}
