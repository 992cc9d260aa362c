//! Where rooms (and Triplex solves) live. One trait, two implementations: PostgREST (Supabase,
//! production) and SQLite (one machine). Both store a room as one row; moves are written with a
//! compare-and-swap on the room's version, so two racing writers can never both land.

mod postgrest;
mod sqlite;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_core::{GameKind, Seat};

pub use self::postgrest::{PostgrestStore, SupabaseKey};
pub use self::sqlite::SqliteStore;
use crate::error::ApiError;
use crate::room::{Abandonment, Room, RoomId, SeatHolder, TakebackPolicy};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store answered something unusable (a broken row, a refused request): our fault, a 500.
    #[error("store: {0}")]
    Failed(String),
    /// The store could not be reached, did not answer in time, or said it is down: a 503, and the
    /// client tries again.
    #[error("store unavailable: {0}")]
    Unavailable(String),
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::Unavailable(detail) => {
                tracing::warn!(%detail, "store unavailable");
                ApiError::StoreUnavailable
            }
            failed => ApiError::internal(failed),
        }
    }
}

#[async_trait]
pub trait Store: Send + Sync + 'static {
    async fn load(&self, id: &RoomId) -> Result<Option<Room>, StoreError>;
    /// Inserts `room` unless a room with its id exists. True if this call inserted it.
    async fn create(&self, room: &Room) -> Result<bool, StoreError>;
    /// Replaces the stored room with `room` only if the stored one is still at version `expected`
    /// and was created at `room.created_at` (a room deleted and created anew restarts its
    /// versions). True if it was replaced; false if the version moved on or the room is gone.
    async fn replace(&self, room: &Room, expected: i64) -> Result<bool, StoreError>;
    /// Records that `seat`'s player was there at `at`, whether `looking` at the room (its page
    /// visible: no push notifications then), and with `open_pages` how many pages their page counts
    /// with the room open, without changing the room's version (so no poller sees a change).
    /// Nothing happens if the room is gone.
    async fn touch(&self, id: &RoomId, seat: Seat, at: Presence) -> Result<(), StoreError>;
    /// Public rooms (of `game`, or of every game) changed or polled by a seated player since
    /// `since`, newest first, at most `limit`: what the lobby lists.
    async fn public_rooms(
        &self,
        game: Option<GameKind>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Room>, StoreError>;
    /// Keeps `subscription` (in place of one of its room with the same endpoint), and of its seat's
    /// subscriptions only the `keep` newest.
    async fn subscribe(&self, subscription: &Subscription, keep: usize) -> Result<(), StoreError>;
    /// Removes `room`'s subscription at `endpoint`, if there is one.
    async fn unsubscribe(&self, room: &RoomId, endpoint: &str) -> Result<(), StoreError>;
    /// Notes on `room`'s subscription at `endpoint` the reminder `mark` was sent.
    async fn reminded(&self, room: &RoomId, endpoint: &str, mark: &str) -> Result<(), StoreError>;
    /// Rooms with both seats taken whose game has a clock that has not ended (running, or waiting
    /// for the first moves), least recently changed first, at most `limit`: what the cron settles and reminds.
    async fn clocked_rooms(&self, limit: usize) -> Result<Vec<Room>, StoreError>;
    /// The push subscriptions of `room`'s seats.
    async fn subscriptions(&self, room: &RoomId) -> Result<Vec<Subscription>, StoreError>;
    /// Deletes rooms untouched since `cutoff` (and their subscriptions); returns how many.
    async fn delete_idle(&self, cutoff: DateTime<Utc>) -> Result<u64, StoreError>;
    /// Adds a solve of a Triplex level (its solution already checked by the engine).
    async fn add_solve(&self, solve: &Solve) -> Result<(), StoreError>;
    /// The records of Triplex level `level`, computed by the database (a level's solves are never
    /// all read: Supabase caps an answer at 1,000 rows).
    async fn records(&self, level: i64) -> Result<LevelRecords, StoreError>;
}

/// A Triplex level's records: each name counts once, with its best time; the median is the lower
/// middle one of those best times (PostgreSQL's `percentile_disc(0.5)`). The same columns as the
/// `triplex_records` view of `sql/init.sql`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelRecords {
    /// Every accepted solve, a name's repeats included.
    pub solves: i64,
    pub solvers: i64,
    pub best_ms: Option<i64>,
    pub median_ms: Option<i64>,
    pub first_name: Option<String>,
    pub first_ms: Option<i64>,
    pub first_at: Option<DateTime<Utc>>,
}

/// One solve of a Triplex level: the same columns in SQLite and PostgreSQL (`sql/init.sql`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solve {
    /// The level's number in the shipped list, from 1.
    pub level: i64,
    pub name: String,
    /// How long the player took, in milliseconds.
    pub ms: i64,
    pub solved_at: DateTime<Utc>,
}

/// A seated player's poll, as `Store::touch` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Presence {
    pub at: DateTime<Utc>,
    /// The page is visible (`visible=1` on its poll).
    pub looking: bool,
    /// How many pages have the room open, where Realtime's presence counts them.
    pub open_pages: Option<u32>,
}

/// A browser's Web Push subscription for one seat of one room (`notify.rs`): kept by the seat
/// token's hash, so it lapses when the seat changes hands; never part of a room's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    pub room_id: String,
    pub seat: u8,
    pub token_hash: String,
    /// The push service's address for this browser (checked against the known services).
    pub endpoint: String,
    /// The browser's P-256 public key and authentication secret (RFC 8291), base64url.
    pub p256dh: String,
    pub auth: String,
    pub created_at: DateTime<Utc>,
    /// The last reminder sent to it (`notify::reminder_mark`), so the cron sends each one once.
    #[serde(default)]
    pub reminded: Option<String>,
    /// A browser's push service, or a chat's incoming webhook (then the keys are empty).
    #[serde(default)]
    pub kind: Channel,
}

