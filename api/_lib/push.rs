//! Push: "room R is now at version V", so an open room fetches at once instead of at its next
//! poll: the page GETs the room as it does when polling (with its ETag), so the API stays the only
//! source of truth and nothing secret is pushed. Deployed, Realtime's broadcast also carries the
//! room as a poll would answer it (`AppState::stamped`), which pages show without a GET when it
//! only adds moves (docs/ARCHITECTURE.md says what a forged one can do).
//!
//! The local server pushes with Server-Sent Events (`GET /api/events?roomId=R`), fed by the
//! store's successful writes in this process. SSE rather than a WebSocket: the push only goes one
//! way, browsers' `EventSource` reconnects by itself, it is plain HTTP (no upgrade, nothing for a
//! proxy to refuse), axum serves it without another crate, and the page's bundle needs only the
//! small `EventSource` binding. Deployed, functions cannot hold connections: a database trigger
//! broadcasts on Supabase Realtime instead (`sql/init.sql`). `GET /api/push` tells the site which.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use tabula_core::{GameKind, Seat};
use tokio::sync::broadcast;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

use crate::room::{Room, RoomId};
use crate::store::{LevelRecords, Presence, Solve, Store, StoreError, Subscription};

/// Changes kept for a slow listener before it skips some (it then fetches on its next poll).
const BACKLOG: usize = 1024;

/// Which push the site should use, as `GET /api/push` tells it.
#[derive(Clone)]
pub enum Push {
    /// Server-Sent Events from this process.
    Local(RoomChanges),
    /// Supabase Realtime broadcasts: the project's URL, Realtime's websocket and the public (anon) key.
    Supabase { url: String, socket: String, anon_key: String },
    /// No push: pages poll.
    Off,
}

/// A room's new version, as written by this process.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomChange {
    pub room: RoomId,
    pub version: i64,
}

/// Every room change written through a [`Notifying`] store, to whoever listens; and how many
/// listen to each room (every open room page listens: that is how watchers are counted).
#[derive(Clone)]
pub struct RoomChanges {
    sender: broadcast::Sender<RoomChange>,
    listeners: Arc<Mutex<HashMap<RoomId, usize>>>,
}

impl Default for RoomChanges {
    fn default() -> Self {
        RoomChanges { sender: broadcast::channel(BACKLOG).0, listeners: Arc::default() }
    }
}

/// One listener of a room, counted while it lives.
struct Listening {
    listeners: Arc<Mutex<HashMap<RoomId, usize>>>,
    room: RoomId,
}

impl Listening {
    fn new(listeners: Arc<Mutex<HashMap<RoomId, usize>>>, room: RoomId) -> Listening {
        *listeners.lock().unwrap_or_else(|p| p.into_inner()).entry(room.clone()).or_default() += 1;
        Listening { listeners, room }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let mut listeners = self.listeners.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = listeners.get_mut(&self.room) {
            *count -= 1;
            if *count == 0 {
                listeners.remove(&self.room);
            }
        }
    }
}

impl RoomChanges {
    fn announce(&self, room: &Room) {
        // No listener is not an error: nobody has the room open.
        let _ = self.sender.send(RoomChange { room: room.id.clone(), version: room.version });
    }

    /// The versions `room` reaches from now on; counted as a listener of `room` until dropped.
    pub fn of(&self, room: RoomId) -> impl Stream<Item = i64> + Send + 'static {
        let listening = Listening::new(self.listeners.clone(), room.clone());
        BroadcastStream::new(self.sender.subscribe()).filter_map(move |change| {
            let _counted = &listening;
            match change {
                Ok(change) if change.room == room => Some(change.version),
                // Skipped changes (a slow listener): the page's own polling catches up.
                Ok(_) | Err(BroadcastStreamRecvError::Lagged(_)) => None,
            }
        })
    }

    /// How many listen to `room` now.
    pub fn listeners(&self, room: &RoomId) -> usize {
        self.listeners.lock().unwrap_or_else(|p| p.into_inner()).get(room).copied().unwrap_or(0)
    }
}

/// A store that announces every room it creates or replaces.
pub struct Notifying {
    inner: Arc<dyn Store>,
    changes: RoomChanges,
}

impl Notifying {
    pub fn new(inner: Arc<dyn Store>, changes: RoomChanges) -> Notifying {
        Notifying { inner, changes }
    }
}

#[async_trait]
impl Store for Notifying {
    async fn load(&self, id: &RoomId) -> Result<Option<Room>, StoreError> {
        self.inner.load(id).await
    }

    async fn create(&self, room: &Room) -> Result<bool, StoreError> {
        let created = self.inner.create(room).await?;
        if created {
            self.changes.announce(room);
        }
        Ok(created)
    }

    async fn replace(&self, room: &Room, expected: i64) -> Result<bool, StoreError> {
        let replaced = self.inner.replace(room, expected).await?;
        if replaced {
            self.changes.announce(room);
        }
        Ok(replaced)
    }

    async fn touch(&self, id: &RoomId, seat: Seat, presence: Presence) -> Result<(), StoreError> {
        self.inner.touch(id, seat, presence).await
    }

    async fn subscribe(&self, subscription: &Subscription, keep: usize) -> Result<(), StoreError> {
        self.inner.subscribe(subscription, keep).await
    }

    async fn unsubscribe(&self, room: &RoomId, endpoint: &str) -> Result<(), StoreError> {
        self.inner.unsubscribe(room, endpoint).await
    }

    async fn reminded(&self, room: &RoomId, endpoint: &str, mark: &str) -> Result<(), StoreError> {
        self.inner.reminded(room, endpoint, mark).await
    }

    async fn clocked_rooms(&self, limit: usize) -> Result<Vec<Room>, StoreError> {
        self.inner.clocked_rooms(limit).await
    }

    async fn subscriptions(&self, room: &RoomId) -> Result<Vec<Subscription>, StoreError> {
        self.inner.subscriptions(room).await
    }

    async fn public_rooms(
        &self,
        game: Option<GameKind>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Room>, StoreError> {
        self.inner.public_rooms(game, since, limit).await
    }

    async fn delete_idle(&self, cutoff: DateTime<Utc>) -> Result<u64, StoreError> {
        self.inner.delete_idle(cutoff).await
    }

    async fn add_solve(&self, solve: &Solve) -> Result<(), StoreError> {
        self.inner.add_solve(solve).await
    }

    async fn records(&self, level: i64) -> Result<LevelRecords, StoreError> {
        self.inner.records(level).await
    }
}
