//! The embedded store: one SQLite file, for running Tabula on one machine. Survives restarts.

use std::path::Path;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{params, Connection, OptionalExtension};
use tabula_core::{GameKind, Seat};

use super::{Channel, LevelRecords, Presence, RoomRow, Solve, Store, StoreError, Subscription};
use crate::room::{Room, RoomId};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    room_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    moves TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 0),
    game_number INTEGER NOT NULL,
    resigned INTEGER CHECK (resigned IN (1, 2)),
    seat1_name TEXT,
    seat1_token_hash TEXT,
    seat2_name TEXT,
    seat2_token_hash TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_updated_at ON rooms (updated_at);
CREATE TABLE IF NOT EXISTS triplex_solves (
    id INTEGER PRIMARY KEY,
    level INTEGER NOT NULL,
    name TEXT NOT NULL,
    ms INTEGER NOT NULL CHECK (ms > 0),
    solved_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS triplex_solves_level ON triplex_solves (level, id);
CREATE TABLE IF NOT EXISTS push_subscriptions (
    room_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    token_hash TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at TEXT NOT NULL,
    reminded TEXT,
    kind TEXT NOT NULL DEFAULT 'web-push',
    PRIMARY KEY (room_id, endpoint)
);
";

/// Columns added after the first release, for files created before them (as in `sql/init.sql`).
const ADDED_COLUMNS: [(&str, &str, &str); 12] = [
    ("rooms", "takeback", "INTEGER CHECK (takeback IN (1, 2))"),
    ("rooms", "takeback_policy", "TEXT CHECK (takeback_policy IN ('never', 'ask', 'always'))"),
    ("rooms", "abandoned", "INTEGER CHECK (abandoned IN (1, 2))"),
    ("rooms", "abandon_draw", "INTEGER NOT NULL DEFAULT 0"),
    ("rooms", "seat1_seen_at", "TEXT"),
    ("rooms", "seat2_seen_at", "TEXT"),
    ("rooms", "public", "INTEGER NOT NULL DEFAULT 0"),
    ("rooms", "open_pages", "INTEGER CHECK (open_pages >= 0)"),
    ("rooms", "clock", "TEXT"),
    ("rooms", "seat1_looked_at", "TEXT"),
    ("rooms", "seat2_looked_at", "TEXT"),
    ("push_subscriptions", "kind", "TEXT NOT NULL DEFAULT 'web-push'"),
];

/// The columns `create` and `replace` write (in `row_values` order), then the presence columns
/// only `touch` writes.
const COLUMNS: &str = "room_id, game, config, moves, version, game_number, resigned, \
    seat1_name, seat1_token_hash, seat2_name, seat2_token_hash, created_at, updated_at, takeback, \
    takeback_policy, abandoned, abandon_draw, public, clock, seat1_seen_at, seat2_seen_at, open_pages, \
    seat1_looked_at, seat2_looked_at";
const WRITTEN_COLUMNS: usize = 19;

pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
}

fn store_error(error: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(error.to_string())
}

/// Fixed-width UTC text, so that string order is time order (for the idle-room cutoff).
fn time_text(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Micros, true)
}

impl SqliteStore {
    /// Opens (creating if missing) the database file.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        Self::with_connection(Connection::open(path).map_err(store_error)?)
    }

    /// A private in-memory database (tests).
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        Self::with_connection(Connection::open_in_memory().map_err(store_error)?)
    }

    fn with_connection(connection: Connection) -> Result<SqliteStore, StoreError> {
        // WAL keeps readers and the writer out of each other's way; a busy timeout rides out a
        // second process (say, a backup) holding the lock briefly.
        connection.pragma_update(None, "journal_mode", "WAL").map_err(store_error)?;
        // Every acknowledged move is on disk before its answer: FULL syncs the log at each commit,
        // so neither a killed server nor a power cut loses one (NORMAL would survive only the
        // first; what FULL costs is in docs/RELIABILITY.md).
        connection.pragma_update(None, "synchronous", "FULL").map_err(store_error)?;
        connection.busy_timeout(std::time::Duration::from_secs(5)).map_err(store_error)?;
        connection.execute_batch(SCHEMA).map_err(store_error)?;
        for (table, column, definition) in ADDED_COLUMNS {
            let present: bool = connection
                .query_row("SELECT count(*) > 0 FROM pragma_table_info(?1) WHERE name = ?2", [table, column], |r| {
                    r.get(0)
                })
                .map_err(store_error)?;
            if !present {
                connection
                    .execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {definition}"))
                    .map_err(store_error)?;
            }
        }
        Ok(SqliteStore { connection: Arc::new(Mutex::new(connection)) })
    }

    /// Runs `work` on the connection off the async threads.
    async fn with<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let connection = Arc::clone(&self.connection);
        tokio::task::spawn_blocking(move || {
            let connection = connection.lock().map_err(|_| StoreError::Failed("connection lock poisoned".into()))?;
            work(&connection)
        })
        .await
        .map_err(store_error)?
    }
}

