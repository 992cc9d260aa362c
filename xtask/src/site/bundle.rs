//! One WASM bundle of the site: compiled with its features (or taken from the kept copies,
//! `bundle_cache`), its JS glue made by wasm-bindgen used as a library and minified, and the WASM
//! passed through Binaryen.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use sha2::Digest;

use super::compress::gzipped_size;
use super::{bundle_target_dir, hashed, target_dir, Bundle, BundleSpec};
use crate::{bundle_cache, workspace_root};

/// The caller's rustflags (in cargo's encoding: paths may hold spaces) plus the paths rustc writes
/// into panic locations made relative: the bundle does not carry the builder's home directory, is
/// the same whoever builds it, and is smaller. The workspace's own sources are already relative
/// (cargo passes them so); what is left is the registry and generated files in the target
/// directory. No flag names the workspace: a copy of it elsewhere (`cargo xtask vercel-build`)
/// sharing the target directory then finds every bundle built.
fn remapped_rustflags() -> String {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap_or_default();
    let mut flags: Vec<String> = match std::env::var("CARGO_ENCODED_RUSTFLAGS") {
        Ok(encoded) => encoded.split('\x1f').filter(|f| !f.is_empty()).map(str::to_owned).collect(),
        Err(_) => std::env::var("RUSTFLAGS").unwrap_or_default().split_whitespace().map(str::to_owned).collect(),
    };
    // Each registry's sources (`registry/src/index.crates.io-<hash>`) and the target directory, by
    // short names: a panic location is a path string in the bundle.
    let registries = std::fs::read_dir(cargo_home.join("registry/src")).into_iter().flatten().flatten();
    for from in registries.map(|entry| entry.path()) {
        flags.push(format!("--remap-path-prefix={}=c", from.display()));
    }
    let target = std::path::absolute(target_dir()).unwrap_or_else(|_| target_dir());
    flags.push(format!("--remap-path-prefix={}=t", target.display()));
    // What the splitter needs to move code between modules (`split_at_lazy_functions`).
    flags.push("-Clink-arg=--emit-relocs".to_owned());
    flags.join("\x1f")
}

/// The computer players' bundle: loaded by the Web Worker of a game against the computer, never
/// on a page's first load.
pub const AI_BUNDLE: &str = "ai";

/// The `ai` bundle's engine at full speed, the rest of it as every bundle: at opt-level "z" the
/// worker ran POPUCOM playouts at 54% of native speed, with the engine at 3 at 90 to 99%, for 23 KB
/// more gzip (docs/AI.md). A setting of the site's profile rather than a profile of its own, so
/// the bundles share their compiled dependencies (a profile of its own compiled them twice).
const AI_ENGINE: &str = "profile.site-release.package.tabula-core.opt-level=3";

