//! The Vercel function runner shared by `api/game.rs` and `api/cron.rs`: the full router behind
//! `vercel_runtime` (which, outside Vercel, serves plain HTTP on 127.0.0.1:$VERCEL_DEV_PORT).
//!
//! One function serves every public API path: `vercel.json` rewrites `/api/lobby` and the others
//! to `/api/game?route=/api/lobby`. Whether Vercel then hands the function the address asked for
//! or the rewrite's destination, the router sees the public path: `route`, where there is one,
//! takes the path's place.

use tower::ServiceBuilder;
use vercel_runtime::axum::VercelLayer;

use crate::config::{state_from_env, Deployment};
use crate::error::ApiError;

pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).try_init();
}

pub async fn run() -> Result<(), vercel_runtime::Error> {
    init_logging();
    // A bad or missing setting is said in the log, and every request gets a JSON 500 with a
    // stable code instead of the platform's page for a function that would not start.
    let router = match state_from_env(&Deployment::Serverless) {
        Ok(state) => crate::routes::function_router(state),
        Err(error) => {
            tracing::error!("{error}");
            axum::Router::new().fallback(|| async { ApiError::Misconfigured })
        }
    };
    let service = ServiceBuilder::new().layer(VercelLayer::new()).map_request(path_from_rewrite).service(router);
    vercel_runtime::run(service).await
}

/// The query parameter a rewrite to the one function names the public path in.
const ROUTE_PARAMETER: &str = "route";

/// The request with the path its `route` parameter names, that parameter taken out of the query.
/// Without one (or with one that is no absolute path) the request is unchanged.
pub fn path_from_rewrite<B>(mut request: axum::http::Request<B>) -> axum::http::Request<B> {
    let Some(query) = request.uri().query() else { return request };
    let mut route = None;
    let mut rest = form_urlencoded::Serializer::new(String::new());
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        if key == ROUTE_PARAMETER && route.is_none() {
            route = Some(value.into_owned());
        } else {
            rest.append_pair(&key, &value);
        }
    }
    let Some(route) = route.filter(|path| path.starts_with('/') && !path.contains(['?', '#'])) else { return request };
    let rest = rest.finish();
    let path_and_query = if rest.is_empty() { route } else { format!("{route}?{rest}") };
    let mut parts = request.uri().clone().into_parts();
    match path_and_query.parse() {
        Ok(parsed) => parts.path_and_query = Some(parsed),
        Err(_) => return request,
    }
    if let Ok(uri) = axum::http::Uri::from_parts(parts) {
        *request.uri_mut() = uri;
    }
    request
}

#[cfg(test)]
mod tests {
    use super::path_from_rewrite;

    fn after(uri: &str) -> String {
        let request = axum::http::Request::builder().uri(uri).body(()).unwrap();
        path_from_rewrite(request).uri().to_string()
    }

    #[test]
    fn a_rewrite_s_route_becomes_the_path() {
        assert_eq!(after("/api/game?route=/api/lobby"), "/api/lobby");
        assert_eq!(after("/api/game?route=%2Fapi%2Ftriplex%2Frecords&level=3"), "/api/triplex/records?level=3");
        assert_eq!(
            after("/api/game?route=/api/card&roomId=Ab-12_x&format=html"),
            "/api/card?roomId=Ab-12_x&format=html"
        );
        // The address asked for, with the destination's query merged in, as Vercel may hand it.
        assert_eq!(after("/api/lobby?game=go&route=/api/lobby"), "/api/lobby?game=go");
    }

    #[test]
    fn other_requests_are_unchanged() {
        assert_eq!(after("/api/game?roomId=abc"), "/api/game?roomId=abc");
        assert_eq!(after("/api/lobby"), "/api/lobby");
        assert_eq!(after("/api/game?route=lobby"), "/api/game?route=lobby");
        assert_eq!(after("/api/game?route=/x%3Fy"), "/api/game?route=/x%3Fy");
    }

    #[test]
    fn vercel_rewrites_crawlers_as_tabula_serve_does() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vercel.json");
        let config: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let rewrites = config["rewrites"].as_array().unwrap();
        let crawler_rule = rewrites
            .iter()
            .position(|rule| rule["source"] == "/room/:code" && rule["has"].is_array())
            .expect("vercel.json rewrites crawlers' /room/:code");
        let plain_rule =
            rewrites.iter().position(|rule| rule["source"] == "/room/:code" && rule["has"].is_null()).unwrap();
        assert!(crawler_rule < plain_rule, "the crawlers' rule comes first");
        let rule = &rewrites[crawler_rule];
        assert_eq!(
            rule["has"],
            serde_json::json!([{"type": "header", "key": "user-agent", "value": crate::card::vercel_agent_pattern()}])
        );
        // The one API function reads the destination as the card page tabula serve rewrites to.
        let destination = rule["destination"].as_str().unwrap().replace(":code", "abc");
        assert!(destination.starts_with("/api/game?"), "{destination}");
        let request = axum::http::Request::builder().uri(destination.as_str()).body(()).unwrap();
        let seen = path_from_rewrite(request).uri().to_string();
        assert_eq!(seen, crate::card::card_page_uri("abc").unwrap().to_string(), "{destination}");
        assert_eq!(crate::card::card_page_uri("abc").unwrap(), "/api/card?roomId=abc&format=html");
    }
}
