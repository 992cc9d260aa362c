//! What a review with the computer says of each move, as game records keep it (SGF comments and
//! move marks, PGN evaluations and glyphs): the first player's chance after the move, its mark,
//! and the move the computer preferred. The review itself is `ai::review`; records only write this.

use serde::{Deserialize, Serialize};

/// How much a move lowered its side's chance of winning (thresholds per game in `ai::review`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark as a word, as `tabula review` writes it.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// PGN's numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??), as lichess exports them.
    pub fn nag(self) -> u8 {
        match self {
            Mark::Inaccuracy => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }
}

/// One reviewed move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotation {
    /// The first player's chance of winning after the move, 0 to 1.
    pub first_chance: f32,
    pub mark: Option<Mark>,
    /// The move the computer preferred, written as the record writes moves (marked moves only).
    pub better: Option<String>,
}

impl Annotation {
    /// The chance as a whole percentage (records are read by people; no float formatting, which
    /// the site's bundles do not carry).
    pub fn percent(&self) -> u32 {
        (self.first_chance.clamp(0.0, 1.0) * 100.0).round() as u32
    }

    /// The chance as a chess engine's evaluation in centipawns from White's side: the inverse of
    /// lichess's winning-chance curve, `chance = 1 / (1 + e^(-0.00368208 cp))`, at most about
    /// ±19 pawns (a chance of 0.1% or 99.9%).
    pub fn centipawns(&self) -> i32 {
        let chance = f64::from(self.first_chance).clamp(0.001, 0.999);
        (natural_log(chance / (1.0 - chance)) / 0.003_682_08).round() as i32
    }
}

/// `ln(x)` for `x > 0` from exact arithmetic only, so every target writes the same record (the
/// standard library's `ln` may differ in the last bits between platforms): `x = m 2^e` with `m` in
/// [1, 2), and `ln(m) = 2 atanh((m - 1) / (m + 1))` by its series, whose ratio is at most 1/3.
fn natural_log(x: f64) -> f64 {
    let (mut m, mut e) = (x, 0);
    while m >= 2.0 {
        m /= 2.0;
        e += 1;
    }
    while m < 1.0 {
        m *= 2.0;
        e -= 1;
    }
    let z = (m - 1.0) / (m + 1.0);
    let (mut power, mut sum) = (z, 0.0);
    for k in 0..20 {
        sum += power / f64::from(2 * k + 1);
        power *= z * z;
    }
    f64::from(e) * std::f64::consts::LN_2 + 2.0 * sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centipawns_follow_lichess_curve() {
        let at = |first_chance| Annotation { first_chance, ..Annotation::default() }.centipawns();
        assert_eq!(at(0.5), 0);
        // lichess: +100 centipawns is a winning chance of about 59%, -300 about 25%.
        assert!((at(0.5916) - 100).abs() <= 1, "{}", at(0.5916));
        assert!((at(0.2491) + 300).abs() <= 2, "{}", at(0.2491));
        assert_eq!(at(1.0), -at(0.0));
        assert!(at(1.0) > 1800 && at(1.0) < 1900, "{}", at(1.0));
    }

    #[test]
    fn the_exact_logarithm_agrees_with_the_standard_one() {
        for x in [0.001_001, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 999.0, 1e6] {
            assert!((natural_log(x) - x.ln()).abs() < 1e-12, "{x}: {} against {}", natural_log(x), x.ln());
        }
    }
}
