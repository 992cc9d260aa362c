//! What the browser keeps of Triplex (localStorage): solved levels with their best times, levels
//! opened by a code, each level's unfinished placement, and solves not yet sent to the records
//! (made offline). Progress also travels as a short text code (export / import).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::levels;
use super::placement::Placement;
use crate::storage;

const PROGRESS_KEY: &str = "tabula.triplex.progress";
const PENDING_KEY: &str = "tabula.triplex.pending";

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// Best time in milliseconds of each solved level, by number.
    pub solved: BTreeMap<usize, u64>,
    /// Levels opened by a typed code (their previous level solved somewhere else).
    pub opened: BTreeSet<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelState {
    Locked,
    Open,
    /// Solved, with the best time in milliseconds.
    Solved(u64),
}

impl Progress {
    pub fn load() -> Progress {
        storage::get(PROGRESS_KEY).and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default()
    }

    pub fn save(&self) {
        if let Ok(json) = serde_json::to_string(self) {
            storage::set(PROGRESS_KEY, &json);
        }
    }

    /// Open: the first of its size, opened by a code, or the level before it of its size solved.
    pub fn state(&self, number: usize) -> LevelState {
        if let Some(&ms) = self.solved.get(&number) {
            return LevelState::Solved(ms);
        }
        let after_solved = levels::previous_of(number).is_some_and(|previous| self.solved.contains_key(&previous));
        if levels::opens_its_size(number) || self.opened.contains(&number) || after_solved {
            LevelState::Open
        } else {
            LevelState::Locked
        }
    }

    /// Records a solve; true if it is this level's best time.
    pub fn solve(&mut self, number: usize, ms: u64) -> bool {
        let best = self.solved.get(&number).is_none_or(|&old| ms < old);
        if best {
            self.solved.insert(number, ms);
        }
        best
    }

    /// Opens the level a typed code unlocks: the one after the level whose solution gave it.
    /// `None` for a code of no level, or of the last level of its size (which opens nothing).
    pub fn enter_code(&mut self, typed: &str) -> Option<usize> {
        let next = levels::next_of(levels::solved_by_code(typed)?)?;
        self.opened.insert(next);
        Some(next)
    }

    /// The progress as text: `TX1` then each solved level as `+<level gap>~<seconds>` and each
    /// opened one as `*<level gap>`, numbers in base 36 (about five characters a level). Times are
    /// rounded up to the second, so a code never makes a best time better than it was.
    pub fn export(&self) -> String {
        let mut text = String::from("TX1");
        let mut last = 0;
        for (&number, &ms) in &self.solved {
            text.push_str(&format!("+{}~{}", base36(number - last), base36(ms.div_ceil(1000) as usize)));
            last = number;
        }
        last = 0;
        for &number in &self.opened {
            text.push_str(&format!("*{}", base36(number - last)));
            last = number;
        }
        text
    }

    /// Reads an exported code; `None` if it is not one. Importing merges: best times win.
    pub fn import(text: &str) -> Option<Progress> {
        let body = text.trim().strip_prefix("TX1")?;
        let mut progress = Progress::default();
        let (mut solved_at, mut opened_at) = (0usize, 0usize);
        for item in split_marks(body) {
            if let Some(rest) = item.strip_prefix('+') {
                let (gap, seconds) = rest.split_once('~')?;
                solved_at += from_base36(gap)?;
                let ms = from_base36(seconds)? as u64 * 1000;
                levels::get(solved_at)?;
                progress.solved.insert(solved_at, ms);
            } else if let Some(gap) = item.strip_prefix('*') {
                opened_at += from_base36(gap)?;
                levels::get(opened_at)?;
                progress.opened.insert(opened_at);
            } else if !item.is_empty() {
                return None;
            }
        }
        Some(progress)
    }

    pub fn merge(&mut self, other: Progress) {
        for (number, ms) in other.solved {
            self.solve(number, ms);
        }
        self.opened.extend(other.opened);
    }
}