fn row_values(row: &RoomRow) -> Result<[Box<dyn rusqlite::ToSql + Send>; WRITTEN_COLUMNS], StoreError> {
    Ok([
        Box::new(row.room_id.clone()),
        Box::new(row.game.clone()),
        Box::new(serde_json::to_string(&row.config).map_err(store_error)?),
        Box::new(serde_json::to_string(&row.moves).map_err(store_error)?),
        Box::new(row.version),
        Box::new(row.game_number),
        Box::new(row.resigned),
        Box::new(row.seat1_name.clone()),
        Box::new(row.seat1_token_hash.clone()),
        Box::new(row.seat2_name.clone()),
        Box::new(row.seat2_token_hash.clone()),
        Box::new(time_text(row.created_at)),
        Box::new(time_text(row.updated_at)),
        Box::new(row.takeback),
        Box::new(row.takeback_policy.clone()),
        Box::new(row.abandoned),
        Box::new(row.abandon_draw),
        Box::new(row.public),
        Box::new(row.clock.as_ref().map(serde_json::Value::to_string)),
    ])
}

fn read_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<RoomRow, StoreError>> {
    fn json<T: serde::de::DeserializeOwned>(text: String) -> Result<T, StoreError> {
        serde_json::from_str(&text).map_err(store_error)
    }
    let time = |text: String| DateTime::parse_from_rfc3339(&text).map(|t| t.to_utc()).map_err(store_error);
    let (config, moves, created, updated): (String, String, String, String) =
        (row.get(2)?, row.get(3)?, row.get(11)?, row.get(12)?);
    let (clock, seen_1, seen_2): (Option<String>, Option<String>, Option<String>) =
        (row.get(18)?, row.get(19)?, row.get(20)?);
    let (looked_1, looked_2): (Option<String>, Option<String>) = (row.get(22)?, row.get(23)?);
    let parsed = (|| {
        Ok(RoomRow {
            room_id: row.get(0).map_err(store_error)?,
            game: row.get(1).map_err(store_error)?,
            config: json(config)?,
            moves: json(moves)?,
            version: row.get(4).map_err(store_error)?,
            game_number: row.get(5).map_err(store_error)?,
            resigned: row.get(6).map_err(store_error)?,
            seat1_name: row.get(7).map_err(store_error)?,
            seat1_token_hash: row.get(8).map_err(store_error)?,
            seat2_name: row.get(9).map_err(store_error)?,
            seat2_token_hash: row.get(10).map_err(store_error)?,
            created_at: time(created)?,
            updated_at: time(updated)?,
            takeback: row.get(13).map_err(store_error)?,
            takeback_policy: row.get(14).map_err(store_error)?,
            abandoned: row.get(15).map_err(store_error)?,
            abandon_draw: row.get(16).map_err(store_error)?,
            public: row.get(17).map_err(store_error)?,
            clock: clock.map(json).transpose()?,
            seat1_seen_at: seen_1.map(time).transpose()?,
            seat2_seen_at: seen_2.map(time).transpose()?,
            open_pages: row.get(21).map_err(store_error)?,
            seat1_looked_at: looked_1.map(time).transpose()?,
            seat2_looked_at: looked_2.map(time).transpose()?,
            // Only Supabase Realtime's trigger sends it: not kept here.
            pushed_view: None,
        })
    })();
    Ok(parsed)
}

#[async_trait]
impl Store for SqliteStore {
    async fn load(&self, id: &RoomId) -> Result<Option<Room>, StoreError> {
        let id = id.as_str().to_owned();
        let row = self
            .with(move |db| {
                db.query_row(&format!("SELECT {COLUMNS} FROM rooms WHERE room_id = ?1"), [id], read_row)
                    .optional()
                    .map_err(store_error)
            })
            .await?;
        row.map(|parsed| parsed.and_then(Room::try_from)).transpose()
    }

