//! A review of a game with the computer: the first player's chance of winning after every move, as
//! the search judges each position, every move marked by how much it lowered its side's chance, and
//! each side's biggest mistakes with the move the search preferred (`tabula review`, the browser's
//! worker; thresholds and measurements in docs/AI.md).
//!
//! A move's loss is its side's chance before it minus its side's chance after it, each the judge's
//! value of that position (chess: its search score; the playout games: the mean of all the root's
//! playouts). Search values are noisy, so the move the search itself prefers loses nothing, and a
//! loss below the game's inaccuracy threshold is no mark.

use serde::Serialize;
use serde_json::Value;

use super::player::{replay, to_json, AiRequest, Playable};
use super::{reward, reward_for, AiError, Searchable, Searcher};
pub use crate::annotation::Mark;
use crate::game::{Game, Seat, Status};

/// How much a move must lower its side's chance of winning (0 to 1) to be marked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    pub inaccuracy: f32,
    pub mistake: f32,
    pub blunder: f32,
}

impl Thresholds {
    /// For the games searched by playouts, whose values wander by a few hundredths between searches.
    pub const PLAYOUTS: Thresholds = Thresholds { inaccuracy: 0.10, mistake: 0.20, blunder: 0.30 };
    /// For chess, lichess's (a drop of 10, 20 or 30 points on its -100 to 100 scale of winning chances).
    pub const CHESS: Thresholds = Thresholds { inaccuracy: 0.05, mistake: 0.10, blunder: 0.15 };

    fn mark(&self, loss: f32) -> Option<Mark> {
        [(self.blunder, Mark::Blunder), (self.mistake, Mark::Mistake), (self.inaccuracy, Mark::Inaccuracy)]
            .into_iter()
            .find(|&(threshold, _)| loss >= threshold)
            .map(|(_, mark)| mark)
    }
}

/// One position as the search sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement<M> {
    /// The first player's chance of winning (a draw counts half).
    pub first_chance: f32,
    /// The move the search prefers for the side to move; `None` where it has nothing to choose.
    pub best: Option<M>,
}

/// A computer player as a judge of positions, for reviews.
pub trait Judge<G: Game> {
    /// Judges `game`, in play, reached by `history` from the start.
    fn judge(&mut self, game: &G, history: &[G::Move]) -> Judgement<G::Move>;
}

/// A position's value is the mean reward of all the root's playouts, not the best move's (the
/// search's answer): the best move's mean flatters the side to move, by 0.15 in Go (its chances
/// then swing up and down with the turn), and the root's mean, which counts the tries of worse
/// moves too, swings far less (docs/AI.md, the review).
impl<G: Searchable> Judge<G> for Searcher<G> {
    fn judge(&mut self, game: &G, history: &[G::Move]) -> Judgement<G::Move> {
        if game.is_settled() {
            // Go after two passes: the playout counts the board as a referee would.
            let first_chance = game.playout(&mut self.rng, false, &mut |_, _| {});
            return Judgement { first_chance, best: None };
        }
        let mover = game.status().to_move().unwrap_or(Seat::One);
        let (tree, _) = self.search(game, history, false);
        let judgement = Judgement { first_chance: reward_for(mover, tree.root_value()), best: tree.best_move() };
        // Kept at this position: the next one is a move below it.
        self.tree = Some((tree, history.to_vec()));
        judgement
    }
}

/// A marked move.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake<M> {
    /// The move's number from 1: it leads from `values[ply - 1]` to `values[ply]`.
    pub ply: usize,
    pub seat: Seat,
    /// How much it lowered its side's chance.
    pub loss: f32,
    pub mark: Mark,
    /// What the search preferred.
    pub best: Option<M>,
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review<M> {
    /// `values[i]`: the first player's chance after `i` moves (`values[0]` at the start).
    pub values: Vec<f32>,
    /// `marks[i]`: the mark of move `i + 1`.
    pub marks: Vec<Option<Mark>>,
    /// Marked moves, the first seat's then the second's, each side's biggest first.
    pub mistakes: Vec<Mistake<M>>,
    /// Per seat, 100 x (1 - the mean loss of its moves).
    pub accuracy: [f32; 2],
}

