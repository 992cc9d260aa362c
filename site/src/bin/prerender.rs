//! Writes every page's pre-rendered HTML and the list of bundles as JSON on stdout, for
//! `cargo xtask build-site`.

fn main() {
    let manifest = serde_json::json!({
        "bundles": tabula_site::prerender::bundles(),
        "pages": tabula_site::prerender::pages(),
        "site_style": tabula_site::prerender::site_style(),
        "pages_style": tabula_site::prerender::pages_style(),
        "styles": tabula_site::prerender::styles().into_iter().collect::<std::collections::BTreeMap<_, _>>(),
        "pictures": tabula_site::prerender::pictures().into_iter().collect::<std::collections::BTreeMap<_, _>>(),
        "locales": tabula_site::prerender::locales().into_iter().collect::<std::collections::BTreeMap<_, _>>(),
    });
    println!("{manifest}");
}
