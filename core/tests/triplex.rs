//! Triplex: the generator against the article's count table, every level's properties, the codes,
//! and the shipped level list.

use std::collections::HashSet;
use std::sync::OnceLock;

use tabula_core::triplex::{
    has_straight_cut, images, levels_of, sort_easiest_first, unlock_code, Board, Level, Puzzle, Sizes, SolutionError,
    Tiling,
};

/// The article's table (shared/rules/triplex.md). 12x3 is left open there ("20+").
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

/// Every level up to area 36, generated once for all tests, easiest first.
fn all_levels() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(|| {
        let mut levels: Vec<Level> =
            Sizes::Areas { min: 1, max: 36 }.boards().into_iter().flat_map(levels_of).collect();
        sort_easiest_first(&mut levels);
        levels
    })
}

fn tiling(level: &Level) -> Tiling {
    Tiling { board: level.board(), pieces: level.pieces.clone(), solution: level.solution.clone() }
}

#[test]
fn every_count_of_the_article_is_reproduced() {
    let levels = all_levels();
    let count = |w: usize, h: usize| levels.iter().filter(|l| (l.w, l.h) == (w, h)).count();
    for ((w, h), expected) in ARTICLE {
        assert_eq!(count(w, h), expected, "{w}x{h}");
    }
    assert!(count(12, 3) >= 20, "the article found 20+ for 12x3");
    assert_eq!(levels.len(), 724, "the game had 724 levels in all");
    let listed: HashSet<(usize, usize)> = ARTICLE.iter().map(|e| e.0).chain([(12, 3)]).collect();
    assert!(levels.iter().all(|l| listed.contains(&(l.w, l.h))), "no level of a size the article has no count for");
}

#[test]
fn every_level_is_unique_cut_free_and_one_per_symmetry_class() {
    let mut seen: HashSet<(Board, Vec<Vec<u8>>)> = HashSet::new();
    for level in all_levels() {
        let label = format!("{}x{} {:?}", level.w, level.h, level.solution);
        assert!(level.pieces.len() >= 3, "{label}: at least 3 pieces");
        assert!(!has_straight_cut(&tiling(level)), "{label}: a straight cut");
        assert_eq!(level.check_solution(&level.solution), Ok(()), "{label}");
        let puzzle = level.puzzle();
        let placements = puzzle.placements();
        assert_eq!(puzzle.solve(&placements, 2).tilings, 1, "{label}: unique with its rotatable piece");
        let fixed = Puzzle { rotatable: None, ..puzzle };
        assert_eq!(fixed.solve(&placements, 2).tilings, 1, "{label}: unique");
        assert_eq!(puzzle.solution().as_ref(), Some(&level.solution), "{label}: the solver finds the solution");
        // No other level of the size is an image of this one (images are normalised tilings).
        for image in images(&tiling(level)) {
            let key = (image.board, image.solution);
            if key.1 == level.solution {
                continue; // a symmetric tiling is its own image
            }
            assert!(!seen.contains(&key), "{label}: an image of another level");
        }
        assert!(seen.insert((level.board(), level.solution.clone())), "{label}: listed twice");
    }
}

#[test]
fn the_rotatable_piece_adds_no_solution_and_is_the_hardest_choice() {
    for level in all_levels().iter().filter(|l| l.rotatable.is_some()) {
        let puzzle = level.puzzle();
        let placements = puzzle.placements();
        let chosen = puzzle.solve(&placements, 2);
        assert_eq!(chosen.nodes, level.difficulty, "difficulty is the effort with the rotatable piece");
        for &shape in &level.pieces {
            let other = Puzzle { rotatable: Some(shape), ..puzzle }.solve(&placements, 2);
            if other.tilings == 1 {
                assert!(other.nodes <= chosen.nodes, "{:?}: shape {shape} would be harder", level.solution);
            }
        }
    }
    let without = all_levels().iter().filter(|l| l.rotatable.is_none()).count();
    assert!(without < all_levels().len() / 2, "most levels have a rotatable piece ({without} without)");
}

#[test]
fn levels_come_easiest_first() {
    let levels = all_levels();
    assert!(levels.windows(2).all(|pair| pair[0].difficulty <= pair[1].difficulty));
    assert!(levels[0].w * levels[0].h <= 12, "the first level is a small one");
}

