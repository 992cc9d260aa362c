//! What happens after an edge lands (`Game::change_and_refresh` of the original): the mover's
//! phase, then the opponent's, each running two chains in lock-step from the destination's cells;
//! then the refill and the end-of-game check. Every change is logged so the action can be undone.

use super::{Change, Edges, Events};
use crate::game::Seat;

/// What [`Edges::step`] did to a cell.
enum Step {
    /// Ate the cell's odd edge; the chain goes on in the cell across it.
    Ate {
        next: usize,
    },
    Other,
}

impl Edges {
    /// Resolves an edge of `mover` landing on `dest`, logging every change into `log`.
    pub(super) fn resolve(&mut self, dest: usize, mover: Seat, log: &mut Vec<Change>) -> Events {
        let record = [self.edges_of(Seat::One), self.edges_of(Seat::Two)];
        let mut events = Events { priority: self.priority(dest, mover), ..Events::default() };
        self.phase(dest, mover, mover, &mut events, log);
        self.phase(dest, mover.other(), mover, &mut events, log);
        for seat in Seat::ALL {
            let refill = record[seat.index()].saturating_sub(self.edges_of(seat));
            // Saturating: a loaded state may hold any supply, and play must never panic.
            self.supply[seat.index()] = self.supply[seat.index()].saturating_add(refill);
            events.refill.0[seat.index()] = refill;
        }
        events
    }

    /// Both cells of `dest` could be eaten: one by the mover, the other (through `dest`) by the opponent.
    fn priority(&self, dest: usize, mover: Seat) -> bool {
        let [one, two] = self.torus.edge_cells(dest);
        let both = |a, b| self.odd_edge(a, mover).is_some() && self.odd_edge(b, mover.other()).is_some();
        both(one, two) || both(two, one)
    }

    /// The one edge of another colour, if all four edges of `cell` are taken and three are `by`'s.
    fn odd_edge(&self, cell: usize, by: Seat) -> Option<usize> {
        let edges = self.torus.cell_edges(cell);
        let colours = edges.map(|e| self.edges[e]);
        if colours.iter().any(Option::is_none) {
            return None;
        }
        let mut odd = edges.iter().zip(colours).filter(|(_, c)| *c != Some(by));
        match (odd.next(), odd.next()) {
            (Some((&edge, _)), None) => Some(edge),
            _ => None,
        }
    }

    /// One phase for colour `by`: two chains, slot 1 then slot 2 in every iteration.
    fn phase(&mut self, dest: usize, by: Seat, mover: Seat, events: &mut Events, log: &mut Vec<Change>) {
        let mut slots = self.torus.edge_cells(dest).map(Some);
        let mut chain = [0u32; 2];
        let mut iteration = 0;
        while slots.iter().any(Option::is_some) {
            for (slot, run) in slots.iter_mut().zip(&mut chain) {
                let Some(cell) = *slot else { continue };
                *slot = match self.step(cell, by, events, log) {
                    Step::Ate { next } => {
                        if by == mover {
                            events.eaten_by_mover += 1;
                        } else {
                            events.eaten_by_opponent += 1;
                        }
                        if iteration > 0 {
                            events.chained_eats += 1;
                        }
                        *run += 1;
                        events.longest_chain = events.longest_chain.max(*run);
                        Some(next)
                    }
                    Step::Other => None,
                };
            }
            iteration += 1;
        }
    }

    /// The per-cell rule (`Game::try_capture_block_by`): eat, else capture, else destroy.
    fn step(&mut self, cell: usize, by: Seat, events: &mut Events, log: &mut Vec<Change>) -> Step {
        let owner = self.owners[cell];
        if let Some(odd) = self.odd_edge(cell, by) {
            self.set_owner(cell, Some(by), events, log);
            self.set_edge(odd, Some(by), log);
            return Step::Ate { next: self.torus.across(odd, cell) };
        }
        let edges = self.torus.cell_edges(cell);
        if owner != Some(by) && edges.iter().all(|&e| self.edges[e] == Some(by)) {
            self.set_owner(cell, Some(by), events, log);
        } else if let Some(holder) = owner {
            if edges.iter().any(|&e| self.edges[e] == Some(holder.other())) {
                self.set_owner(cell, None, events, log);
            }
        }
        Step::Other
    }

    fn set_owner(&mut self, cell: usize, owner: Option<Seat>, events: &mut Events, log: &mut Vec<Change>) {
        let before = self.owners[cell];
        match (before, owner) {
            (None, Some(_)) => events.captured += 1,
            (Some(_), None) => events.destroyed += 1,
            _ => {}
        }
        log.push(Change::Cell { cell, before });
        self.put_owner(cell, owner);
    }

    pub(super) fn set_edge(&mut self, edge: usize, colour: Option<Seat>, log: &mut Vec<Change>) {
        log.push(Change::Edge { edge, before: self.edges[edge] });
        self.put_edge(edge, colour);
    }
}
