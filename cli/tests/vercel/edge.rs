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
    /// What went wrong between the edge and a function (the client got a 502).
    pub failures: std::sync::Mutex<Vec<String>>,
}

/// Serves `output` and `functions` on a free loopback port; returns the base URL.
pub async fn serve(output: Output, functions: BTreeMap<String, Function>) -> (String, Arc<Edge>) {
    let edge = Arc::new(Edge { output, functions, client: reqwest::Client::new(), failures: Default::default() });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback(handle).with_state(edge.clone());
    tokio::spawn(async move {
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await.unwrap();
    });
    (base, edge)
}

/// Headers of one connection, not of the message: a proxy does not pass them on (the body is
/// sent whole, with its own length).
pub const HOP_BY_HOP: [&str; 5] = ["host", "connection", "content-length", "transfer-encoding", "keep-alive"];

/// A request's headers in reqwest 0.11's types (http 0.2's), by name and bytes, without the
/// hop-by-hop ones.
pub fn forwarded_headers(headers: &axum::http::HeaderMap) -> reqwest::header::HeaderMap {
    let mut forwarded = reqwest::header::HeaderMap::new();
    for (key, value) in headers.iter().filter(|(key, _)| !HOP_BY_HOP.contains(&key.as_str())) {
        forwarded.append(
            reqwest::header::HeaderName::from_bytes(key.as_str().as_bytes()).unwrap(),
            reqwest::header::HeaderValue::from_bytes(value.as_bytes()).unwrap(),
        );
    }
    forwarded
}

/// An answer passed on whole: its status, its headers but the hop-by-hop ones, its body.
pub async fn relayed(answer: reqwest::Response) -> Result<Response, reqwest::Error> {
    let mut response = Response::builder().status(answer.status().as_u16());
    for (key, value) in answer.headers().iter().filter(|(key, _)| !HOP_BY_HOP.contains(&key.as_str())) {
        response = response.header(key.as_str(), value.as_bytes());
    }
    Ok(response.body(Body::from(answer.bytes().await?)).unwrap())
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
            let mut url = routed.path.clone();
            if !routed.query.is_empty() {
                url += "?";
                url += &url::form_urlencoded::Serializer::new(String::new()).extend_pairs(&routed.query).finish();
            }
            let body = to_bytes(body, 1 << 20).await.unwrap_or_default();
            match edge.invoke(name, parts.method.as_str(), &url, &parts.headers, body.to_vec(), peer).await {
                Ok(response) => response,
                // The test fails on it (`Edge::failures`); the client sees a gateway error.
                Err(failure) => {
                    edge.failures.lock().unwrap().push(failure.clone());
                    Response::builder().status(502).body(Body::from(failure)).unwrap()
                }
            }
        }
    };
    // Route headers, where the answer has none of its own: a function's headers win on Vercel.
    for (name, value) in &routed.headers {
        let name = axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap();
        if !response.headers().contains_key(&name) {
            response.headers_mut().insert(name, value.parse().unwrap());
        }
    }
    response
}

impl Edge {
    /// One request to a running function, as the platform sends it (the client's address, the
    /// invocation ids), waiting for the function's `end` message after its answer.
    pub async fn invoke(
        self: &Arc<Edge>,
        name: &str,
        method: &str,
        path_and_query: &str,
        headers: &axum::http::HeaderMap,
        body: Vec<u8>,
        client: SocketAddr,
    ) -> Result<Response, String> {
        let function = self.functions.get(name).ok_or_else(|| format!("no running function {name}"))?;
        let mut forwarded = forwarded_headers(headers);
        let client_ip = client.ip().to_string();
        forwarded.insert("x-forwarded-for", client_ip.parse().unwrap());
        forwarded.insert("x-real-ip", client_ip.parse().unwrap());
        let ids = function.invocation();
        forwarded.insert("x-vercel-internal-invocation-id", ids.0.parse().unwrap());
        forwarded.insert("x-vercel-internal-request-id", ids.1.to_string().parse().unwrap());
        let method = reqwest::Method::from_bytes(method.as_bytes()).map_err(|e| e.to_string())?;
        let answer = self
            .client
            .request(method, format!("http://127.0.0.1:{}{path_and_query}", function.port))
            .headers(forwarded)
            .body(body)
            .send()
            .await
            .map_err(|e| format!("function {name} did not answer {path_and_query}: {e}"))?;
        let response = relayed(answer).await.map_err(|e| format!("function {name}'s answer: {e}"))?;
        // The platform counts the invocation done on its `end` message.
        let edge = self.clone();
        let name = name.to_owned();
        tokio::task::spawn_blocking(move || edge.functions[&name].ended(&ids)).await.map_err(|e| e.to_string())??;
        Ok(response)
    }
}
