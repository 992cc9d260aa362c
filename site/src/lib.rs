//! Tabula's web app: a Leptos client-side app compiled to WASM, one bundle per game plus a home
//! bundle (see `route.rs`). It shares `tabula-core` with the server to show legal moves and play
//! local games; online, the server's answer always wins. Natively, the same components render each
//! page's first HTML at build time (`prerender`).

// Each bundle compiles a part of the site (Cargo.toml's features); what one part leaves unused,
// another uses. Native builds have every feature and warn as usual.
#![cfg_attr(
    not(all(feature = "home-pages", feature = "game-page", feature = "local-screen", feature = "room-screen")),
    allow(dead_code, unused_imports, unused_variables)
)]

mod api;
mod app;
mod browser;
mod catalogue;
pub mod games;
mod i18n;
mod pages;
#[cfg(not(target_arch = "wasm32"))]
mod pictures;
mod play;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
mod route;
mod storage;
#[cfg(feature = "ai-worker")]
mod worker;

pub use route::Route;

/// A short room code that reads well aloud: no 0/o, 1/l/i look-alikes.
pub fn room_code(random: u64) -> String {
    const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
    let mut value = random;
    (0..6)
        .map(|_| {
            let digit = ALPHABET[(value % ALPHABET.len() as u64) as usize] as char;
            value /= ALPHABET.len() as u64;
            digit
        })
        .collect()
}

/// The game whose screens this bundle carries; `None` in the home bundle.
pub fn bundle_game() -> Option<catalogue::Slug> {
    catalogue::Slug::ALL.into_iter().find(|slug| slug.screens_built())
}

// The worker bundle starts nothing: its page side calls `worker::answer`.
#[cfg(all(target_arch = "wasm32", not(feature = "ai-worker")))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    use leptos::prelude::*;
    // A panic ends in a WebAssembly trap; the page's start script shows the crash notice, and the
    // console says what went wrong and where.
    std::panic::set_hook(Box::new(|info| web_sys::console::error_1(&info.to_string().into())));
    // The pre-rendered page is replaced by the live one, laid out the same.
    if let Some(body) = browser::document().and_then(|d| d.body()) {
        body.set_inner_html("");
    }
    let route = Route::parse(&browser::path());
    mount_to_body(move || view! { <app::App route=route bundle=bundle_game() /> });
    // Tests (and curious people) can tell the live page from the pre-rendered one.
    if let Some(root) = browser::document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-app", "live");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_codes_are_short_and_unambiguous() {
        let codes: Vec<String> = (0..50u64).map(|n| room_code(n.wrapping_mul(0x9E37_79B9_7F4A_7C15))).collect();
        for code in &codes {
            assert_eq!(code.len(), 6);
            assert!(!code.contains(['0', 'o', '1', 'l', 'i']), "{code}");
        }
        let distinct: std::collections::BTreeSet<_> = codes.iter().collect();
        assert_eq!(distinct.len(), codes.len());
    }
}
