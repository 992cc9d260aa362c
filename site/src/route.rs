//! The app's three screens and their URLs (`/`, `/local`, `/room/<code>`), kept in the address bar
//! with the History API so share links, reloads and the back button work.

use leptos::prelude::*;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Local,
    Room(String),
}

impl Route {
    pub fn parse(path: &str) -> Route {
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            ["local"] => Route::Local,
            ["room", code] if !code.is_empty() => Route::Room((*code).to_owned()),
            _ => Route::Home,
        }
    }

    pub fn path(&self) -> String {
        match self {
            Route::Home => "/".to_owned(),
            Route::Local => "/local".to_owned(),
            Route::Room(code) => format!("/room/{code}"),
        }
    }
}

/// The current screen, shared through context.
#[derive(Clone, Copy)]
pub struct Router {
    pub route: RwSignal<Route>,
}

impl Router {
    /// Reads the address bar and follows the back and forward buttons.
    pub fn install() -> Router {
        let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
        let router = Router { route: RwSignal::new(Route::parse(&path)) };
        if let Some(window) = web_sys::window() {
            let on_pop = Closure::<dyn Fn()>::new(move || {
                let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
                router.route.set(Route::parse(&path));
            });
            let _ = window.add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
            // The app lives as long as the page: the listener is never removed.
            on_pop.forget();
        }
        router
    }

    pub fn go(&self, route: Route) {
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route.path()));
        }
        self.route.set(route);
        if let Some(window) = web_sys::window() {
            window.scroll_to_with_x_and_y(0.0, 0.0);
        }
    }
}

pub fn use_router() -> Router {
    expect_context::<Router>()
}

/// A link that switches screens without reloading the page (and still works as a plain link).
#[component]
pub fn Link(
    route: Route,
    #[prop(optional)] id: &'static str,
    #[prop(optional)] class: &'static str,
    children: Children,
) -> impl IntoView {
    let router = use_router();
    let href = route.path();
    view! {
        <a href=href id=id class=class on:click=move |event| {
            event.prevent_default();
            router.go(route.clone());
        }>{children()}</a>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip() {
        for route in [Route::Home, Route::Local, Route::Room("abc123".into())] {
            assert_eq!(Route::parse(&route.path()), route);
        }
        assert_eq!(Route::parse("/room/"), Route::Home);
        assert_eq!(Route::parse("/nowhere/else"), Route::Home);
    }
}
