//! Tabula's web app: a Leptos client-side app compiled to WASM. It shares `tabula-core` with the
//! server to show legal moves and play local games; online, the server's answer always wins.

use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

#[component]
fn App() -> impl IntoView {
    let game = tabula_core::GameKind::Popucom.new_game(&serde_json::Value::Null).expect("default config");
    view! { <main><h1>"Tabula"</h1><p>{game.legal_moves().len()}</p></main> }
}

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    mount_to_body(App);
}
