//! Rooms this instance wrote or read last, so a move usually needs one store round trip (the
//! conditional write) instead of two. Never trusted on its own: the write's filter on
//! `(room_id, created_at, version)` proves the cached room was current (every change bumps the
//! version), and every other outcome is recomputed from a fresh load.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::store::Presence;
use tabula_core::Seat;

use crate::room::{Room, RoomId};

/// Bounded by clearing when full: simple, and a cold cache only costs one extra read per room.
const CAPACITY: usize = 10_000;

#[derive(Default)]
pub struct RoomCache {
    rooms: Mutex<HashMap<RoomId, Room>>,
}

impl RoomCache {
    /// The cached room if it is at `version`.
    pub fn get(&self, id: &RoomId, version: i64) -> Option<Room> {
        let rooms = self.rooms.lock().ok()?;
        rooms.get(id).filter(|room| room.version == version).cloned()
    }

    pub fn put(&self, room: &Room) {
        if let Ok(mut rooms) = self.rooms.lock() {
            if rooms.len() >= CAPACITY && !rooms.contains_key(&room.id) {
                rooms.clear();
            }
            // Its pushed view is written once and never read back: not kept.
            rooms.insert(room.id.clone(), Room { pushed_view: None, ..room.clone() });
        }
    }

    /// A poll recorded by this instance: the cached copy's presence follows, so that a move answered
    /// from the cache shows (and pushes) who watches as a poll would.
    pub fn saw(&self, id: &RoomId, seat: Seat, presence: Presence) {
        if let Ok(mut rooms) = self.rooms.lock() {
            if let Some(room) = rooms.get_mut(id) {
                room.seen[seat.index()] = Some(presence.at);
                room.looked[seat.index()] = presence.looking.then_some(presence.at);
                room.open_pages = presence.open_pages.or(room.open_pages);
            }
        }
    }

    pub fn forget(&self, id: &RoomId) {
        if let Ok(mut rooms) = self.rooms.lock() {
            rooms.remove(id);
        }
    }
}
