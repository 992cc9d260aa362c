//! The security headers on every answer of `tabula serve` (pages, assets, the API, errors): those of
//! `vercel.json`'s rule for every path (`/(.*)`), so the local server and the deployment send the
//! same. Two differences, both from where this server runs: no `Strict-Transport-Security` (it
//! speaks plain HTTP), and a Supabase Realtime configured outside `*.supabase.co` (a stand-in on
//! this machine) is added to the policy's `connect-src`, since the pages open its websocket.

use anyhow::{bail, Context, Result};
use axum::http::{HeaderName, HeaderValue};

const VERCEL_JSON: &str = include_str!("../../vercel.json");

/// Kept out of a plain-HTTP server's answers.
const DEPLOYED_ONLY: &str = "strict-transport-security";

pub type Headers = Vec<(HeaderName, HeaderValue)>;

/// The headers, for pages that open Realtime's websocket at `realtime_socket` (if any).
pub fn security_headers(realtime_socket: Option<&str>) -> Result<Headers> {
    let config: serde_json::Value = serde_json::from_str(VERCEL_JSON).context("vercel.json")?;
    let rules = config["headers"].as_array().context("vercel.json has no headers")?;
    let Some(rule) = rules.iter().find(|rule| rule["source"] == "/(.*)") else {
        bail!("vercel.json has no headers rule for every path (\"/(.*)\")");
    };
    let mut headers = Headers::new();
    for header in rule["headers"].as_array().into_iter().flatten() {
        let (Some(key), Some(value)) = (header["key"].as_str(), header["value"].as_str()) else {
            bail!("a header of vercel.json without key or value: {header}");
        };
        let name = HeaderName::try_from(key)?;
        if name == DEPLOYED_ONLY {
            continue;
        }
        let value = match (name.as_str(), realtime_socket.and_then(origin)) {
            ("content-security-policy", Some(socket)) => with_connect_source(value, &socket),
            _ => value.to_owned(),
        };
        headers.push((name, HeaderValue::try_from(value)?));
    }
    Ok(headers)
}

/// `ws://host:port` of `ws://host:port/realtime/v1/websocket`.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split('/').next().filter(|host| !host.is_empty())?;
    Some(format!("{scheme}://{host}"))
}

/// The policy with `source` in its `connect-src`, unless a source there already covers it.
fn with_connect_source(policy: &str, source: &str) -> String {
    let directives = policy.split(';').map(str::trim).map(|directive| match directive.strip_prefix("connect-src ") {
        Some(sources) if !sources.split(' ').any(|known| covers(known, source)) => format!("{directive} {source}"),
        _ => directive.to_owned(),
    });
    directives.collect::<Vec<_>>().join("; ")
}

/// Whether a CSP source such as `wss://*.supabase.co` covers the origin `wss://x.supabase.co`.
fn covers(known: &str, origin: &str) -> bool {
    match known.split_once("://*.") {
        Some((scheme, domain)) => {
            origin.strip_prefix(&format!("{scheme}://")).is_some_and(|host| host.ends_with(&format!(".{domain}")))
        }
        None => known == origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(headers: &Headers) -> String {
        let found = headers.iter().find(|(name, _)| name == "content-security-policy");
        found.expect("a Content-Security-Policy").1.to_str().unwrap().to_owned()
    }

    #[test]
    fn the_local_server_sends_vercel_json_s_headers_but_hsts() {
        let headers = security_headers(None).unwrap();
        let names: Vec<&str> = headers.iter().map(|(name, _)| name.as_str()).collect();
        for wanted in ["content-security-policy", "x-content-type-options", "referrer-policy", "permissions-policy"] {
            assert!(names.contains(&wanted), "{wanted} in {names:?}");
        }
        assert!(!names.contains(&DEPLOYED_ONLY), "{names:?}");
        let policy = policy(&headers);
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval';"), "no inline script: {policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    }

    #[test]
    fn a_realtime_elsewhere_is_added_to_connect_src_and_supabase_s_is_not_repeated() {
        let local = policy(&security_headers(Some("ws://127.0.0.1:4100/realtime/v1/websocket")).unwrap());
        assert!(local.contains("connect-src 'self' wss://*.supabase.co ws://127.0.0.1:4100;"), "{local}");
        let hosted = policy(&security_headers(Some("wss://abc.supabase.co/realtime/v1/websocket")).unwrap());
        assert_eq!(hosted, policy(&security_headers(None).unwrap()));
        assert!(!covers("wss://*.supabase.co", "wss://supabase.co.evil.example"));
        assert!(!covers("wss://*.supabase.co", "ws://abc.supabase.co"));
    }
}
