//! A game as config plus moves, with the position after every move kept, so the replay slider,
//! the move list and takebacks never replay from the start, and a room update replays only the
//! moves that are new.

use serde_json::Value;
use tabula_core::{Game, Rejection};

#[derive(Clone, Debug, PartialEq)]
pub struct History<G: Game> {
    config: Value,
    moves: Vec<G::Move>,
    /// `positions[k]` is the position after `k` moves; never empty.
    positions: Vec<G>,
}

impl<G: Game> History<G> {
    /// A new game from a JSON config; the engine's message if it refuses the config.
    pub fn new(config: Value) -> Result<History<G>, String> {
        let start = G::new(G::config_from_json(&config).map_err(|e| e.0)?).map_err(|e| e.0)?;
        // The config as the engine has it (defaults filled in), so saved games and SGF see it all.
        let config = G::config_to_json(start.config());
        Ok(History { config, moves: Vec::new(), positions: vec![start] })
    }

    /// A game from a config and a move list; stops at the first move the engine refuses and says
    /// which (0-based) it was.
    pub fn replay(config: Value, moves: &[G::Move]) -> Result<History<G>, String> {
        let mut history = History::new(config)?;
        for (index, mv) in moves.iter().enumerate() {
            history.push(mv.clone()).map_err(|e| format!("move {}: {e}", index + 1))?;
        }
        Ok(history)
    }

    pub fn config(&self) -> &Value {
        &self.config
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The moves in their JSON shapes (as saved, and as the computer player reads them).
    pub fn moves_json(&self) -> Vec<Value> {
        self.moves.iter().filter_map(|m| serde_json::to_value(m).ok()).collect()
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The position after `count` moves (the last one if `count` is past the end).
    pub fn position(&self, count: usize) -> &G {
        &self.positions[count.min(self.moves.len())]
    }

    pub fn current(&self) -> &G {
        self.position(usize::MAX)
    }

    /// Plays `mv` if the engine accepts it.
    pub fn push(&mut self, mv: G::Move) -> Result<(), G::Illegal> {
        let mut next = self.current().clone();
        next.play(&mv)?;
        self.moves.push(mv);
        self.positions.push(next);
        Ok(())
    }

    /// Takes back everything after the first `count` moves.
    pub fn truncate(&mut self, count: usize) {
        self.moves.truncate(count);
        self.positions.truncate(count + 1);
    }

    /// Brings this history to `config` and `moves` (a room as the server has it): keeps the common
    /// start and replays the rest. A move the engine refuses is an error (the server only stores
    /// legal moves, so this means a different engine version).
    pub fn sync(&mut self, config: &Value, moves: &[G::Move]) -> Result<(), String> {
        if !same_config::<G>(config, &self.config) {
            *self = History::new(config.clone())?;
        }
        let common = self.moves.iter().zip(moves).take_while(|(a, b)| a == b).count();
        self.truncate(common);
        for (index, mv) in moves.iter().enumerate().skip(common) {
            self.push(mv.clone()).map_err(|e| format!("move {} ({}): {e}", index + 1, e.code()))?;
        }
        Ok(())
    }
}

/// Whether two JSON configs are the same as the engine reads them (`{}` and the defaults written
/// out are the same config).
fn same_config<G: Game>(a: &Value, b: &Value) -> bool {
    match (G::config_from_json(a), G::config_from_json(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tabula_core::go::{Go, GoMove, Vertex};
    use tabula_core::popucom::{Cell, Popucom};

    use super::*;

    fn play(at: &str) -> GoMove {
        GoMove::Play { at: at.parse::<Vertex>().unwrap(), colour: None }
    }

    #[test]
    fn positions_follow_moves_and_takebacks() {
        let mut history = History::<Popucom>::new(json!({})).unwrap();
        history.push(Cell::new(4, 4)).unwrap();
        history.push(Cell::new(0, 0)).unwrap();
        assert!(history.push(Cell::new(4, 4)).is_err(), "occupied");
        assert_eq!(history.len(), 2);
        assert_eq!(history.position(1), &Popucom::replay(Default::default(), &[Cell::new(4, 4)]).unwrap());
        history.truncate(1);
        assert_eq!(history.current(), history.position(1));
        assert_eq!(history.moves(), &[Cell::new(4, 4)]);
    }

    #[test]
    fn sync_keeps_the_common_start_and_follows_the_server() {
        let config = json!({"size": 9});
        let mut history = History::<Go>::replay(config.clone(), &[play("E5"), play("C3")]).unwrap();
        history.sync(&config, &[play("E5"), play("D4"), play("F6")]).unwrap();
        assert_eq!(history.moves(), &[play("E5"), play("D4"), play("F6")]);
        let fresh = History::<Go>::replay(config.clone(), history.moves()).unwrap();
        assert_eq!(history, fresh);
        // A new config (a rematch with other options) starts over.
        history.sync(&json!({"size": 13}), &[play("A1")]).unwrap();
        assert_eq!(history.current().config().size, 13);
        assert!(history.sync(&config, &[play("E5"), play("E5")]).is_err(), "an illegal move is an error");
    }

    #[test]
    fn configs_are_compared_as_the_engine_reads_them() {
        let mut history = History::<Go>::replay(json!({}), &[play("E5")]).unwrap();
        history.sync(&json!({"size": 9, "komi": 7.5}), &[play("E5"), play("D4")]).unwrap();
        assert_eq!(history.len(), 2, "the same config written out: nothing replayed from scratch");
        assert!(History::<Go>::new(json!({"size": 4})).is_err());
        assert!(History::<Go>::new(json!({"size": "big"})).is_err());
    }
}
