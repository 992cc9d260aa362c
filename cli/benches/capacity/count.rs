//! The counts: the pages' own (requests by kind and status, bytes, Realtime messages), what the
//! API asked of PostgREST (through a counting proxy), and what the services say they did: Redis's
//! `INFO commandstats`, PostgreSQL's table statistics, the server process's CPU time.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub struct Counts(Mutex<BTreeMap<String, u64>>);

impl Counts {
    pub fn add(&self, what: &str, n: u64) {
        *self.0.lock().unwrap().entry(what.to_owned()).or_default() += n;
    }

    pub fn snapshot(&self) -> BTreeMap<String, u64> {
        self.0.lock().unwrap().clone()
    }
}

/// Calls per command since Redis started, from `INFO commandstats` (less the `INFO` calls).
pub fn redis_commands(url: &str) -> BTreeMap<String, u64> {
    let address = url.trim_start_matches("redis://");
    let mut stream = TcpStream::connect(address).expect("Redis answers");
    stream.write_all(b"*2\r\n$4\r\nINFO\r\n$12\r\ncommandstats\r\n").unwrap();
    let mut reply = Vec::new();
    let mut buffer = [0u8; 4096];
    // A bulk string: `$<length>\r\n<text>\r\n`.
    loop {
        let n = stream.read(&mut buffer).unwrap();
        assert!(n > 0, "Redis closed the connection");
        reply.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&reply);
        if let Some((head, body)) = text.split_once("\r\n") {
            let length: usize = head.trim_start_matches('$').parse().expect("a bulk reply");
            if body.len() >= length {
                break;
            }
        }
    }
    String::from_utf8_lossy(&reply)
        .lines()
        .filter_map(|line| {
            let (name, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats.split(',').find_map(|s| s.strip_prefix("calls="))?.parse().ok()?;
            (name != "info").then(|| (name.to_owned(), calls))
        })
        .collect()
}

/// A counting proxy in front of PostgREST: requests by method and table, and the bytes of their
/// answers (what Supabase counts as egress), as the API's store sends them.
pub async fn postgrest_proxy(upstream: String, counts: Arc<Counts>) -> String {
    use axum::body::{Body, Bytes};
    use axum::http::{Request, Response};

    let http = reqwest::Client::new();
    let forward = move |request: Request<Body>| {
        let (http, upstream, counts) = (http.clone(), upstream.clone(), counts.clone());
        async move {
            let (parts, body) = request.into_parts();
            let body: Bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
            let path = parts.uri.path_and_query().map_or("/", |p| p.as_str()).to_owned();
            let table = path.trim_start_matches('/').split(['?', '/']).next().unwrap_or_default().to_owned();
            counts.add(&format!("{} /{table}", parts.method), 1);
            let method = reqwest::Method::from_bytes(parts.method.as_str().as_bytes()).unwrap();
            let mut outgoing = http.request(method, format!("{upstream}{path}")).body(body.to_vec());
            for (name, value) in &parts.headers {
                if name != "host" {
                    outgoing = outgoing.header(name.as_str(), value.as_bytes());
                }
            }
            let Ok(reply) = outgoing.send().await else {
                return Response::builder().status(502).body(Body::empty()).unwrap();
            };
            let mut answer = Response::builder().status(reply.status().as_u16());
            for (name, value) in reply.headers() {
                if !matches!(name.as_str(), "content-length" | "transfer-encoding" | "connection") {
                    answer = answer.header(name.as_str(), value.as_bytes());
                }
            }
            let bytes = reply.bytes().await.unwrap_or_default();
            counts.add("answer bytes", bytes.len() as u64);
            answer.body(Body::from(bytes.to_vec())).unwrap()
        }
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, axum::Router::new().fallback(forward)).await.unwrap() });
    url
}

/// CPU time the process has used, user and system, in seconds.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the server's /proc stat");
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')').expect("a stat line").1.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf reads a constant.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    ticks as f64 / per_second
}
