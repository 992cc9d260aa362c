//! The production store: Supabase's PostgREST (`sql/init.sql` defines the table). A move is one
//! PATCH filtered on the room's id and version, so a stale version updates nothing. Writes ask
//! back only the room's id (that a row was written), not the row: Supabase counts egress.

use async_trait::async_trait;
use chrono::{DateTime, SecondsFormat, Utc};
use postgrest::Postgrest;
use reqwest::StatusCode;

use super::{LevelRecords, Presence, RoomRow, Solve, Store, StoreError, Subscription};
use tabula_core::{GameKind, Seat};

use crate::room::{Room, RoomId};

/// The server-side key. Supabase's opaque `sb_secret_...` keys go in the `apikey` header only (the
/// gateway swaps them for a JWT); a JWT key (Supabase's legacy `service_role` key, or a token for a
/// plain PostgREST) goes in both `apikey` and `Authorization: Bearer`.
#[derive(Clone)]
pub enum SupabaseKey {
    Secret(String),
    Jwt(String),
}

impl SupabaseKey {
    pub fn parse(key: &str) -> SupabaseKey {
        let key = key.trim().to_owned();
        if key.split('.').count() == 3 && key.starts_with("eyJ") {
            SupabaseKey::Jwt(key)
        } else {
            SupabaseKey::Secret(key)
        }
    }
}

pub struct PostgrestStore {
    client: Postgrest,
}

const TABLE: &str = "rooms";
/// Rows are read whole (`select=*`): PostgREST 12 took 2.4 ms to answer a read of one room listing
/// its 24 columns, 1.0 ms for `*` (docs/PERFORMANCE.md, the API under load). `pushed_view` costs
/// nothing there: the database's trigger broadcasts it and stores NULL (`sql/init.sql`).
const WHOLE_ROW: &str = "*";
/// Web Push subscriptions, by room and endpoint (`sql/init.sql`).
const SUBSCRIPTIONS: &str = "push_subscriptions";
const SOLVES: &str = "triplex_solves";
/// A view computing each level's records in the database (`sql/init.sql`).
const RECORDS: &str = "triplex_records";

/// How long one PostgREST call may take, connecting included. A request makes at most a few
/// calls and the router gives the whole request its own deadline (`http::REQUEST_DEADLINE`).
pub const CALL_DEADLINE: std::time::Duration = std::time::Duration::from_millis(1500);

