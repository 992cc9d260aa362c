//! The counts: the pages' own (requests by kind and status, bytes, Realtime messages), and what the
//! services say they did: Redis's `INFO commandstats`, PostgREST's request log, PostgreSQL's table
//! statistics, the server process's CPU time.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::Mutex;

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

/// PostgREST's request logs of this process's PostgREST servers (their scratch folders).
fn postgrest_logs() -> Vec<PathBuf> {
    let prefix = format!("tabula-postgrest-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(&prefix))
        .map(|entry| entry.path().join("postgrest.log"))
        .collect()
}

/// Requests PostgREST logged (at `PGRST_LOG_LEVEL=info` it logs each), by method and table.
pub fn postgrest_requests() -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for log in postgrest_logs() {
        for line in std::fs::read_to_string(log).unwrap_or_default().lines() {
            // `... "PATCH /rooms?room_id=eq.x HTTP/1.1" 200 ...`
            let Some((_, request)) = line.split_once('"') else { continue };
            let mut parts = request.split_whitespace();
            let (Some(method), Some(path)) = (parts.next(), parts.next()) else { continue };
            let table = path.trim_start_matches('/').split(['?', '/']).next().unwrap_or_default();
            *counts.entry(format!("{method} /{table}")).or_default() += 1;
        }
    }
    counts
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
