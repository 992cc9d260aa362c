//! Tabula's web app. The Leptos single-page app lands here (issue 4); for now the crate only pins
//! the shape of the workspace: the site depends on `tabula-core` and never on the API crate.

pub use tabula_core as rules;