/// Builds one bundle with its features only (the site's default features are everything).
pub fn build_bundle(
    spec: &BundleSpec,
    assets: &Path,
    variants: &[PathBuf; 2],
    pieces: &str,
    wasm_opt: &Path,
    sources: &bundle_cache::Sources,
) -> Result<Bundle> {
    let name = spec.name.as_str();
    let features = spec.features.join(",");
    let profile = "site-release";
    let mut args = vec![
        "build",
        "--package",
        "tabula-site",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        profile,
        "--no-default-features",
    ];
    args.extend(["--features", &features]);
    // The computer players' bundle trades size for the engine's speed (`AI_ENGINE`).
    if name == AI_BUNDLE {
        args.extend(["--config", AI_ENGINE]);
    }
    let rustflags = remapped_rustflags();
    let envs = [
        ("TABULA_FAIRY_VARIANTS", variants[0].as_os_str()),
        ("TABULA_FAIRY_CHESS", variants[1].as_os_str()),
        ("TABULA_PIECES", OsStr::new(pieces)),
    ];
    let arguments = args.join(" ");
    let read_before = bundle_cache::sources_read(name, sources);
    let key = bundle_cache::key(&arguments, &rustflags, &envs, sources, &read_before)?;
    let wasm = match bundle_cache::cached(name, &key) {
        Some(kept) => {
            eprintln!("xtask: bundle {name} built before from the same inputs ({key})");
            kept
        }
        None => {
            eprintln!("xtask: cargo {}", args.join(" "));
            let status = Command::new("cargo")
                .args(&args)
                .envs(envs)
                .env("CARGO_ENCODED_RUSTFLAGS", &rustflags)
                .env_remove("RUSTFLAGS")
                .env("CARGO_TARGET_DIR", bundle_target_dir())
                .current_dir(workspace_root())
                .status()
                .context("could not start cargo")?;
            if !status.success() {
                bail!("cargo {} failed ({status})", args.join(" "));
            }
            let built = bundle_target_dir().join(format!("wasm32-unknown-unknown/{profile}/tabula_site.wasm"));
            // Kept under the sources this build read, as they were when the site build began.
            let read = bundle_cache::read_by_build(&built.with_extension("d"))?;
            let key = bundle_cache::key(&arguments, &rustflags, &envs, sources, &read)?;
            bundle_cache::keep(name, &key, &built, &read)?
        }
    };
    let scratch = target_dir().join(format!("site-bindgen/{name}"));
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch)?;
    }
    let split = split_at_lazy_functions(name, &wasm, &scratch)?;
    let first_load = split.as_ref().map_or(&wasm, |split| &split.main);
    eprintln!("xtask: wasm-bindgen {} ({name})", first_load.display());
    let mut output = wasm_bindgen_cli_support::Bindgen::new()
        .input_path(first_load)
        .web(true)?
        .out_name(name)
        .typescript(false)
        .omit_default_module_path(true)
        // TABULA_WASM_NAMES=1 keeps function names, for profiling (larger files, over budget).
        .remove_name_section(std::env::var_os("TABULA_WASM_NAMES").is_none())
        .remove_producers_section(true)
        .generate_output()
        .context("wasm-bindgen")?;
    crate::float_formatting::drop(output.wasm_mut()).with_context(|| format!("bundle {name}"))?;
    if split.is_some() {
        share_function_table(output.wasm_mut()).with_context(|| format!("bundle {name}"))?;
    }
    // The linker's relocations (`--emit-relocs`), kept by an unsplit bundle: only the splitter reads them.
    let customs = &mut output.wasm_mut().customs;
    let relocations: Vec<_> = customs
        .iter()
        .filter(|(_, section)| section.name() == "linking" || section.name().starts_with("reloc."))
        .map(|(id, _)| id)
        .collect();
    for id in relocations {
        customs.delete(id);
    }
    output.emit(&scratch).context("wasm-bindgen")?;
    let js = minify_js(&std::fs::read_to_string(scratch.join(format!("{name}.js")))?)?;
    let arguments = wasm_opt_arguments();
    let optimise = |input: &Path, output: &Path| optimise_wasm(wasm_opt, &arguments, input, output);
    let settings = format!("{} {}", wasm_opt.display(), arguments.join(" "));
    let optimised = bundle_cache::optimised(name, &scratch.join(format!("{name}_bg.wasm")), &settings, optimise)?;
    let wasm = std::fs::read(&optimised)?;
    let (js_name, wasm_name) = (hashed(name, "js", js.as_bytes()), hashed(name, "wasm", &wasm));
    std::fs::write(assets.join(&js_name), &js)?;
    std::fs::write(assets.join(&wasm_name), &wasm)?;
    let gzipped = gzipped_size(js.as_bytes())? + gzipped_size(&wasm)?;
    let mut bundle = Bundle {
        js: format!("/assets/{js_name}"),
        wasm: format!("/assets/{wasm_name}"),
        gzipped,
        split_loader: None,
        on_demand: Vec::new(),
    };
    if let Some(split) = split {
        let (loader, loader_bytes) = split.write(name, &js_name, assets, optimise, &settings, &mut bundle.on_demand)?;
        // The glue imports the loader as it starts: part of the first load.
        bundle.gzipped += gzipped_size(loader_bytes.as_bytes())?;
        bundle.split_loader = Some(loader);
    }
    Ok(bundle)
}

/// A bundle split at its `#[lazy]` functions: the module of its first load (still to go through
/// wasm-bindgen), the modules loaded on demand, and the script that loads them.
struct Split {
    main: PathBuf,
    chunks: Vec<PathBuf>,
    /// The loader script's file name, which the first-load module imports (chosen before it is
    /// written: it follows the compiled bundle, from which everything else follows).
    loader_name: String,
    loader: String,
}

/// Where the loader script names the first-load module's JS glue, whose file name is known only
/// after the glue is made (it imports the loader).
const GLUE_PLACEHOLDER: &str = "./TABULA_GLUE_JS";

/// Splits `wasm` at its lazy functions (Leptos' `#[lazy]`, wasm_split_cli_support as cargo-leptos
/// uses it): `None` for a bundle without any.
fn split_at_lazy_functions(name: &str, wasm: &Path, scratch: &Path) -> Result<Option<Split>> {
    let input = std::fs::read(wasm)?;
    // The macro's import module, which the splitter replaces by the loader script's name.
    if !input.windows(26).any(|w| w == b"__wasm_split_placeholder__") {
        return Ok(None);
    }
    let folder = scratch.join("split");
    let main = folder.join(format!("{name}.wasm"));
    let loader_name = format!("{name}-lazy-{}.js", crate::bundle_cache::hex(&sha2::Sha256::digest(&input), 4));
    let link = format!("./{loader_name}");
    let mut options = wasm_split_cli_support::Options::new(&input);
    options.output_dir = &folder;
    options.main_out_path = &main;
    options.link_name = &link;
    options.main_module = GLUE_PLACEHOLDER;
    let split = wasm_split_cli_support::transform(options).map_err(|e| anyhow::anyhow!("splitting {name}: {e:?}"))?;
    let loader = std::fs::read_to_string(folder.join(&loader_name))?;
    Ok(Some(Split { main, chunks: split.split_modules, loader_name, loader }))
}

