//! A check of the site's stylesheets before they are inlined.

use anyhow::{bail, Result};

/// Each stylesheet is inlined on its own, so each must close every rule it opens: a rule split
/// across two files (as once happened to Go's board) silently drops the rules after it.
pub fn check_css(name: &str, css: &str) -> Result<()> {
    let mut depth = 0i32;
    let mut rest = css;
    while let Some(at) = rest.find(['{', '}', '/']) {
        let (ch, after) = (rest.as_bytes()[at], &rest[at + 1..]);
        rest = match ch {
            b'/' if after.starts_with('*') => match after.find("*/") {
                Some(end) => &after[end + 2..],
                None => bail!("{name}: a comment is never closed"),
            },
            b'{' => {
                depth += 1;
                after
            }
            b'}' => {
                depth -= 1;
                if depth < 0 {
                    bail!(
                        "{name}: a '}}' closes no rule, near {:?}",
                        &css[..css.len() - after.len()].lines().last().unwrap_or("")
                    );
                }
                after
            }
            _ => after,
        };
    }
    if depth != 0 {
        bail!("{name}: {depth} rule(s) never closed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_css;

    #[test]
    fn a_rule_split_across_files_is_caught() {
        assert!(check_css("ok", ".a { color: red; } /* { */ .b { x: y; }").is_ok());
        assert!(check_css("opened", ".go-board { display: grid;\n.b { x: y; }").is_err());
        assert!(check_css("closed", "  background: wood; }\n.c { x: y; }").is_err());
        assert!(check_css("comment", ".a { } /* never closed").is_err());
    }
}
