//! `TABULA_FAIRY_VARIANTS` names a file of the built-in fairy variants already compiled
//! (`Variant::to_compiled`, written by `cargo xtask build-site`): a build given it reads that instead of
//! the JSON model, so the web app carries neither the model's reader nor its compiler.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(compiled_variants)");
    println!("cargo:rerun-if-env-changed=TABULA_FAIRY_VARIANTS");
    if std::env::var_os("TABULA_FAIRY_VARIANTS").is_some() {
        println!("cargo:rustc-cfg=compiled_variants");
    }
}