/// The split modules import the first-load module's function table under its linker name, which
/// wasm-bindgen does not export (it exports what its own glue uses): exported again.
fn share_function_table(module: &mut walrus::Module) -> Result<()> {
    const NAME: &str = "__indirect_function_table";
    if module.exports.iter().any(|export| export.name == NAME) {
        return Ok(());
    }
    let table = module.tables.main_function_table()?.context("a split bundle without a function table")?;
    module.exports.add(NAME, table);
    Ok(())
}

impl Split {
    /// Writes the modules loaded on demand (each through Binaryen, content-hashed) into `assets`,
    /// adding their URLs to `on_demand`, then their loader; returns the loader's URL and text.
    fn write(
        self,
        name: &str,
        glue: &str,
        assets: &Path,
        optimise: impl Fn(&Path, &Path) -> Result<()>,
        settings: &str,
        urls: &mut Vec<String>,
    ) -> Result<(String, String)> {
        let mut loader = self.loader.replace(GLUE_PLACEHOLDER, &format!("./{glue}"));
        for chunk in &self.chunks {
            let stem = chunk.file_stem().and_then(OsStr::to_str).context("a split module's name")?;
            let optimised = bundle_cache::optimised(name, chunk, settings, &optimise)?;
            let bytes = std::fs::read(optimised)?;
            let file = hashed(&format!("{name}-{stem}"), "wasm", &bytes);
            std::fs::write(assets.join(&file), &bytes)?;
            loader = loader.replace(&format!("\"./{stem}.wasm\""), &format!("\"./{file}\""));
            urls.push(format!("/assets/{file}"));
        }
        let loader = minify_js(&loader)?;
        std::fs::write(assets.join(&self.loader_name), &loader)?;
        Ok((format!("/assets/{}", self.loader_name), loader))
    }
}

/// Binaryen's `-O1`, duplicate-function and dead-argument elimination, and alignment hints dropped
/// (hints only: WebAssembly allows any alignment; one value for all compresses better): 3% off a
/// bundle's gzip, where `-Os`, `-Oz` and `-O2` make it 7% *larger* (their inlining and function
/// reordering compress worse; measured in `docs/PERFORMANCE.md`). Passes run in the order given.
fn wasm_opt_arguments() -> Vec<&'static str> {
    let mut arguments = vec![
        // What rustc's wasm32 target emits by default.
        "--enable-bulk-memory",
        "--enable-sign-ext",
        "--enable-mutable-globals",
        "--enable-nontrapping-float-to-int",
        "--enable-reference-types",
        "--enable-multivalue",
        // The passes.
        "-O1",
        "--duplicate-function-elimination",
        "--dae-optimizing",
        "--duplicate-function-elimination",
        "--dealign",
    ];
    if std::env::var_os("TABULA_WASM_NAMES").is_some() {
        arguments.push("--debuginfo");
    }
    arguments
}

fn optimise_wasm(wasm_opt: &Path, arguments: &[&str], input: &Path, output: &Path) -> Result<()> {
    let mut command = Command::new(wasm_opt);
    command.args(arguments).arg(input).arg("-o").arg(output);
    let result = command.output().with_context(|| format!("could not run {}", wasm_opt.display()))?;
    if !result.status.success() {
        bail!("wasm-opt {} failed ({}):\n{}", input.display(), result.status, String::from_utf8_lossy(&result.stderr));
    }
    Ok(())
}

/// The JS glue, minified (oxc): whitespace, comments and local names.
pub fn minify_js(source: &str) -> Result<String> {
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, source, oxc_span::SourceType::mjs()).parse();
    if parsed.panicked || parsed.diagnostics.has_errors() {
        let errors: Vec<String> = parsed.diagnostics.errors().map(|e| e.to_string()).collect();
        bail!("the JS glue does not parse: {}", errors.join("; "));
    }
    let mut program = parsed.program;
    let options = oxc_minifier::MinifierOptions::default();
    let minified = oxc_minifier::Minifier::new(options).minify(&allocator, &mut program);
    let codegen = oxc_codegen::Codegen::new()
        .with_options(oxc_codegen::CodegenOptions::minify())
        .with_scoping(minified.scoping)
        .build(&program);
    Ok(codegen.code)
}

#[cfg(test)]
mod tests {
    use super::minify_js;

    #[test]
    fn the_minifier_keeps_the_glue_working() {
        let source = "export function add(first, second) { /* why */ const total = first + second; return total; }";
        let minified = minify_js(source).unwrap();
        assert!(minified.len() < source.len() / 2, "{minified}");
        assert!(minified.contains("export") && minified.contains("add"), "{minified}");
        assert!(minify_js("export function (").is_err());
    }
}
