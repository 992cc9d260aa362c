//! The one door to the browser. Components are also rendered natively, to pre-render each page's
//! HTML at build time (`prerender.rs`), where there is no window: there every call here answers
//! "nothing" instead of calling into JavaScript (which would panic off wasm32).

use wasm_bindgen::JsCast;

/// Code loaded on demand: what a split function (`wasm_split(..., fallible)`, Leptos' splitting
/// without its panic when the module does not arrive) hands back, an async function of the module
/// it loaded. `cargo xtask build-site` splits the bundle there (docs/ARCHITECTURE.md).
pub type OnDemand<Argument, Output> = fn(Argument) -> std::pin::Pin<Box<dyn std::future::Future<Output = Output>>>;

/// The output of a future that is ready at once, as a split function's is natively (where
/// nothing is loaded): the pre-rendered page shows what the live one loads on demand.
#[cfg(not(target_arch = "wasm32"))]
pub fn ready_now<F: std::future::Future>(future: F) -> Option<F::Output> {
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match std::pin::pin!(future).poll(&mut context) {
        std::task::Poll::Ready(output) => Some(output),
        std::task::Poll::Pending => None,
    }
}

#[cfg(target_arch = "wasm32")]
pub fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

#[cfg(not(target_arch = "wasm32"))]
pub fn window() -> Option<web_sys::Window> {
    None
}

pub fn document() -> Option<web_sys::Document> {
    window()?.document()
}

/// The address bar's path, e.g. `/room/abc123`.
pub fn path() -> String {
    window().and_then(|w| w.location().pathname().ok()).unwrap_or_default()
}

/// The query string without its `?`.
pub fn query() -> String {
    window().and_then(|w| w.location().search().ok()).unwrap_or_default().trim_start_matches('?').to_owned()
}

pub fn origin() -> String {
    window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}

