//! Compiles the Fluent files (`locales/*.ftl`) into sorted tables of `(id, pattern)` at build time,
//! with Fluent's own parser. The WASM build gets English only; the build writes the other tables as
//! JSON files the browser fetches (`prerender.rs`). The site's messages use only text and `{ $variable }`, so the browser
//! needs no Fluent runtime (its parser, plural rules and number formatting weighed about 20 KB of
//! the gzipped first load); anything else in a file fails the build here, naming the message.

use std::fmt::Write as _;
use std::path::Path;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, PatternElement};

const LANGUAGES: [(&str, &str); 3] = [("ZH_CN", "zh-CN"), ("EN", "en"), ("JA", "ja")];

fn compile(tag: &str, source: &str) -> Vec<(String, String)> {
    let resource = fluent_syntax::parser::parse(source)
        .unwrap_or_else(|(_, errors)| panic!("locales/{tag}.ftl does not parse: {errors:?}"));
    let mut messages = Vec::new();
    for entry in resource.body {
        let Entry::Message(message) = entry else { continue };
        let id = message.id.name.to_owned();
        let pattern = message.value.unwrap_or_else(|| panic!("{tag}: message {id} has no value"));
        let mut text = String::new();
        for element in pattern.elements {
            match element {
                PatternElement::TextElement { value } => text.push_str(value),
                PatternElement::Placeable {
                    expression: Expression::Inline(InlineExpression::VariableReference { id: variable }),
                } => {
                    let _ = write!(text, "{{${}}}", variable.name);
                }
                other => panic!("{tag}: message {id} uses {other:?}; the site's messages use only text and variables"),
            }
        }
        messages.push((id, text));
    }
    messages.sort();
    messages
}

fn main() {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("locales");
    let mut out = String::new();
    for (name, tag) in LANGUAGES {
        let path = dir.join(format!("{tag}.ftl"));
        println!("cargo::rerun-if-changed={}", path.display());
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The browser has English built in and fetches the other languages when asked for.
        if tag != "en" {
            let _ = writeln!(out, "#[cfg(not(target_arch = \"wasm32\"))]");
        }
        let _ = writeln!(out, "pub static {name}: &[(&str, &str)] = &[");
        for (id, text) in compile(tag, &source) {
            let _ = writeln!(out, "    ({id:?}, {text:?}),");
        }
        let _ = writeln!(out, "];");
    }
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets it")).join("messages.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
