//! Every page's first load against its budget: its HTML, its start script and the JS and WASM
//! that starts, gzipped. Each page's figure and headroom are printed (a room page's once for each
//! game's room bundle); a page over its budget fails the build.

use std::collections::BTreeMap;

use anyhow::{bail, Result};

use super::compress::gzipped_size;
use super::{Bundle, Page};

/// The first load's goals (issue 46): the home, a room page, any other page.
const HOME_BUDGET: usize = 120_000;
const ROOM_BUDGET: usize = 220_000;
const PAGE_BUDGET: usize = 200_000;

#[derive(Default)]
pub struct Report {
    lines: Vec<String>,
    over: Vec<String>,
}

impl Report {
    /// Counts `page`, whose HTML is `html` and start script `start`. A room page loads the room
    /// bundle of its game: it counts once for each.
    pub fn page(&mut self, page: &Page, html: &str, start: &[u8], bundles: &BTreeMap<String, Bundle>) -> Result<()> {
        let page_only = gzipped_size(html.as_bytes())? + gzipped_size(start)?;
        if page.bundle != "loader" {
            let bundle = bundles.get(&page.bundle).map_or(0, |bundle| bundle.gzipped);
            let budget = if page.path == "/" { HOME_BUDGET } else { PAGE_BUDGET };
            self.count(&page.path, &page.bundle, page_only + bundle, budget);
            return Ok(());
        }
        for (name, bundle) in bundles.iter().filter(|(name, _)| name.ends_with("-room")) {
            self.count(&format!("{} {name}", page.path), name, page_only + bundle.gzipped, ROOM_BUDGET);
        }
        Ok(())
    }

    fn count(&mut self, page: &str, bundle: &str, total: usize, budget: usize) {
        let headroom = budget as i64 - total as i64;
        self.lines.push(format!(
            "  {page:<22} {bundle:<12} {total:>7} bytes gzipped, budget {budget}, headroom {headroom:>6}"
        ));
        if total > budget {
            self.over.push(format!("{page} ({total} > {budget})"));
        }
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