/// Where a seat's notices go: a browser's push service, or Discord's or Slack's incoming webhook.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Channel {
    #[default]
    WebPush,
    Discord,
    Slack,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::WebPush => "web-push",
            Channel::Discord => "discord",
            Channel::Slack => "slack",
        }
    }

    pub fn parse(text: &str) -> Option<Channel> {
        [Channel::WebPush, Channel::Discord, Channel::Slack].into_iter().find(|c| c.as_str() == text)
    }
}

/// A room as a table row: the same columns in SQLite and PostgreSQL (`sql/init.sql`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct RoomRow {
    pub room_id: String,
    pub game: String,
    pub config: Value,
    pub moves: Vec<Value>,
    pub version: i64,
    pub game_number: i64,
    pub resigned: Option<u8>,
    pub seat1_name: Option<String>,
    pub seat1_token_hash: Option<String>,
    pub seat2_name: Option<String>,
    pub seat2_token_hash: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub takeback: Option<u8>,
    /// `never`, `ask` or `always`; NULL (rooms from before the column) is `ask`.
    pub takeback_policy: Option<String>,
    /// The colour that left a game ended by abandonment, and whether it was called a draw.
    pub abandoned: Option<u8>,
    #[serde(default)]
    pub abandon_draw: bool,
    /// Listed in the lobby.
    #[serde(default)]
    pub public: bool,
    /// `Room::clock` as JSON; NULL for a room without time control.
    #[serde(default)]
    pub clock: Option<Value>,
    /// Written only by `Store::touch`: never part of a row written by `create` or `replace`.
    #[serde(default, skip_serializing)]
    pub seat1_seen_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing)]
    pub seat2_seen_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing)]
    pub open_pages: Option<u32>,
    /// Written only by `Store::touch`: the last poll from a visible page.
    #[serde(default, skip_serializing)]
    pub seat1_looked_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing)]
    pub seat2_looked_at: Option<DateTime<Utc>>,
    /// `Room::pushed_view`: written (NULL when none, so no older view outlives its version), never
    /// read back.
    #[serde(default, skip_deserializing)]
    pub pushed_view: Option<Value>,
}

impl From<&Room> for RoomRow {
    fn from(room: &Room) -> RoomRow {
        let [one, two] = room.seats.clone();
        RoomRow {
            room_id: room.id.as_str().to_owned(),
            game: room.game.name().to_owned(),
            config: room.config.clone(),
            moves: room.moves.clone(),
            version: room.version,
            game_number: room.game_number,
            resigned: room.resigned.map(Seat::number),
            seat1_name: one.name,
            seat1_token_hash: one.token_hash,
            seat2_name: two.name,
            seat2_token_hash: two.token_hash,
            created_at: room.created_at,
            updated_at: room.updated_at,
            takeback: room.takeback.map(Seat::number),
            takeback_policy: Some(room.takebacks.name().to_owned()),
            abandoned: room.abandoned.map(|a| a.left.number()),
            abandon_draw: room.abandoned.is_some_and(|a| a.draw),
            public: room.public,
            clock: room.clock.as_ref().map(|clock| serde_json::to_value(clock).expect("a clock serialises")),
            seat1_seen_at: room.seen[0],
            seat2_seen_at: room.seen[1],
            open_pages: room.open_pages,
            seat1_looked_at: room.looked[0],
            seat2_looked_at: room.looked[1],
            pushed_view: room.pushed_view.clone(),
        }
    }
}

impl TryFrom<RoomRow> for Room {
    type Error = StoreError;

    fn try_from(row: RoomRow) -> Result<Room, StoreError> {
        let bad = |what: &str| StoreError::Failed(format!("room {:?} has a bad {what}", row.room_id));
        Ok(Room {
            id: RoomId::parse(&row.room_id).map_err(|_| bad("id"))?,
            game: row.game.parse::<GameKind>().map_err(|_| bad("game"))?,
            resigned: row.resigned.map(|n| Seat::from_number(n).ok_or_else(|| bad("resigned"))).transpose()?,
            takeback: row.takeback.map(|n| Seat::from_number(n).ok_or_else(|| bad("takeback"))).transpose()?,
            takebacks: match row.takeback_policy.as_deref() {
                None => TakebackPolicy::Ask,
                Some(name) => TakebackPolicy::from_name(name).ok_or_else(|| bad("takeback policy"))?,
            },
            abandoned: row
                .abandoned
                .map(|n| Seat::from_number(n).map(|left| Abandonment { left, draw: row.abandon_draw }))
                .map(|a| a.ok_or_else(|| bad("abandoned")))
                .transpose()?,
            seen: [row.seat1_seen_at, row.seat2_seen_at],
            open_pages: row.open_pages,
            looked: [row.seat1_looked_at, row.seat2_looked_at],
            config: row.config,
            moves: row.moves,
            version: row.version,
            game_number: row.game_number,
            seats: [
                SeatHolder { name: row.seat1_name, token_hash: row.seat1_token_hash },
                SeatHolder { name: row.seat2_name, token_hash: row.seat2_token_hash },
            ],
            public: row.public,
            clock: row.clock.map(serde_json::from_value).transpose().map_err(|_| bad("clock"))?,
            created_at: row.created_at,
            updated_at: row.updated_at,
            pushed_view: None,
        })
    }
}