/// Replaces this page's address in the history: no new entry, no page load.
pub fn replace_address(url: &str) {
    if let Some(history) = window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// A full page load of `path` (another bundle serves it).
pub fn load_page(path: &str) {
    if let Some(window) = window() {
        let _ = window.location().assign(path);
    }
}

pub fn element_by_id<T: JsCast>(id: &str) -> Option<T> {
    document()?.get_element_by_id(id)?.dyn_into().ok()
}

/// The element an event reached.
pub fn event_element(event: &web_sys::Event) -> Option<web_sys::Element> {
    event.target()?.dyn_into().ok()
}

/// The element whose handler an event runs (the container, for a delegated handler).
pub fn handler_element(event: &web_sys::Event) -> Option<web_sys::Element> {
    event.current_target()?.dyn_into().ok()
}

pub fn focus(id: &str) {
    if let Some(element) = element_by_id::<web_sys::HtmlElement>(id) {
        let _ = element.focus();
    }
}

/// Views written as one piece of HTML replace their elements when they change: when the focus is
/// on one of them (an id starting with `prefix`), it goes to the new element of id `to` (the same
/// id when `None`) once written. Called while the HTML is made, before it is written.
pub fn keep_focus(prefix: &str, to: Option<String>) {
    let Some(focused) = document().and_then(|d| d.active_element()).map(|a| a.id()) else { return };
    if focused.starts_with(prefix) {
        let id = to.unwrap_or(focused);
        leptos::task::spawn_local(async move { focus(&id) });
    }
}

pub fn page_visible() -> bool {
    document().is_none_or(|d| d.visibility_state() == web_sys::VisibilityState::Visible)
}

/// Whether a CSS media query matches (`(pointer: coarse)`, `(prefers-reduced-motion: reduce)`).
pub fn media_matches(query: &str) -> bool {
    window().and_then(|w| w.match_media(query).ok().flatten()).is_some_and(|m| m.matches())
}

pub fn random_u64() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        (js_sys::Math::random() * 2f64.powi(53)) as u64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

thread_local! {
    // The page's own title, and the one that says a move is waiting (while that is so).
    static TITLES: std::cell::RefCell<(String, Option<String>)> = const { std::cell::RefCell::new((String::new(), None)) };
}

/// Sets the page's title and meta description (each page has its own, in the reader's language).
pub fn set_head(title: &str, description: &str) {
    let Some(document) = document() else { return };
    TITLES.with(|t| t.borrow_mut().0 = title.to_owned());
    let waiting = TITLES.with(|t| t.borrow().1.clone());
    document.set_title(waiting.as_deref().unwrap_or(title));
    if let Ok(Some(meta)) = document.query_selector("meta[name=description]") {
        let _ = meta.set_attribute("content", description);
    }
}

/// Puts `text` on the clipboard (best effort: a browser may refuse without a user's gesture).
pub fn copy_text(text: &str) {
    if let Some(window) = window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}

/// Saves `bytes` (or a data URL) as a download named `file`.
pub fn download(file: &str, mime: &str, text: &str) {
    let Some(document) = document() else { return };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    download_url(&document, file, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

pub fn download_url(document: &web_sys::Document, file: &str, url: &str) {
    let Some(anchor) = document.create_element("a").ok().and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return;
    };
    anchor.set_href(url);
    anchor.set_download(file);
    anchor.click();
}

/// Adds a game's stylesheet to the page unless the page already has it (`<style id="css-go">`).
pub fn ensure_style(game: &str, css: &str) {
    let Some(document) = document() else { return };
    let id = format!("css-{game}");
    if document.get_element_by_id(&id).is_some() {
        return;
    }
    if let (Ok(style), Some(head)) = (document.create_element("style"), document.head()) {
        style.set_id(&id);
        style.set_text_content(Some(css));
        let _ = head.append_child(&style);
    }
}

/// The favicon with a red dot: a move is waiting.
const ATTENTION_ICON: &str = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'%3E\
%3Crect width='64' height='64' rx='14' fill='%23141826'/%3E%3Ccircle cx='22' cy='24' r='11' fill='%23ff5470'/%3E\
%3Ccircle cx='42' cy='40' r='11' fill='%233da9fc'/%3E%3Ccircle cx='50' cy='14' r='12' fill='%23ffd166'/%3E%3C/svg%3E";

/// Shows in the tab that a move is waiting (`Some(title)`, with the favicon's dot) or not (`None`).
pub fn set_attention(waiting: Option<String>) {
    let Some(document) = document() else { return };
    let base = TITLES.with(|t| {
        let mut t = t.borrow_mut();
        t.1 = waiting.clone();
        t.0.clone()
    });
    document.set_title(waiting.as_deref().unwrap_or(&base));
    if let Ok(Some(icon)) = document.query_selector("link[rel=icon]") {
        let href = if waiting.is_some() { ATTENTION_ICON } else { "/favicon.svg" };
        let _ = icon.set_attribute("href", href);
    }
}

/// A short two-note chime (Web Audio; no sound file to download).
pub fn chime() {
    let Ok(audio) = web_sys::AudioContext::new() else { return };
    let now = audio.current_time();
    for (i, frequency) in [660.0, 880.0].into_iter().enumerate() {
        let (Ok(tone), Ok(gain)) = (audio.create_oscillator(), audio.create_gain()) else { return };
        tone.frequency().set_value(frequency);
        let start = now + i as f64 * 0.12;
        gain.gain().set_value(0.0);
        let _ = gain.gain().linear_ramp_to_value_at_time(0.2, start + 0.01);
        let _ = gain.gain().linear_ramp_to_value_at_time(0.0, start + 0.11);
        let _ = tone.connect_with_audio_node(&gain).and_then(|_| gain.connect_with_audio_node(&audio.destination()));
        let _ = tone.start_with_when(start);
        let _ = tone.stop_with_when(start + 0.12);
    }
}

/// A browser notification, if the player allowed them.
pub fn notify(title: &str, body: &str) {
    if window().is_none() || web_sys::Notification::permission() != web_sys::NotificationPermission::Granted {
        return;
    }
    let options = web_sys::NotificationOptions::new();
    options.set_body(body);
    options.set_tag("tabula-your-move");
    let _ = web_sys::Notification::new_with_options(title, &options);
}

/// Asks for permission to notify; `done` gets whether it was granted.
pub fn ask_to_notify(done: impl FnOnce(bool) + 'static) {
    if window().is_none() {
        return;
    }
    let Ok(promise) = web_sys::Notification::request_permission() else { return done(false) };
    wasm_bindgen_futures::spawn_local(async move {
        let answer = wasm_bindgen_futures::JsFuture::from(promise).await;
        done(answer.ok().and_then(|a| a.as_string()).as_deref() == Some("granted"));
    });
}

/// Starts the site's `/web-push.js` for a seat of `room` ("notify me when it is my move"): the
/// script, loaded after the first paint, draws its switch in `#push-room` where pushes work, and
/// reads what it needs from its `data-` attributes (`(name, value)` pairs).
pub fn start_web_push(data: &[(&str, &str)]) {
    let Some(document) = document() else { return };
    let (Ok(script), Some(body)) = (document.create_element("script"), document.body()) else { return };
    let _ = script.set_attribute("src", "/web-push.js");
    for (name, value) in data {
        let _ = script.set_attribute(&format!("data-{name}"), value);
    }
    let _ = body.append_child(&script);
}

/// Reads the file a file input was just given (its `change` event) as text and hands it to `take`
/// (None if it cannot be read). The input is emptied, so choosing the same file again reads it again.
#[cfg(feature = "local-screen")]
pub fn read_chosen_file(event: &web_sys::Event, take: impl FnOnce(Option<String>) + 'static) {
    let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
    let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
    input.set_value("");
    leptos::task::spawn_local(async move {
        take(wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string()));
    });
}

/// `text` as HTML text or a quoted attribute's value, for the few views written as HTML strings
/// (fewer bytes in a bundle than the same elements as components).
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