/// Reviews the game of `moves` from `start`, `judge` searching every position in play;
/// `judged_count(n)` hears when `n` of the `moves.len() + 1` positions are done (a progress bar).
pub fn review<G: Game>(
    start: &G,
    moves: &[G::Move],
    judge: &mut dyn Judge<G>,
    thresholds: Thresholds,
    judged_count: &mut dyn FnMut(usize),
) -> Review<G::Move> {
    let mut game = start.clone();
    let mut judged = Vec::with_capacity(moves.len() + 1);
    for ply in 0..=moves.len() {
        let status = game.status();
        let judgement = match reward(&status) {
            Some(first_chance) => Judgement { first_chance, best: None },
            None => judge.judge(&game, &moves[..ply]),
        };
        judged.push((status, judgement));
        judged_count(ply + 1);
        if let Some(mv) = moves.get(ply) {
            game.play_unchecked(mv);
        }
    }
    let values: Vec<f32> = judged.iter().map(|(_, judgement)| judgement.first_chance).collect();
    let mut marks = Vec::with_capacity(moves.len());
    let mut mistakes = Vec::new();
    let mut losses = [Vec::new(), Vec::new()];
    for (index, mv) in moves.iter().enumerate() {
        let (status, before) = &judged[index];
        let (Status::ToMove(seat), Some(best)) = (status, &before.best) else {
            marks.push(None);
            continue;
        };
        let chance = |value: f32| reward_for(*seat, value);
        let loss = if best == mv { 0.0 } else { (chance(values[index]) - chance(values[index + 1])).max(0.0) };
        losses[seat.index()].push(loss);
        let mark = thresholds.mark(loss);
        if let Some(mark) = mark {
            mistakes.push(Mistake { ply: index + 1, seat: *seat, loss, mark, best: Some(best.clone()) });
        }
        marks.push(mark);
    }
    mistakes.sort_by(|a, b| a.seat.index().cmp(&b.seat.index()).then(b.loss.total_cmp(&a.loss)));
    let accuracy = losses.map(|losses| {
        let mean = if losses.is_empty() { 0.0 } else { losses.iter().sum::<f32>() / losses.len() as f32 };
        100.0 * (1.0 - mean)
    });
    Review { values, marks, mistakes, accuracy }
}

impl<M: Serialize> Review<M> {
    /// The review as `tabula review` writes it: `{"values", "marks", "mistakes": [{"ply", "colour",
    /// "loss", "mark", "best"}], "accuracy"}`, chances to three decimals.
    pub fn to_json(&self) -> Value {
        let round = |value: f32| (f64::from(value) * 1000.0).round() / 1000.0;
        serde_json::json!({
            "values": self.values.iter().map(|&v| round(v)).collect::<Vec<_>>(),
            "marks": self.marks,
            "mistakes": self.mistakes.iter().map(|m| serde_json::json!({
                "ply": m.ply,
                "colour": m.seat.number(),
                "loss": round(m.loss),
                "mark": m.mark,
                "best": m.best.as_ref().map(to_json),
            })).collect::<Vec<_>>(),
            "accuracy": self.accuracy.map(|a| (f64::from(a) * 10.0).round() / 10.0),
        })
    }
}

