//! `tabula triplex levels`: generate Triplex levels, one JSON line each, easiest first; per-size
//! counts and the time taken go to stderr.

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use tabula_core::triplex::{levels_of, sort_easiest_first, Board, Sizes};

/// `WxH`, for `--size`.
pub fn parse_size(text: &str) -> Result<Board, String> {
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(|| format!("expected WxH, like 6x5, not {text:?}"))?;
    let number = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("{s:?} is not a number"));
    let (w, h) = (number(w)?, number(h)?);
    if w < h || h < 2 || w.checked_mul(h).is_none_or(|area| area > 64) {
        return Err(format!("{w}x{h}: need W >= H >= 2 and W*H <= 64"));
    }
    Ok(Board { w, h })
}

pub fn levels(sizes: Sizes, mut output: impl Write) -> Result<()> {
    if let Sizes::Areas { min, max } = sizes {
        if min > max || max > 64 {
            bail!("need --min-area <= --max-area <= 64");
        }
    }
    let start = Instant::now();
    let mut all = Vec::new();
    for board in sizes.boards() {
        let size_start = Instant::now();
        let levels = levels_of(board);
        eprintln!("{}x{}: {} levels ({:.3} s)", board.w, board.h, levels.len(), size_start.elapsed().as_secs_f64());
        all.extend(levels);
    }
    sort_easiest_first(&mut all);
    for level in &all {
        serde_json::to_writer(&mut output, level).context("writing a level")?;
        output.write_all(b"\n")?;
    }
    output.flush()?;
    eprintln!("{} levels in {:.3} s", all.len(), start.elapsed().as_secs_f64());
    Ok(())
}
