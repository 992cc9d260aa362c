//! `tabula serve`: the API and the built site on one port, for playing on one machine or a LAN.
//! Rooms live in a SQLite file unless Supabase is configured (see docs/CONFIGURATION.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use axum::response::Html;
use axum::{Router, ServiceExt};
use tabula_api::config::{state_from_env, Deployment};
use tower::Layer;

pub struct ServeOptions {
    pub host: String,
    pub port: u16,
    pub data: PathBuf,
    pub site: PathBuf,
}

const NOT_BUILT: &str = "<!doctype html><meta charset=utf-8><title>Tabula</title>
<h1>Tabula: the API is running</h1>
<p>The web app is not built yet. Build it and serve both with:</p>
<pre>cargo xtask run</pre>
<p>The API answers at <code>/api/game</code>.</p>";

pub fn run(options: ServeOptions) -> Result<()> {
    tabula_api::function::init_logging();
    // Few blocking threads: the SQLite store serialises on one connection anyway, and with glibc
    // each thread that allocates may get an arena of its own that keeps its freed memory.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(serve(options))
}

/// Threads for blocking work (SQLite calls, reading the site's files).
const BLOCKING_THREADS: usize = 8;

/// How often freed heap memory is handed back to the system.
const TRIM_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// glibc keeps freed memory in its arenas for reuse, so a long-running server's resident memory
/// only ever grows toward its busiest moment; trimming now and then returns the free pages. Other
/// allocators return memory themselves.
fn trim_heap_now_and_then() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    tokio::spawn(async {
        let mut every = tokio::time::interval(TRIM_EVERY);
        loop {
            every.tick().await;
            // SAFETY: malloc_trim only releases free memory; it is safe to call from any thread.
            unsafe { libc::malloc_trim(0) };
        }
    });
}

async fn serve(options: ServeOptions) -> Result<()> {
    let state = state_from_env(&Deployment::Local { data_file: options.data.clone() })?;
    let headers = std::sync::Arc::new(crate::headers::security_headers(state.realtime_socket())?);
    trim_heap_now_and_then();
    let store = if std::env::var_os("SUPABASE_URL").is_some() || std::env::var_os("SUPABASE_REST_URL").is_some() {
        "Supabase (PostgREST)".to_owned()
    } else {
        options.data.display().to_string()
    };
    let index = options.site.join("index.html");
    let site_built = index.is_file();
    let app: Router = if site_built {
        let site = options.site.clone();
        tabula_api::router(state).fallback(move |request| crate::site::serve(site.clone(), request))
    } else {
        tabula_api::router(state).fallback(|| async { Html(NOT_BUILT) })
    };
    let address = format!("{}:{}", options.host, options.port);
    let listener = tokio::net::TcpListener::bind(&address).await.with_context(|| format!("listening on {address}"))?;
    let local = listener.local_addr()?;
    println!(
        "Tabula on http://{local}  (rooms: {store}; site: {})",
        if site_built { options.site.display().to_string() } else { "not built".into() }
    );
    // Link-preview crawlers' `/room/<code>` is rewritten as `vercel.json` does: around the router,
    // since a layer inside it would run after routing.
    let app = Layer::layer(&axum::middleware::from_fn(tabula_api::card::send_link_previews_to_cards), app);
    // Outermost: every answer carries them, the crawlers' cards and the fallback's too.
    let secured = axum::middleware::map_response(move |mut response: axum::response::Response| {
        let headers = headers.clone();
        async move {
            for (name, value) in headers.iter() {
                response.headers_mut().insert(name.clone(), value.clone());
            }
            response
        }
    });
    let app = Layer::layer(&secured, app);
    let app = ServiceExt::<axum::extract::Request>::into_make_service_with_connect_info::<SocketAddr>(app);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