/// A request that never got an answer: PostgREST down, unreachable or too slow.
fn unreachable(error: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

fn store_error(error: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(error.to_string())
}

/// Sends a PostgREST request within [`CALL_DEADLINE`].
async fn send(
    request: impl std::future::Future<Output = Result<reqwest::Response, reqwest::Error>>,
) -> Result<reqwest::Response, StoreError> {
    match tokio::time::timeout(CALL_DEADLINE, request).await {
        Ok(response) => response.map_err(unreachable),
        Err(_) => Err(StoreError::Unavailable(format!("no answer from PostgREST within {CALL_DEADLINE:?}"))),
    }
}

/// Whether a refusal means the database is out of reach for now rather than that the request was
/// wrong: any 5xx (PostgREST's 503 "retrying the connection", or a gateway in front of it giving
/// up), and what PostgREST answers when its database goes away under a query: a connection or
/// shutdown error by SQLSTATE (class 08; 57P01 to 57P03, shut down, crashed, starting up; class 53,
/// out of resources) or no code at all (a 400 with an empty message, seen when PostgreSQL is killed
/// under it, `cli/tests/load.rs`).
fn database_gone(status: StatusCode, text: &str) -> bool {
    if status.is_server_error() {
        return true;
    }
    let error: Option<serde_json::Value> = serde_json::from_str(text).ok();
    match error.as_ref().and_then(|e| e.get("code")?.as_str()) {
        Some(code) => code.is_empty() || code.starts_with("08") || code.starts_with("57P") || code.starts_with("53"),
        None => false,
    }
}

impl PostgrestStore {
    /// `rest_url` is PostgREST's root: `https://<project>.supabase.co/rest/v1`, or a plain PostgREST.
    pub fn new(rest_url: &str, key: SupabaseKey) -> PostgrestStore {
        let client = Postgrest::new(rest_url.trim_end_matches('/'));
        let client = match &key {
            SupabaseKey::Secret(secret) => client.insert_header("apikey", secret),
            SupabaseKey::Jwt(jwt) => {
                client.insert_header("apikey", jwt).insert_header("Authorization", format!("Bearer {jwt}"))
            }
        };
        PostgrestStore { client }
    }

    /// Reads the rows of a successful answer; any other status is an error with PostgREST's text.
    async fn rows<Row: serde::de::DeserializeOwned>(
        response: reqwest::Response,
        what: &str,
    ) -> Result<Vec<Row>, StoreError> {
        let status = response.status();
        let text = match tokio::time::timeout(CALL_DEADLINE, response.text()).await {
            Ok(text) => text.map_err(unreachable)?,
            Err(_) => return Err(StoreError::Unavailable(format!("{what}: the answer did not arrive in time"))),
        };
        if database_gone(status, &text) {
            return Err(StoreError::Unavailable(format!("{what}: PostgREST answered {status}: {text}")));
        }
        if !status.is_success() {
            return Err(StoreError::Failed(format!("{what}: PostgREST answered {status}: {text}")));
        }
        serde_json::from_str(&text).map_err(|e| StoreError::Failed(format!("{what}: unreadable rows: {e}")))
    }
}

fn body(room: &Room) -> Result<String, StoreError> {
    serde_json::to_string(&RoomRow::from(room)).map_err(store_error)
}

#[async_trait]
impl Store for PostgrestStore {
    async fn load(&self, id: &RoomId) -> Result<Option<Room>, StoreError> {
        let response = send(self.client.from(TABLE).select(WHOLE_ROW).eq("room_id", id.as_str()).execute()).await?;
        let rows: Vec<RoomRow> = Self::rows(response, "load").await?;
        rows.into_iter().next().map(Room::try_from).transpose()
    }

    async fn create(&self, room: &Room) -> Result<bool, StoreError> {
        let response = send(self.client.from(TABLE).select("room_id").insert(body(room)?).execute()).await?;
        // A unique violation on the id: someone else created the room first.
        if response.status() == StatusCode::CONFLICT {
            return Ok(false);
        }
        Ok(!Self::rows::<serde_json::Value>(response, "create").await?.is_empty())
    }

    async fn replace(&self, room: &Room, expected: i64) -> Result<bool, StoreError> {
        let response = send(
            self.client
                .from(TABLE)
                .select("room_id")
                .eq("room_id", room.id.as_str())
                .eq("version", expected.to_string())
                .eq("created_at", room.created_at.to_rfc3339_opts(SecondsFormat::Micros, true))
                .update(body(room)?)
                .execute(),
        )
        .await?;
        Ok(!Self::rows::<serde_json::Value>(response, "replace").await?.is_empty())
    }

    async fn touch(&self, id: &RoomId, seat: Seat, presence: Presence) -> Result<(), StoreError> {
        let at = presence.at.to_rfc3339_opts(SecondsFormat::Micros, true);
        let looked = presence.looking.then(|| at.clone());
        let n = seat.number();
        let mut body = serde_json::json!({ format!("seat{n}_seen_at"): at, format!("seat{n}_looked_at"): looked });
        if let Some(open_pages) = presence.open_pages {
            body["open_pages"] = open_pages.into();
        }
        let body = body.to_string();
        let response =
            send(self.client.from(TABLE).select("room_id").eq("room_id", id.as_str()).update(body).execute()).await?;
        Self::rows::<serde_json::Value>(response, "touch").await.map(drop)
    }

    async fn public_rooms(
        &self,
        game: Option<GameKind>,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Room>, StoreError> {
        let since = since.to_rfc3339_opts(SecondsFormat::Micros, true);
        let mut query = self.client.from(TABLE).select(WHOLE_ROW).eq("public", "true");
        if let Some(game) = game {
            query = query.eq("game", game.name());
        }
        let recent = format!("updated_at.gte.\"{since}\",seat1_seen_at.gte.\"{since}\",seat2_seen_at.gte.\"{since}\"");
        let query = query.or(recent).order("created_at.desc").limit(limit);
        let rows: Vec<RoomRow> = Self::rows(send(query.execute()).await?, "public_rooms").await?;
        rows.into_iter().map(Room::try_from).collect()
    }

    async fn subscribe(&self, subscription: &Subscription, keep: usize) -> Result<(), StoreError> {
        let body = serde_json::to_string(subscription).map_err(store_error)?;
        let upsert = self.client.from(SUBSCRIPTIONS).select("endpoint").upsert(body).on_conflict("room_id,endpoint");
        Self::rows::<serde_json::Value>(send(upsert.execute()).await?, "subscribe").await?;
        let seat = subscription.seat.to_string();
        let mine = self.client.from(SUBSCRIPTIONS).select("endpoint").eq("room_id", &subscription.room_id);
        let mine = mine.eq("seat", &seat).order("created_at.desc");
        let endpoints: Vec<serde_json::Value> = Self::rows(send(mine.execute()).await?, "subscribe").await?;
        for old in endpoints.iter().skip(keep).filter_map(|row| row["endpoint"].as_str()) {
            self.unsubscribe(&RoomId::parse(&subscription.room_id).map_err(store_error)?, old).await?;
        }
        Ok(())
    }

    async fn unsubscribe(&self, room: &RoomId, endpoint: &str) -> Result<(), StoreError> {
        let delete = self.client.from(SUBSCRIPTIONS).select("endpoint").eq("room_id", room.as_str());
        let delete = delete.eq("endpoint", endpoint).delete();
        Self::rows::<serde_json::Value>(send(delete.execute()).await?, "unsubscribe").await.map(drop)
    }

    async fn reminded(&self, room: &RoomId, endpoint: &str, mark: &str) -> Result<(), StoreError> {
        let update = self.client.from(SUBSCRIPTIONS).select("endpoint").eq("room_id", room.as_str());
        let update = update.eq("endpoint", endpoint).update(serde_json::json!({"reminded": mark}).to_string());
        Self::rows::<serde_json::Value>(send(update.execute()).await?, "reminded").await.map(drop)
    }

    async fn clocked_rooms(&self, limit: usize) -> Result<Vec<Room>, StoreError> {
        let query = self.client.from(TABLE).select(WHOLE_ROW).not("is", "clock", "null").is("clock->>ended", "null");
        let query = query.not("is", "seat1_token_hash", "null").not("is", "seat2_token_hash", "null");
        let rows: Vec<RoomRow> =
            Self::rows(send(query.order("updated_at").limit(limit).execute()).await?, "clocked_rooms").await?;
        rows.into_iter().map(Room::try_from).collect()
    }

    async fn subscriptions(&self, room: &RoomId) -> Result<Vec<Subscription>, StoreError> {
        let query = self.client.from(SUBSCRIPTIONS).select(WHOLE_ROW).eq("room_id", room.as_str());
        Self::rows(send(query.order("created_at").execute()).await?, "subscriptions").await
    }

    async fn delete_idle(&self, cutoff: DateTime<Utc>) -> Result<u64, StoreError> {
        let cutoff = cutoff.to_rfc3339_opts(SecondsFormat::Micros, true);
        // The cleanup may delete many rooms: it gets no deadline of its own beyond the platform's.
        let response = self.client.from(TABLE).select("room_id").lt("updated_at", cutoff).delete().execute().await;
        let response = response.map_err(unreachable)?;
        let status = response.status();
        let text = response.text().await.map_err(unreachable)?;
        if !status.is_success() {
            return Err(StoreError::Failed(format!("delete_idle: PostgREST answered {status}: {text}")));
        }
        let deleted: Vec<serde_json::Value> = serde_json::from_str(&text).map_err(store_error)?;
        Ok(deleted.len() as u64)
    }

    async fn add_solve(&self, solve: &Solve) -> Result<(), StoreError> {
        let body = serde_json::to_string(solve).map_err(store_error)?;
        let response = send(self.client.from(SOLVES).insert(body).execute()).await?;
        Self::rows::<Solve>(response, "add_solve").await.map(drop)
    }

    async fn records(&self, level: i64) -> Result<LevelRecords, StoreError> {
        let query = self.client.from(RECORDS).select("*").eq("level", level.to_string());
        let rows: Vec<LevelRecords> = Self::rows(send(query.execute()).await?, "records").await?;
        // A level nobody solved has no row.
        Ok(rows.into_iter().next().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_lost_under_postgrest_is_unavailable_and_a_wrong_request_is_not() {
        let empty = r#"{"code":"","details":null,"hint":null,"message":""}"#;
        assert!(database_gone(StatusCode::BAD_REQUEST, empty));
        let starting = r#"{"code":"57P03","message":"the database system is starting up"}"#;
        assert!(database_gone(StatusCode::BAD_REQUEST, starting));
        assert!(database_gone(StatusCode::SERVICE_UNAVAILABLE, "not JSON"));
        let bad_value = r#"{"code":"22P02","message":"invalid input syntax for type bigint"}"#;
        assert!(!database_gone(StatusCode::BAD_REQUEST, bad_value));
        assert!(!database_gone(StatusCode::BAD_REQUEST, r#"{"code":"PGRST100","message":"parse error"}"#));
        assert!(!database_gone(StatusCode::UNAUTHORIZED, "<html>"));
    }
}