/// A review of the game of `request` (its config and moves in JSON) by `G`'s judge at level
/// `level`'s budget ([`Playable::judge`]).
pub(crate) fn review_json<G: Playable>(
    request: &AiRequest,
    level: u8,
    seed: u64,
    judged_count: &mut dyn FnMut(usize),
) -> Result<Value, AiError> {
    let (_, moves) = replay::<G>(&request.config, &request.moves)?;
    let start = replay::<G>(&request.config, &[])?.0;
    let (mut judge, thresholds) = G::judge(level, seed);
    Ok(review(&start, &moves, judge.as_mut(), thresholds, judged_count).to_json())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use serde_json::json;

    use super::*;
    use crate::ai::{review_game, AiRequest, Level};
    use crate::popucom::{Cell, Popucom};
    use crate::GameKind;

    fn reviewed(kind: GameKind, moves: Value) -> Value {
        let request: AiRequest = serde_json::from_value(json!({ "moves": moves })).unwrap();
        review_game(kind, &request, 3, 1, &mut |_| {}).unwrap()
    }

    /// The side's biggest mistake: its first entry in `mistakes`.
    fn biggest(review: &Value, colour: u8) -> &Value {
        let mistakes = review["mistakes"].as_array().unwrap();
        mistakes.iter().find(|m| m["colour"] == colour).unwrap_or_else(|| panic!("no mistake of {colour}: {review}"))
    }

    #[test]
    fn a_queen_given_away_is_that_sides_biggest_mistake() {
        // 2...Qh4?? 3.Nxh4: Black's queen for nothing.
        let review = reviewed(GameKind::Chess, json!(["e2e4", "e7e5", "g1f3", "d8h4", "f3h4", "b8c6", "f1c4", "g8f6"]));
        let black = biggest(&review, 2);
        assert_eq!((black["ply"].as_u64(), black["mark"].as_str()), (Some(4), Some("blunder")), "{review}");
        assert_ne!(black["best"], "d8h4");
        let values = review["values"].as_array().unwrap();
        assert_eq!(values.len(), 9);
        assert!(values[4].as_f64().unwrap() > 0.9, "White is winning after the queen goes: {review}");
        assert!(review["marks"][4].is_null(), "taking the queen is no mistake: {review}");
    }

    /// A random game to its last move where the mover (seat two) can win or lose by it: a move
    /// that loses, the result told by playing each move, not by the search.
    fn last_move_thrown_away(seed: u64) -> Option<(Popucom, Vec<Cell>, Cell, Vec<Cell>)> {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let start = Popucom::default();
        let mut game = start.clone();
        let mut moves = Vec::new();
        while game.moves_played() < 49 {
            let cell = game.random_move(&mut rng)?;
            game.play_unchecked(&cell);
            moves.push(cell);
        }
        let winner = |cell: &Cell| {
            let mut after = game.clone();
            after.play_unchecked(cell);
            after.status().outcome().and_then(|outcome| outcome.winner)
        };
        let legal = game.legal_moves();
        let winning: Vec<Cell> = legal.iter().filter(|cell| winner(cell) == Some(Seat::Two)).copied().collect();
        let losing = legal.iter().find(|cell| winner(cell) == Some(Seat::One))?;
        (!winning.is_empty()).then_some((start, moves, *losing, winning))
    }

    #[test]
    fn a_last_move_that_throws_the_game_away_is_a_blunder() {
        let (start, mut moves, losing, winning) =
            (0..200).find_map(last_move_thrown_away).expect("some random game ends so");
        moves.push(losing);
        let level = Level { blunder: 0.0, ..Level::of::<Popucom>(3) };
        let mut judged = Vec::new();
        let review =
            review(&start, &moves, &mut Searcher::new(level, 1), Thresholds::PLAYOUTS, &mut |n| judged.push(n));
        assert_eq!(judged, (1..=51).collect::<Vec<_>>(), "progress after every position");
        assert_eq!(review.values.len(), 51);
        assert_eq!(review.values[50], 1.0, "seat one won");
        let last = review.mistakes.iter().find(|m| m.seat == Seat::Two).expect("seat two's mistakes");
        assert_eq!((last.ply, last.mark), (50, Mark::Blunder), "{review:?}");
        assert!(winning.contains(last.best.as_ref().unwrap()), "the better move wins: {review:?}");
        assert_eq!(review.marks[49], Some(Mark::Blunder));
    }

    #[test]
    fn the_search_choice_loses_nothing_and_marks_follow_the_thresholds() {
        let thresholds = Thresholds::PLAYOUTS;
        assert_eq!(thresholds.mark(0.09), None);
        assert_eq!(thresholds.mark(0.1), Some(Mark::Inaccuracy));
        assert_eq!(thresholds.mark(0.25), Some(Mark::Mistake));
        assert_eq!(thresholds.mark(0.3), Some(Mark::Blunder));
        // A judge whose values swing wildly but who always approves of the move played.
        struct Agreeable(Vec<Cell>);
        impl Judge<Popucom> for Agreeable {
            fn judge(&mut self, _: &Popucom, history: &[Cell]) -> Judgement<Cell> {
                let swing = if history.len() % 2 == 0 { 0.9 } else { 0.1 };
                Judgement { first_chance: swing, best: self.0.get(history.len()).copied() }
            }
        }
        let moves = vec![Cell::new(4, 4), Cell::new(0, 0), Cell::new(8, 8)];
        let review = review(&Popucom::default(), &moves, &mut Agreeable(moves.clone()), thresholds, &mut |_| {});
        assert_eq!(review.values, vec![0.9, 0.1, 0.9, 0.1]);
        assert!(review.mistakes.is_empty() && review.marks.iter().all(Option::is_none));
        assert_eq!(review.accuracy, [100.0, 100.0]);
    }

    #[test]
    fn bad_games_are_refused_with_the_protocols_codes() {
        let request: AiRequest = serde_json::from_value(json!({"moves": [[4, 4], [4, 4]]})).unwrap();
        assert_eq!(review_game(GameKind::Popucom, &request, 1, 1, &mut |_| {}).unwrap_err().code(), "bad_moves");
        let request: AiRequest = serde_json::from_value(json!({"config": {"komi": "lots"}, "moves": []})).unwrap();
        assert_eq!(review_game(GameKind::Go, &request, 1, 1, &mut |_| {}).unwrap_err().code(), "bad_config");
    }
}