    async fn create(&self, room: &Room) -> Result<bool, StoreError> {
        let values = row_values(&RoomRow::from(room))?;
        self.with(move |db| {
            let written: Vec<&str> = COLUMNS.split(',').take(WRITTEN_COLUMNS).collect();
            let placeholders: Vec<String> = (1..=WRITTEN_COLUMNS).map(|i| format!("?{i}")).collect();
            let sql =
                format!("INSERT OR IGNORE INTO rooms ({}) VALUES ({})", written.join(","), placeholders.join(", "));
            let params: Vec<&dyn rusqlite::ToSql> = values.iter().map(|v| v.as_ref() as &dyn rusqlite::ToSql).collect();
            Ok(db.execute(&sql, params.as_slice()).map_err(store_error)? == 1)
        })
        .await
    }

    async fn replace(&self, room: &Room, expected: i64) -> Result<bool, StoreError> {
        let values = row_values(&RoomRow::from(room))?;
        self.with(move |db| {
            // Every column but the id and the creation time; the WHERE clause is the compare-and-swap.
            let sql = "UPDATE rooms SET game = ?2, config = ?3, moves = ?4, version = ?5, game_number = ?6, \
                resigned = ?7, seat1_name = ?8, seat1_token_hash = ?9, seat2_name = ?10, seat2_token_hash = ?11, \
                updated_at = ?13, takeback = ?14, takeback_policy = ?15, abandoned = ?16, abandon_draw = ?17, \
                public = ?18, clock = ?19 WHERE room_id = ?1 AND version = ?20 AND created_at = ?12";
            let mut params: Vec<&dyn rusqlite::ToSql> =
                values.iter().map(|v| v.as_ref() as &dyn rusqlite::ToSql).collect();
            params.push(&expected);
            Ok(db.execute(sql, params.as_slice()).map_err(store_error)? == 1)
        })
        .await
    }

    async fn touch(&self, id: &RoomId, seat: Seat, presence: Presence) -> Result<(), StoreError> {
        let (id, at) = (id.as_str().to_owned(), time_text(presence.at));
        let looked = presence.looking.then(|| at.clone());
        // The column names come from the seat, never from input; no count keeps the last one.
        let n = seat.number();
        let sql = format!(
            "UPDATE rooms SET seat{n}_seen_at = ?2, seat{n}_looked_at = ?4, open_pages = coalesce(?3, open_pages) \
             WHERE room_id = ?1"
        );
        let open_pages = presence.open_pages;
        self.with(move |db| db.execute(&sql, params![id, at, open_pages, looked]).map(drop).map_err(store_error)).await
    }