#[test]
fn codes_verify_and_tampered_solutions_are_rejected() {
    let mut codes = HashSet::new();
    for level in all_levels() {
        assert_eq!(level.code, unlock_code(level.board(), &level.solution));
        assert!(level.accepts_code(&level.code));
        let typed = format!("{}-{}", &level.code[..4], level.code[4..].to_lowercase());
        assert!(level.accepts_code(&typed), "case and a dash do not matter");
        codes.insert(level.code.clone());

        // Two cells of different pieces swapped: the pieces no longer have their shapes.
        let mut tampered = level.solution.clone();
        let (a, b) = (tampered[0][0], tampered[level.h - 1][level.w - 1]);
        tampered[0][0] = b;
        tampered[level.h - 1][level.w - 1] = a;
        assert!(level.check_solution(&tampered).is_err(), "{:?}", level.solution);
        assert_ne!(unlock_code(level.board(), &tampered), level.code);
        let mut unknown = level.solution.clone();
        unknown[0][0] = level.pieces.len() as u8;
        assert!(level.check_solution(&unknown).is_err());
        assert!(level.check_solution(&level.solution[1..]).is_err(), "wrong size");
    }
    let level = all_levels().iter().find(|l| l.code.contains(['0', '1'])).expect("a code with 0 or 1");
    let look_alike: String = level
        .code
        .chars()
        .map(|c| match c {
            '0' => 'o',
            '1' => 'l',
            c => c,
        })
        .collect();
    assert!(level.accepts_code(&look_alike), "O and L read as 0 and 1");
    for pair in all_levels().windows(2) {
        assert!(!pair[0].accepts_code(&pair[1].code), "another level's code does not unlock");
    }
    assert_eq!(codes.len(), all_levels().len(), "every level has its own code");
}

#[test]
fn the_shipped_level_list_is_what_the_generator_makes() {
    let shipped = include_str!("../data/triplex-levels.jsonl");
    let generated: String = all_levels().iter().map(|level| serde_json::to_string(level).unwrap() + "\n").collect();
    assert!(
        shipped == generated,
        "core/data/triplex-levels.jsonl is stale: regenerate it with `tabula triplex levels`"
    );
}

#[test]
fn the_check_lets_only_the_rotatable_piece_turn() {
    // Two Ls in 3x2: piece 0 is XX/X. (shape 4), piece 1 is .X/XX (shape 7).
    let level = Level {
        w: 3,
        h: 2,
        pieces: vec![4, 7],
        solution: vec![vec![0, 0, 1], vec![0, 1, 1]],
        rotatable: Some(0),
        difficulty: 0,
        code: String::new(),
    };
    assert_eq!(level.check_solution(&level.solution), Ok(()));
    // Both turned: piece 0 becomes X./XX (allowed, it is rotatable), piece 1 XX/.X (not allowed).
    let turned = vec![vec![0, 1, 1], vec![0, 0, 1]];
    assert_eq!(level.check_solution(&turned), Err(SolutionError::WrongShape(1)));
    let nothing_turns = Level { rotatable: None, ..level.clone() };
    assert_eq!(nothing_turns.check_solution(&turned), Err(SolutionError::WrongShape(0)));
    let both_cells_elsewhere = vec![vec![0, 0, 0], vec![1, 1, 1]];
    assert_eq!(level.check_solution(&both_cells_elsewhere), Err(SolutionError::WrongShape(0)));
}

#[test]
fn a_level_reads_back_only_if_well_formed() {
    let level = &all_levels()[0];
    let json = serde_json::to_value(level).unwrap();
    assert_eq!(&serde_json::from_value::<Level>(json.clone()).unwrap(), level);
    for (field, value) in [
        ("pieces", serde_json::json!([9, 0, 0])),
        ("rotatable", serde_json::json!(40)),
        ("w", serde_json::json!(1)),
        ("solution", serde_json::json!([[0]])),
    ] {
        let mut bad = json.clone();
        bad[field] = value;
        assert!(serde_json::from_value::<Level>(bad).is_err(), "{field}");
    }
}
