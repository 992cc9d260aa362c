//! Float formatting left out of the bundles. The site formats no `f64`, but serde's "invalid type:
//! floating point `1.5`" message (reached from serde_json's type errors) links `<f64 as
//! Display>::fmt` and with it Grisu, Dragon4 and their tables: about 18 KB of WASM, 7 KB gzipped, in
//! every bundle. Formatters are reached through the table of indirect calls, so no optimiser can
//! drop it. Here serde's float writer writes nothing (the message reads "floating point ``") and
//! the float formatter traps, so Binaryen removes everything it called. Code that formats an `f64`
//! in the site would crash the page (the crash notice shows) rather than print wrong text.

use anyhow::{bail, Result};
use walrus::{FunctionId, Module};

/// Serde's writer of the float in a deserialisation error message.
const SERDE_FLOAT_MESSAGE: &str = "<serde_core::de::WithDecimalPoint as core::fmt::Display>::fmt";

fn is_f64_display(name: &str) -> bool {
    name.starts_with("<f64 as core") && name.ends_with("::fmt::Display>::fmt")
}

/// Replaces the body of `id` with `body`.
fn replace_body(module: &mut Module, id: FunctionId, body: impl FnOnce(&mut walrus::InstrSeqBuilder)) {
    let builder = module.funcs.get_mut(id).kind.unwrap_local_mut().builder_mut();
    let entry = builder.func_body_id();
    builder.instr_seq(entry).instrs_mut().clear();
    body(&mut builder.func_body());
}

/// Empties serde's float writer and makes `<f64 as Display>::fmt` trap; false if the module formats
/// no float.
pub fn drop(module: &mut Module) -> Result<bool> {
    if module.funcs.iter().all(|f| f.name.is_none()) {
        bail!("the wasm has no function names (its name section): float formatting cannot be found");
    }
    let find =
        |want: &dyn Fn(&str) -> bool| module.funcs.iter().find(|f| f.name.as_deref().is_some_and(want)).map(|f| f.id());
    let Some(display) = find(&is_f64_display) else { return Ok(false) };
    // Without serde's writer, something else formats floats here: trapping would crash it.
    let Some(serde) = find(&|name| name.starts_with(SERDE_FLOAT_MESSAGE)) else {
        bail!("the wasm formats an f64, but not in serde's message: the float formatter must stay");
    };
    // `fmt::Result::Ok(())`.
    replace_body(module, serde, |body| {
        body.i32_const(0);
    });
    replace_body(module, display, |body| {
        body.unreachable();
    });
    Ok(true)
}

#[cfg(test)]
mod tests {
    use walrus::{FunctionBuilder, ModuleConfig, ValType};

    use super::*;

    /// A module with a float formatter and serde's message writer (each returning 1), and one more
    /// function; none of them named if `names` is false.
    fn module(names: bool) -> (Module, [FunctionId; 3]) {
        let mut module = Module::with_config(ModuleConfig::new());
        let fmt = [ValType::I32, ValType::I32];
        let mut add = |name: &str| {
            let mut builder = FunctionBuilder::new(&mut module.types, &fmt, &[ValType::I32]);
            if names {
                builder.name(name.into());
            }
            builder.func_body().i32_const(1);
            let args = vec![module.locals.add(ValType::I32), module.locals.add(ValType::I32)];
            builder.finish(args, &mut module.funcs)
        };
        let ids = [
            add("<f64 as core[abc]::fmt::Display>::fmt"),
            add(&format!("{SERDE_FLOAT_MESSAGE}::h123")),
            add("<f32 as core[abc]::fmt::Display>::fmt"),
        ];
        (module, ids)
    }

    fn body(module: &Module, id: FunctionId) -> String {
        let func = module.funcs.get(id).kind.unwrap_local();
        format!("{:?}", func.block(func.entry_block()).instrs.iter().map(|(i, _)| i).collect::<Vec<_>>())
    }

    #[test]
    fn the_float_formatter_traps_and_serde_s_float_writer_writes_nothing() {
        let (mut module, [display, serde, other]) = module(true);
        assert!(drop(&mut module).unwrap());
        assert!(body(&module, display).contains("Unreachable"), "{}", body(&module, display));
        assert!(body(&module, serde).contains("I32(0)"), "{}", body(&module, serde));
        assert!(body(&module, other).contains("I32(1)"), "left as it was: {}", body(&module, other));
    }

    #[test]
    fn a_float_formatter_used_elsewhere_than_serde_s_message_stays() {
        let mut module = Module::with_config(ModuleConfig::new());
        let mut builder = FunctionBuilder::new(&mut module.types, &[ValType::I32, ValType::I32], &[ValType::I32]);
        builder.name("<f64 as core[abc]::fmt::Display>::fmt".into()).func_body().i32_const(1);
        let args = vec![module.locals.add(ValType::I32), module.locals.add(ValType::I32)];
        let display = builder.finish(args, &mut module.funcs);
        assert!(drop(&mut module).unwrap_err().to_string().contains("must stay"));
        assert!(body(&module, display).contains("I32(1)"));
    }

    #[test]
    fn a_module_without_names_is_refused() {
        let (mut module, [display, ..]) = module(false);
        assert!(drop(&mut module).unwrap_err().to_string().contains("no function names"));
        assert!(body(&module, display).contains("I32(1)"));
    }
}
