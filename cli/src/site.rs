//! The built site as `tabula serve` sends it (the same answers `vercel.json` gives on Vercel): each
//! address to its pre-rendered page (`/go` is `go.html`, every `/room/...` is `room.html`, every
//! `/triplex/<number>` is `triplex/level.html`), a real
//! 404 page for anything else, files compressed at build time sent by `Accept-Encoding`, and cache
//! lifetimes: content-hashed assets forever, pages revalidated every time.

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{header, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use tower::ServiceExt;
use tower_http::services::ServeFile;

/// What an address is in the built site.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// A file to send, and whether it is the 404 page (sent with status 404).
    File { path: PathBuf, not_found: bool },
    /// An old or untidy address: go to this one instead.
    Redirect(String),
}

/// Safe path segments only: no `..`, nothing hidden, nothing that is not a plain name.
fn segments(path: &str) -> Option<Vec<&str>> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let plain = |p: &&str| !p.starts_with('.') && p.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    parts.iter().all(plain).then_some(parts)
}

pub fn resolve(site: &Path, path: &str, query: Option<&str>) -> Target {
    let not_found = Target::File { path: site.join("404.html"), not_found: true };
    let with_query = |to: String| match query {
        Some(q) if !q.is_empty() => format!("{to}?{q}"),
        _ => to,
    };
    if path == "/local" {
        return Target::Redirect(with_query("/popucom/local".into()));
    }
    if path.len() > 1 && path.ends_with('/') && !path.starts_with("/room/") {
        return Target::Redirect(with_query(path.trim_end_matches('/').to_owned()));
    }
    let Some(parts) = segments(path) else { return not_found };
    let file = |relative: &str| {
        let path = site.join(relative);
        path.is_file().then_some(Target::File { path, not_found: false })
    };
    let found = match parts.as_slice() {
        [] => file("index.html"),
        ["room", _] => file("room.html"),
        ["triplex", level] if level.bytes().all(|b| b.is_ascii_digit()) => file("triplex/level.html"),
        _ => {
            let joined = parts.join("/");
            // A page is `name.html`; its address has no extension. Pages are not served twice.
            if joined.ends_with(".html") {
                None
            } else {
                file(&format!("{joined}.html")).or_else(|| file(&joined))
            }
        }
    };
    found.unwrap_or(not_found)
}

fn cache_control(path: &Path, site: &Path) -> &'static str {
    let relative = path.strip_prefix(site).unwrap_or(path);
    if relative.starts_with("assets") {
        "public, max-age=31536000, immutable"
    } else if path.extension().is_some_and(|e| e == "html") || relative == Path::new("sw.js") {
        "no-cache"
    } else {
        "public, max-age=3600"
    }
}

/// Answers a request for the site.
pub async fn serve(site: PathBuf, request: Request<Body>) -> Response {
    let uri = request.uri().clone();
    match resolve(&site, uri.path(), uri.query()) {
        Target::Redirect(to) => Redirect::permanent(&to).into_response(),
        Target::File { path, not_found } => {
            let cache = cache_control(&path, &site);
            let service = ServeFile::new(&path).precompressed_br().precompressed_gzip();
            let mut response = match service.oneshot(request).await {
                Ok(response) => response.map(Body::new),
                Err(error) => return (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
            };
            if not_found {
                *response.status_mut() = StatusCode::NOT_FOUND;
            }
            if response.status().is_success() || not_found {
                let headers = response.headers_mut();
                headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
                // The same address is sent brotli, gzip or plain: caches must key on the encoding.
                headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-site-{}", std::process::id()));
        for file in
            ["index.html", "go.html", "go/local.html", "room.html", "404.html", "robots.txt", "assets/go-1.wasm"]
                .into_iter()
                .chain(["triplex.html", "triplex/level.html", "sw.js"])
        {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, file).unwrap();
        }
        dir
    }

    fn file(site: &Path, relative: &str) -> Target {
        Target::File { path: site.join(relative), not_found: false }
    }

    #[test]
    fn addresses_find_their_pages() {
        let site = site();
        let not_found = Target::File { path: site.join("404.html"), not_found: true };
        assert_eq!(resolve(&site, "/", None), file(&site, "index.html"));
        assert_eq!(resolve(&site, "/go", None), file(&site, "go.html"));
        assert_eq!(resolve(&site, "/go/local", Some("size=19")), file(&site, "go/local.html"));
        assert_eq!(resolve(&site, "/room/abc123", None), file(&site, "room.html"));
        assert_eq!(resolve(&site, "/triplex", None), file(&site, "triplex.html"));
        assert_eq!(resolve(&site, "/triplex/37", None), file(&site, "triplex/level.html"));
        assert_eq!(resolve(&site, "/triplex/level", None), file(&site, "triplex/level.html"));
        assert_eq!(resolve(&site, "/robots.txt", None), file(&site, "robots.txt"));
        assert_eq!(resolve(&site, "/assets/go-1.wasm", None), file(&site, "assets/go-1.wasm"));
        assert_eq!(resolve(&site, "/local", Some("x=1")), Target::Redirect("/popucom/local?x=1".into()));
        assert_eq!(resolve(&site, "/go/", None), Target::Redirect("/go".into()));
        for missing in
            ["/nowhere", "/go.html", "/room/a/b", "/../etc/passwd", "/.hidden", "/assets/%2e%2e", "/triplex/x1"]
        {
            assert_eq!(resolve(&site, missing, None), not_found, "{missing}");
        }
        assert_eq!(cache_control(&site.join("assets/go-1.wasm"), &site), "public, max-age=31536000, immutable");
        assert_eq!(cache_control(&site.join("go.html"), &site), "no-cache");
        assert_eq!(cache_control(&site.join("robots.txt"), &site), "public, max-age=3600");
        assert_eq!(cache_control(&site.join("sw.js"), &site), "no-cache", "the service worker updates at once");
    }
}
