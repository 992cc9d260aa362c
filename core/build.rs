//! `TABULA_FAIRY_VARIANTS` names a file of the built-in fairy variants already compiled
//! (`Variant::to_compiled`, written by `cargo xtask build-site`): a build given it reads that instead of
//! the JSON model, so the web app carries neither the model's reader nor its compiler.
//! `TABULA_FAIRY_CHESS` names orthodox chess alone, as compiled text: what a build without the
//! `builtin-variants` feature (the rooms' pages) carries instead of them all.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(compiled_variants)");
    println!("cargo:rerun-if-env-changed=TABULA_FAIRY_VARIANTS");
    println!("cargo:rerun-if-env-changed=TABULA_FAIRY_CHESS");
    if std::env::var_os("TABULA_FAIRY_VARIANTS").is_some() {
        println!("cargo:rustc-cfg=compiled_variants");
    }
}
