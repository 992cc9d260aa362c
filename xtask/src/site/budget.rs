//! Every page's first load against its budget: its HTML, its start script and the JS and WASM
//! that starts, gzipped. Each page's figure and headroom are printed; a page over its budget fails
//! the build.

use std::collections::BTreeMap;

use anyhow::{bail, Result};

use super::compress::gzipped_size;
use super::{Bundle, Page};

/// A page's first load must stay under this; the home, which carries no game engine, under the
/// smaller one.
const PAGE_BUDGET: usize = 250_000;
const HOME_BUDGET: usize = 120_000;

#[derive(Default)]
pub struct Report {
    lines: Vec<String>,
    over: Vec<String>,
}

impl Report {
    /// Counts `page`, whose HTML is `html` and start script `start`. A room page loads the room
    /// bundle of its game: the largest counts.
    pub fn page(&mut self, page: &Page, html: &str, start: &[u8], bundles: &BTreeMap<String, Bundle>) -> Result<()> {
        let bundle = match bundles.get(&page.bundle) {
            Some(bundle) => bundle.gzipped,
            None => bundles.iter().filter(|(n, _)| n.ends_with("-room")).map(|(_, b)| b.gzipped).max().unwrap_or(0),
        };
        let total = gzipped_size(html.as_bytes())? + gzipped_size(start)? + bundle;
        let budget = if page.path == "/" { HOME_BUDGET } else { PAGE_BUDGET };
        let headroom = budget as i64 - total as i64;
        self.lines.push(format!(
            "  {:<16} {:<12} {total:>7} bytes gzipped, budget {budget}, headroom {headroom:>6}",
            page.path, page.bundle
        ));
        if total > budget {
            self.over.push(format!("{} ({total} > {budget})", page.path));
        }
        Ok(())
    }

    /// Each bundle's own size, after the pages.
    pub fn bundles(&mut self, bundles: &BTreeMap<String, Bundle>) {
        for (name, bundle) in bundles {
            self.lines.push(format!("  bundle {name:<13} {:>7} bytes gzipped (JS and WASM)", bundle.gzipped));
        }
    }

    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    /// Fails when a page is over its budget.
    pub fn check(&self) -> Result<()> {
        if !self.over.is_empty() {
            bail!("over budget: {}", self.over.join(", "));
        }
        Ok(())
    }
}
