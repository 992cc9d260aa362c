//! Headless Chromium through chromedriver (Debian's `chromium` and `chromium-driver`) on a free
//! loopback port, stopped when dropped, and where the built site is.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use crate::common::{free_port, wait_for_port};

pub const HINT: &str = "`cargo xtask test` builds the site and installs chromium and chromium-driver";

pub fn site_dist() -> PathBuf {
    let dist = std::env::var_os("TABULA_SITE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../site/dist"));
    assert!(dist.join("index.html").is_file(), "the site is not built at {}; {HINT}", dist.display());
    dist
}

/// One chromedriver; each `browser()` is a separate Chromium profile (a separate player).
pub struct Driver {
    process: Child,
    url: String,
    /// The browsers' profile folders, removed with the driver (a day of test runs left over a
    /// thousand of them, 3 MB each, in the temporary folder).
    profiles: std::sync::Mutex<Vec<PathBuf>>,
}

/// Ends chromedriver and every browser it started. Killing chromedriver alone left its browsers
/// running whenever a test ended without closing them (a failed assertion): dozens piled up over
/// a day of test runs, taking memory and the CPU the timing tests measure with. (They stay in the
/// test's process group, so Ctrl-C still reaches them too.)
impl Drop for Driver {
    fn drop(&mut self) {
        for pid in process_tree(self.process.id()) {
            // SAFETY: kill(2) only sends a signal; the pids were read from /proc just now.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        }
        let _ = self.process.wait();
        for profile in self.profiles.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
            let _ = std::fs::remove_dir_all(profile);
        }
    }
}

/// `root` and every process below it, from the parent links in /proc (Linux).
fn process_tree(root: u32) -> Vec<u32> {
    let links: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // "pid (command) state ppid ...": the command may hold spaces and parentheses.
            let parent = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, parent))
        })
        .collect();
    let mut tree = vec![root];
    let mut next = 0;
    while let Some(&parent) = tree.get(next) {
        tree.extend(links.iter().filter(|link| link.1 == parent).map(|link| link.0));
        next += 1;
    }
    tree
}

impl Driver {
    pub fn start() -> Driver {
        Driver::start_with_env(&[])
    }

    /// With variables for chromedriver and the browsers it starts (which inherit its environment).
    pub fn start_with_env(env: &[(&str, &str)]) -> Driver {
        let port = free_port();
        let driver = std::env::var_os("TABULA_CHROMEDRIVER").unwrap_or_else(|| "chromedriver".into());
        let process = Command::new(&driver)
            .arg(format!("--port={port}"))
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {driver:?}: {e}; {HINT}"));
        // Made before the wait, so a chromedriver that never listens is still ended.
        let started = Driver { process, url: format!("http://127.0.0.1:{port}"), profiles: Default::default() };
        wait_for_port(port, "chromedriver");
        started
    }

    /// A new browser with a phone-sized window (375x667) and English preferred.
    pub async fn browser(&self) -> Client {
        let profile = std::env::temp_dir().join(format!("tabula-chrome-{:x}", rand::random::<u64>()));
        self.profiles.lock().unwrap_or_else(|e| e.into_inner()).push(profile.clone());
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
        // Every page notes what the security policy refuses (`wait_until` asserts nothing is).
        cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({"source": REFUSALS})).await;
        client
    }
}

/// Runs JavaScript and returns its value.
pub async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Run in every document before its own scripts: collects the Content-Security-Policy's refusals
/// (`securitypolicyviolation` events) in `window.tabulaRefused`.
const REFUSALS: &str = "window.tabulaRefused = []; document.addEventListener('securitypolicyviolation', \
    (e) => window.tabulaRefused.push(e.violatedDirective + ' ' + e.blockedURI));";