    async fn subscribe(&self, subscription: &Subscription, keep: usize) -> Result<(), StoreError> {
        let s = subscription.clone();
        self.with(move |db| {
            db.execute(
                "INSERT OR REPLACE INTO push_subscriptions \
                 (room_id, endpoint, seat, token_hash, p256dh, auth, created_at, kind) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    s.room_id,
                    s.endpoint,
                    s.seat,
                    s.token_hash,
                    s.p256dh,
                    s.auth,
                    time_text(s.created_at),
                    s.kind.as_str()
                ],
            )
            .map_err(store_error)?;
            db.execute(
                "DELETE FROM push_subscriptions WHERE room_id = ?1 AND seat = ?2 AND endpoint NOT IN \
                 (SELECT endpoint FROM push_subscriptions WHERE room_id = ?1 AND seat = ?2 \
                  ORDER BY created_at DESC LIMIT ?3)",
                params![s.room_id, s.seat, keep as i64],
            )
            .map(drop)
            .map_err(store_error)
        })
        .await
    }

    async fn unsubscribe(&self, room: &RoomId, endpoint: &str) -> Result<(), StoreError> {
        let (room, endpoint) = (room.as_str().to_owned(), endpoint.to_owned());
        self.with(move |db| {
            db.execute("DELETE FROM push_subscriptions WHERE room_id = ?1 AND endpoint = ?2", params![room, endpoint])
                .map(drop)
                .map_err(store_error)
        })
        .await
    }

    async fn reminded(&self, room: &RoomId, endpoint: &str, mark: &str) -> Result<(), StoreError> {
        let (room, endpoint, mark) = (room.as_str().to_owned(), endpoint.to_owned(), mark.to_owned());
        self.with(move |db| {
            let sql = "UPDATE push_subscriptions SET reminded = ?3 WHERE room_id = ?1 AND endpoint = ?2";
            db.execute(sql, params![room, endpoint, mark]).map(drop).map_err(store_error)
        })
        .await
    }

    async fn clocked_rooms(&self, limit: usize) -> Result<Vec<Room>, StoreError> {
        let rows = self
            .with(move |db| {
                let sql = format!(
                    "SELECT {COLUMNS} FROM rooms WHERE clock IS NOT NULL AND json_extract(clock, '$.ended') IS NULL \
                     AND seat1_token_hash IS NOT NULL AND seat2_token_hash IS NOT NULL \
                     ORDER BY updated_at LIMIT ?1"
                );
                let mut statement = db.prepare(&sql).map_err(store_error)?;
                let rows = statement.query_map([limit as i64], read_row).map_err(store_error)?;
                rows.collect::<Result<Vec<_>, _>>().map_err(store_error)
            })
            .await?;
        rows.into_iter().map(|parsed| parsed.and_then(Room::try_from)).collect()
    }

    async fn subscriptions(&self, room: &RoomId) -> Result<Vec<Subscription>, StoreError> {
        let room = room.as_str().to_owned();
        self.with(move |db| {
            let mut query = db
                .prepare(
                    "SELECT room_id, seat, token_hash, endpoint, p256dh, auth, created_at, reminded, kind \
                     FROM push_subscriptions \
                     WHERE room_id = ?1 ORDER BY created_at",
                )
                .map_err(store_error)?;
            let rows = query
                .query_map([room], |row| {
                    let created: String = row.get(6)?;
                    Ok((
                        Subscription {
                            room_id: row.get(0)?,
                            seat: row.get(1)?,
                            token_hash: row.get(2)?,
                            endpoint: row.get(3)?,
                            p256dh: row.get(4)?,
                            auth: row.get(5)?,
                            created_at: DateTime::<Utc>::MIN_UTC,
                            reminded: row.get(7)?,
                            kind: Channel::parse(&row.get::<_, String>(8)?).unwrap_or_default(),
                        },
                        created,
                    ))
                })
                .map_err(store_error)?;
            rows.map(|row| {
                let (subscription, created) = row.map_err(store_error)?;
                let created_at = DateTime::parse_from_rfc3339(&created).map_err(store_error)?.to_utc();
                Ok(Subscription { created_at, ..subscription })
            })
            .collect()
        })
        .await
    }

    async fn public_rooms(
        &self,
        game: Option<GameKind>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Room>, StoreError> {
        let (game, since, limit) = (game.map(GameKind::name), time_text(since), limit as i64);
        let rows = self
            .with(move |db| {
                let sql = format!(
                    "SELECT {COLUMNS} FROM rooms WHERE public = 1 AND (?1 IS NULL OR game = ?1) \
                     AND (updated_at >= ?2 OR seat1_seen_at >= ?2 OR seat2_seen_at >= ?2) \
                     ORDER BY created_at DESC LIMIT ?3"
                );
                let mut statement = db.prepare(&sql).map_err(store_error)?;
                let rows = statement.query_map(params![game, since, limit], read_row).map_err(store_error)?;
                rows.map(|row| row.map_err(store_error)?).collect::<Result<Vec<RoomRow>, StoreError>>()
            })
            .await?;
        rows.into_iter().map(Room::try_from).collect()
    }

    async fn delete_idle(&self, cutoff: DateTime<Utc>) -> Result<u64, StoreError> {
        let cutoff = time_text(cutoff);
        self.with(move |db| {
            let deleted =
                db.execute("DELETE FROM rooms WHERE updated_at < ?1", params![cutoff]).map_err(store_error)?;
            db.execute("DELETE FROM push_subscriptions WHERE room_id NOT IN (SELECT room_id FROM rooms)", [])
                .map_err(store_error)?;
            Ok(deleted as u64)
        })
        .await
    }

    async fn add_solve(&self, solve: &Solve) -> Result<(), StoreError> {
        let solve = solve.clone();
        self.with(move |db| {
            let sql = "INSERT INTO triplex_solves (level, name, ms, solved_at) VALUES (?1, ?2, ?3, ?4)";
            let values = params![solve.level, solve.name, solve.ms, time_text(solve.solved_at)];
            db.execute(sql, values).map(drop).map_err(store_error)
        })
        .await
    }

    async fn records(&self, level: i64) -> Result<LevelRecords, StoreError> {
        self.with(move |db| {
            let first = db
                .query_row(
                    "SELECT name, ms, solved_at FROM triplex_solves WHERE level = ?1 ORDER BY id LIMIT 1",
                    [level],
                    |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?, row.get::<_, String>(2)?)),
                )
                .optional()
                .map_err(store_error)?;
            let solves: i64 = db
                .query_row("SELECT count(*) FROM triplex_solves WHERE level = ?1", [level], |row| row.get(0))
                .map_err(store_error)?;
            // Each name's best time, in order; the lower middle one is the median.
            let mut query = db
                .prepare("SELECT min(ms) AS best FROM triplex_solves WHERE level = ?1 GROUP BY name ORDER BY best")
                .map_err(store_error)?;
            let bests: Vec<i64> = query
                .query_map([level], |row| row.get(0))
                .map_err(store_error)?
                .collect::<Result<_, _>>()
                .map_err(store_error)?;
            let median_ms = bests.len().checked_sub(1).map(|last| bests[last / 2]);
            let first_at = first.as_ref().map(|(_, _, at)| DateTime::parse_from_rfc3339(at).map(|t| t.to_utc()));
            Ok(LevelRecords {
                solves,
                solvers: bests.len() as i64,
                best_ms: bests.first().copied(),
                median_ms,
                first_at: first_at.transpose().map_err(store_error)?,
                first_ms: first.as_ref().map(|(_, ms, _)| *ms),
                first_name: first.map(|(name, _, _)| name),
            })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tabula_core::GameKind;

    use super::*;
    use crate::room::now;

    #[tokio::test]
    async fn a_file_from_before_takebacks_gains_the_column_and_keeps_its_rooms() {
        let old = Connection::open_in_memory().unwrap();
        old.execute_batch(SCHEMA).unwrap();
        old.execute(
            "INSERT INTO rooms (room_id, game, config, moves, version, game_number, created_at, updated_at) \
             VALUES ('old', 'popucom', '{}', '[{\"row\":4,\"col\":4}]', 3, 0, ?1, ?1)",
            [time_text(now())],
        )
        .unwrap();
        let store = SqliteStore::with_connection(old).unwrap();
        let id = RoomId::parse("old").unwrap();
        let mut room = store.load(&id).await.unwrap().expect("the old room survives");
        assert_eq!((room.moves.len(), room.takeback), (1, None));
        room.takeback = Some(Seat::Two);
        room.version += 1;
        assert!(store.replace(&room, 3).await.unwrap());
        assert_eq!(store.load(&id).await.unwrap().unwrap().takeback, Some(Seat::Two));
        // New rooms are written with the column too.
        let game = GameKind::Popucom.new_game(&json!({})).unwrap();
        assert!(store.create(&Room::new(RoomId::parse("new").unwrap(), &game, now())).await.unwrap());
    }

    #[tokio::test]
    async fn a_file_from_before_webhooks_keeps_its_subscriptions_as_web_push() {
        let old = Connection::open_in_memory().unwrap();
        // The table as the first release with Web Push made it, with one browser's subscription.
        old.execute_batch(
            "CREATE TABLE push_subscriptions (room_id TEXT NOT NULL, endpoint TEXT NOT NULL, \
             seat INTEGER NOT NULL CHECK (seat IN (1, 2)), token_hash TEXT NOT NULL, p256dh TEXT NOT NULL, \
             auth TEXT NOT NULL, created_at TEXT NOT NULL, reminded TEXT, PRIMARY KEY (room_id, endpoint));",
        )
        .unwrap();
        old.execute(
            "INSERT INTO push_subscriptions VALUES ('old', 'https://fcm.googleapis.com/x', 2, 'h', 'k', 'a', ?1, NULL)",
            [time_text(now())],
        )
        .unwrap();
        let store = SqliteStore::with_connection(old).unwrap();
        let id = RoomId::parse("old").unwrap();
        let webhook = Subscription {
            room_id: "old".into(),
            seat: 1,
            token_hash: "h1".into(),
            endpoint: "https://discord.com/api/webhooks/1/x".into(),
            p256dh: String::new(),
            auth: String::new(),
            created_at: now(),
            reminded: None,
            kind: Channel::Discord,
        };
        store.subscribe(&webhook, 5).await.unwrap();
        let kinds: Vec<Channel> = store.subscriptions(&id).await.unwrap().into_iter().map(|s| s.kind).collect();
        assert_eq!(kinds, vec![Channel::WebPush, Channel::Discord]);
    }
}
