//! The one door to the browser. Components are also rendered natively, to pre-render each page's
//! HTML at build time (`prerender.rs`), where there is no window: there every call here answers
//! "nothing" instead of calling into JavaScript (which would panic off wasm32).

use wasm_bindgen::JsCast;

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

/// A full page load of `path` (another bundle serves it).
pub fn load_page(path: &str) {
    if let Some(window) = window() {
        let _ = window.location().assign(path);
    }
}

pub fn element_by_id<T: JsCast>(id: &str) -> Option<T> {
    document()?.get_element_by_id(id)?.dyn_into().ok()
}

pub fn focus(id: &str) {
    if let Some(element) = element_by_id::<web_sys::HtmlElement>(id) {
        let _ = element.focus();
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

/// Sets the page's title and meta description (each page has its own, in the reader's language).
pub fn set_head(title: &str, description: &str) {
    let Some(document) = document() else { return };
    document.set_title(title);
    if let Ok(Some(meta)) = document.query_selector("meta[name=description]") {
        let _ = meta.set_attribute("content", description);
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