/// Waits (up to `seconds`) until `script` returns true. Fails at once if the app panicked (it
/// marks `<html data-panic>`) or the page's security policy refused anything.
pub async fn wait_until(client: &Client, script: &str, seconds: u64, what: &str) {
    let start = Instant::now();
    loop {
        let health = "return [document.documentElement.dataset.panic === '1', (window.tabulaRefused || []).join('; ')]";
        let health = js(client, health).await;
        assert_eq!(health[0], Value::Bool(false), "the app panicked while waiting for {what}");
        assert_eq!(health[1], "", "the security policy refused something while waiting for {what}");
        if js(client, script).await == Value::Bool(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(seconds), "timed out after {seconds} s waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits (10 s at most) until `read` gives `want`, then asserts it: what a page shows settles after
/// polls and animations.
pub async fn settles_to<T, F, Fut>(read: F, want: &T, what: &str)
where
    T: PartialEq + std::fmt::Debug,
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = T>,
{
    for _ in 0..100 {
        if read().await == *want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(read().await, *want, "{what}");
}

/// Waits until the app has replaced the pre-rendered page (it marks `<html data-app="live">`).
pub async fn wait_for_app(client: &Client) {
    wait_until(client, "return document.documentElement.dataset.app === 'live'", 15, "the app to start").await;
}

/// Clicks the element `css` finds. One found in the pre-rendered page can be replaced by the live
/// page's before the click lands (a "stale element reference"): it is found again.
pub async fn click(client: &Client, css: &str) {
    for attempt in 0..4 {
        let element = client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        // Some buttons are there but hidden until they apply (rooms): a player clicks them once shown.
        for _ in 0..100 {
            if element.is_displayed().await.unwrap_or(true) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        match element.click().await {
            Ok(_) => return,
            Err(e) if attempt < 3 && e.to_string().contains("stale element") => continue,
            Err(e) => panic!("clicking {css}: {e}"),
        }
    }
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
    let value = js(client, "return [...document.querySelectorAll('.board .cell')].map(c => c.className.replace(/ (popped|painted|playable|last|ghost|ghost-1|ghost-2)(?= |$)/g, ''))").await;
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

/// A Chrome DevTools Protocol command through chromedriver (`goog/cdp/execute`): device emulation
/// WebDriver itself has no command for (touch, vision deficiencies).
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({"cmd": self.cmd, "params": self.params}).to_string()))
    }
}

pub async fn cdp(client: &Client, cmd: &'static str, params: Value) {
    client.issue_cmd(Cdp { cmd, params }).await.unwrap_or_else(|e| panic!("{cmd}: {e}"));
}

/// The same, answering the command's result or its refusal.
pub async fn try_cdp(client: &Client, cmd: &'static str, params: Value) -> Result<Value, String> {
    client.issue_cmd(Cdp { cmd, params }).await.map_err(|e| e.to_string())
}

/// Drags from one point of the page to another through the browser's own input (DevTools), by
/// mouse or by touch, in six steps.
pub async fn drag_between(client: &Client, from: (f64, f64), to: (f64, f64), touch: bool) {
    let path: Vec<(f64, f64)> = (0..=6)
        .map(|i| (from.0 + (to.0 - from.0) * i as f64 / 6.0, from.1 + (to.1 - from.1) * i as f64 / 6.0))
        .collect();
    if touch {
        let at = |(x, y): (f64, f64)| json!([{ "x": x, "y": y }]);
        cdp(client, "Input.dispatchTouchEvent", json!({"type": "touchStart", "touchPoints": at(path[0])})).await;
        for &p in &path[1..] {
            cdp(client, "Input.dispatchTouchEvent", json!({"type": "touchMove", "touchPoints": at(p)})).await;
        }
        cdp(client, "Input.dispatchTouchEvent", json!({"type": "touchEnd", "touchPoints": []})).await;
    } else {
        let mouse = |kind: &str, (x, y): (f64, f64), buttons: u8| json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1});
        cdp(client, "Input.dispatchMouseEvent", mouse("mousePressed", path[0], 1)).await;
        for &p in &path[1..] {
            cdp(client, "Input.dispatchMouseEvent", mouse("mouseMoved", p, 1)).await;
        }
        cdp(client, "Input.dispatchMouseEvent", mouse("mouseReleased", path[6], 0)).await;
    }
}

/// Types `text` into the board's move field and plays it.
pub async fn type_move(client: &Client, text: &str) {
    let script = format!(
        "const i = document.getElementById('type-move'); i.value = {text:?}; i.dispatchEvent(new Event('input', {{bubbles: true}})); return i.value"
    );
    assert_eq!(js(client, &script).await, Value::from(text));
    click(client, "#type-move-play").await;
}

/// Catches what the page offers as a download: `window.__downloads` collects `[file name, text]`.
/// The file's blob is read where the page makes its URL (the security policy lets no script fetch
/// a `blob:` URL; the browser's own download of it is no fetch).
pub async fn capture_downloads(client: &Client) {
    js(
        client,
        "window.__downloads = []; const blobs = {}; const make = URL.createObjectURL; \
        URL.createObjectURL = (blob) => { const url = make(blob); blobs[url] = blob; return url; }; \
        HTMLAnchorElement.prototype.click = function () { \
            blobs[this.href].text().then(t => window.__downloads.push([this.download, t])); }; return true",
    )
    .await;
}

/// Hands a file to the page's file input `input` as if the player had picked it.
pub async fn open_file(client: &Client, input: &str, name: &str, content: &str) {
    let script = format!(
        "const input = document.getElementById({input:?}); const files = new DataTransfer(); \
         files.items.add(new File([{content:?}], {name:?})); input.files = files.files; \
         input.dispatchEvent(new Event('change', {{ bubbles: true }})); return true"
    );
    js(client, &script).await;
}