/// `+1~2*3` split before each mark: `+1~2`, `*3`.
fn split_marks(chunk: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (index, c) in chunk.char_indices() {
        if (c == '+' || c == '*') && index > start {
            parts.push(&chunk[start..index]);
            start = index;
        }
    }
    parts.push(&chunk[start..]);
    parts
}

fn base36(mut n: usize) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

fn from_base36(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 6 {
        return None;
    }
    usize::from_str_radix(&text.to_ascii_lowercase(), 36).ok()
}

/// A level's placement in progress and the time spent on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unfinished {
    pub placement: Placement,
    pub ms: u64,
}

fn unfinished_key(number: usize) -> String {
    format!("tabula.triplex.level.{number}")
}

pub fn unfinished(number: usize) -> Option<Unfinished> {
    serde_json::from_str(&storage::get(&unfinished_key(number))?).ok()
}

pub fn save_unfinished(number: usize, unfinished: &Unfinished) {
    if let Ok(json) = serde_json::to_string(unfinished) {
        storage::set(&unfinished_key(number), &json);
    }
}

pub fn forget_unfinished(number: usize) {
    storage::remove(&unfinished_key(number));
}

/// A solve for the records, kept until the server has it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingSolve {
    pub level: usize,
    pub name: String,
    pub ms: u64,
    pub solution: Vec<Vec<u8>>,
}

pub fn pending() -> Vec<PendingSolve> {
    storage::get(PENDING_KEY).and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default()
}

pub fn save_pending(solves: &[PendingSolve]) {
    match serde_json::to_string(solves) {
        Ok(json) if !solves.is_empty() => storage::set(PENDING_KEY, &json),
        _ => storage::remove(PENDING_KEY),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solving_opens_the_next_level_of_the_size() {
        let (_, small) = &levels::groups()[0];
        let mut progress = Progress::default();
        assert_eq!(progress.state(small[0]), LevelState::Open);
        assert_eq!(progress.state(small[1]), LevelState::Locked);
        assert!(progress.solve(small[0], 9000));
        assert!(!progress.solve(small[0], 9500), "a slower time is not the best");
        assert_eq!(progress.state(small[0]), LevelState::Solved(9000));
        assert_eq!(progress.state(small[1]), LevelState::Open);
    }

    #[test]
    fn a_code_opens_the_level_after_the_one_it_came_from() {
        let (_, group) = levels::groups().iter().find(|(_, n)| n.len() > 3).unwrap();
        let from = tabula_core::triplex::catalog::level(group[1]).unwrap();
        let mut progress = Progress::default();
        assert_eq!(progress.state(group[2]), LevelState::Locked);
        assert_eq!(progress.enter_code(&format!(" {}-{} ", &from.code[..4], &from.code[4..])), Some(group[2]));
        assert_eq!(progress.state(group[2]), LevelState::Open);
        let mut unchanged = Progress::default();
        assert_eq!(unchanged.enter_code("ZZZZ-ZZZZ"), None);
        assert_eq!(unchanged, Progress::default(), "a wrong code changes nothing");
    }

    #[test]
    fn progress_round_trips_through_its_text_code() {
        let mut progress = Progress::default();
        progress.solve(1, 12_000);
        progress.solve(40, 125_000);
        progress.solve(724, 1_000);
        let mut rounded = progress.clone();
        rounded.solve(2, 700);
        let back = Progress::import(&rounded.export()).unwrap();
        assert_eq!(back.solved[&2], 1_000, "a time is rounded up, never made better");
        progress.opened.insert(300);
        progress.opened.insert(302);
        let code = progress.export();
        assert!(code.len() < 40, "short: {code}");
        assert_eq!(Progress::import(&code), Some(progress));
        assert_eq!(Progress::import("TX1+0~5"), None, "there is no level 0");
        assert_eq!(Progress::import("TX1+k5~5"), None, "nor level 725");
        assert_eq!(Progress::import("hello"), None);
        assert_eq!(Progress::import("TX1"), Some(Progress::default()));
    }
}
