//! Headless Chromium through chromedriver (Debian's `chromium` and `chromium-driver`), and the real
//! `tabula serve` with the built site, each on a free loopback port, stopped when dropped.

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

pub const HINT: &str = "`cargo xtask test` builds the site and installs chromium and chromium-driver";

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wait_for_port(port: u16, what: &str) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "{what} never listened on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `tabula serve` with the built site and a fresh rooms file.
pub struct Server {
    process: Option<Process>,
    pub base: String,
    port: u16,
    data: PathBuf,
}

pub fn site_dist() -> PathBuf {
    let dist = std::env::var_os("TABULA_SITE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../site/dist"));
    assert!(dist.join("index.html").is_file(), "the site is not built at {}; {HINT}", dist.display());
    dist
}

impl Server {
    pub fn start() -> Server {
        let port = free_port();
        let data = std::env::temp_dir().join(format!("tabula-e2e-{}-{port}.db", std::process::id()));
        let mut server = Server { process: None, base: format!("http://127.0.0.1:{port}"), port, data };
        server.restart();
        server
    }

    /// Stops the server (the page loses its connection); `restart` brings it back on the same port
    /// with the same rooms.
    pub fn stop(&mut self) {
        self.process = None;
    }

    pub fn restart(&mut self) {
        let (port, data) = (self.port, &self.data);
        let child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["serve", "--port", &port.to_string(), "--data"])
            .arg(data)
            .arg("--site")
            .arg(site_dist())
            .env_remove("SUPABASE_URL")
            .env_remove("SUPABASE_REST_URL")
            .env_remove("RATE_LIMIT_PER_MINUTE")
            .stdout(Stdio::null())
            .spawn()
            .expect("tabula serve starts");
        self.process = Some(Process(child));
        wait_for_port(port, "tabula serve");
    }
}

/// One chromedriver; each `browser()` is a separate Chromium profile (a separate player).
pub struct Driver {
    _process: Process,
    url: String,
}

impl Driver {
    pub fn start() -> Driver {
        let port = free_port();
        let driver = std::env::var_os("TABULA_CHROMEDRIVER").unwrap_or_else(|| "chromedriver".into());
        let child = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {driver:?}: {e}; {HINT}"));
        let process = Process(child);
        wait_for_port(port, "chromedriver");
        Driver { _process: process, url: format!("http://127.0.0.1:{port}") }
    }

    /// A new browser with a phone-sized window (375x667) and English preferred.
    pub async fn browser(&self) -> Client {
        let profile = std::env::temp_dir().join(format!("tabula-chrome-{:x}", rand::random::<u64>()));
        let chromium = std::env::var("TABULA_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                    "--no-first-run", "--lang=en-US", "--window-size=375,667",
                    format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .unwrap_or_else(|e| panic!("no browser session: {e}; {HINT}"));
        // The command-line size is not always honoured; WebDriver's is.
        client.set_window_size(375, 667).await.expect("a phone-sized window");
        client
    }
}

/// Runs JavaScript and returns its value.
pub async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Waits (up to `seconds`) until `script` returns true.
pub async fn wait_until(client: &Client, script: &str, seconds: u64, what: &str) {
    let start = Instant::now();
    loop {
        if js(client, script).await == Value::Bool(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(seconds), "timed out after {seconds} s waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn click(client: &Client, css: &str) {
    client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("clicking {css}: {e}"));
}

pub async fn text(client: &Client, css: &str) -> String {
    js(client, &format!("const e = document.querySelector({css:?}); return e ? e.textContent : ''"))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Every cell's classes, row by row: the board as the page shows it.
pub async fn board(client: &Client) -> Vec<String> {
    let value = js(client, "return [...document.querySelectorAll('.board .cell')].map(c => c.className.replace(/ (popped|painted|playable|last)/g, ''))").await;
    serde_json::from_value(value).unwrap()
}

/// Where the tests save screenshots (CI keeps the folder as an artifact).
pub fn artifacts_dir() -> PathBuf {
    let dir = std::env::var_os("TABULA_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/e2e-screenshots"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    let path = artifacts_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
}
