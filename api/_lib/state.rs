//! What every request handler shares: the store, the limiters, the cron's secret, the cache of
//! rooms in play, the abandonment time and the push; and how a room is opened for an answer (who is
//! away, how many watch) and how a seated player's polls are recorded.

use std::sync::Arc;

use chrono::{Duration, Utc};
use serde_json::json;
use tabula_core::Seat;

use crate::cache::RoomCache;
use crate::error::ApiError;
use crate::push::{Notifying, Push};
use crate::ratelimit::{Limiters, RateLimiter};
use crate::room::{now, LoadedRoom, Room, RoomId};
use crate::store::{Presence, Store};
use crate::webpush::Notifier;

/// Rooms untouched for this long are deleted by the cleanup.
pub const IDLE_ROOM_HOURS: i64 = 48;
/// A seated player not heard of for this long may be claimed against (`TABULA_ABANDON_SECONDS`).
/// Two minutes suits games without clocks, which are all our games today.
pub const DEFAULT_ABANDON_SECONDS: i64 = 120;
/// A polling player (`X-Tabula-Token`) is recorded at most this often: a write per poll would be
/// a write per second per player.
const PRESENCE_WRITE_SECONDS: i64 = 15;

/// The most open pages a page may report (a player could report any number: it is only shown).
const MAX_OPEN_PAGES: u32 = 10_000;

#[derive(Clone)]
pub struct AppState {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) limiters: Option<Limiters>,
    /// `GET /api/cron` needs `Authorization: Bearer <this>`; without it the endpoint refuses all.
    pub(crate) cron_secret: Option<String>,
    pub(crate) cache: Arc<RoomCache>,
    pub(crate) abandon_after: Duration,
    pub(crate) push: Push,
    /// Web Push, where VAPID keys are set.
    pub(crate) notifier: Option<Arc<Notifier>>,
}

impl AppState {
    /// `limiter` counts every request; [`AppState::with_limiters`] gives creation one of its own.
    pub fn new(store: Arc<dyn Store>, limiter: Option<Arc<dyn RateLimiter>>, cron_secret: Option<String>) -> AppState {
        let abandon_after = Duration::seconds(DEFAULT_ABANDON_SECONDS);
        let limiters = limiter.map(Limiters::one);
        AppState { store, limiters, cron_secret, cache: Arc::default(), abandon_after, push: Push::Off, notifier: None }
    }

    pub fn with_limiters(self, limiters: Option<Limiters>) -> AppState {
        AppState { limiters, ..self }
    }

    /// The same state pushing room changes: locally, its store is wrapped so that every room
    /// written announces its new version.
    pub fn with_push(self, push: Push) -> AppState {
        let store: Arc<dyn Store> = match &push {
            Push::Local(changes) => Arc::new(Notifying::new(self.store.clone(), changes.clone())),
            _ => self.store.clone(),
        };
        AppState { store, push, ..self }
    }

    /// The same state sending Web Push notifications (`notify/`).
    pub fn with_notifier(self, notifier: Option<Notifier>) -> AppState {
        AppState { notifier: notifier.map(Arc::new), ..self }
    }

    pub(crate) fn push(&self) -> &Push {
        &self.push
    }

    /// Supabase Realtime's websocket, when pages hear room changes there (the local server's
    /// security policy must let them open it).
    pub fn realtime_socket(&self) -> Option<&str> {
        match &self.push {
            Push::Supabase { socket, .. } => Some(socket),
            _ => None,
        }
    }

    pub(crate) fn abandon_after(&self) -> Duration {
        self.abandon_after
    }

    /// The same state with another abandonment time (tests use a few seconds).
    pub fn with_abandon_after(self, abandon_after: std::time::Duration) -> AppState {
        let abandon_after = Duration::from_std(abandon_after).unwrap_or(Duration::seconds(DEFAULT_ABANDON_SECONDS));
        AppState { abandon_after, ..self }
    }

    pub(crate) fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// The room `id` from the store; 404 if there is none.
    pub(crate) async fn fetch(&self, id: &RoomId) -> Result<Room, ApiError> {
        self.store.load(id).await?.ok_or_else(|| ApiError::RoomNotFound(id.as_str().to_owned()))
    }

    /// `room` as it is written: where Supabase Realtime pushes, with its view and ETag, which the
    /// database's trigger broadcasts (docs/CAPACITY.md: pages that need not fetch each move are most
    /// of what a game costs the platform's quotas).
    /// `fresh` as for [`AppState::loaded`].
    pub(crate) fn stamped(&self, mut room: Room, fresh: bool) -> Result<Room, ApiError> {
        room.pushed_view = match self.push {
            Push::Supabase { .. } => {
                let loaded = self.loaded(room.clone(), fresh)?;
                Some(json!({"view": loaded.view(), "etag": loaded.etag()}))
            }
            _ => None,
        };
        Ok(room)
    }

    /// `room` with how its game ended on the clock written, if it has ended so since it was
    /// written: any request that sees a side's time run out (or a first move not made in time)
    /// records it, so a result is never only shown. A lost compare-and-swap reads the room again.
    pub(crate) async fn settle_clock(&self, room: Room) -> Result<Room, ApiError> {
        if room.clock.as_ref().is_none_or(|clock| clock.ended.is_some()) {
            return Ok(room);
        }
        let at = crate::room::now();
        let loaded = room.load()?;
        let Some(end) = loaded.clock_flag(at) else { return Ok(loaded.room) };
        let mut ended = loaded.room.clone();
        if let Some(clock) = ended.clock.as_mut() {
            clock.end(end);
        }
        ended.takeback = None;
        ended.version += 1;
        ended.updated_at = at;
        let ended = self.stamped(ended, true)?;
        self.cache.forget(&ended.id);
        if self.store.replace(&ended, loaded.room.version).await? {
            self.notify(&loaded, &ended.clone().load()?).await;
            Ok(ended)
        } else {
            self.fetch(&ended.id).await
        }
    }

    /// Replays `room` with how many watch it; who is away only on a `fresh` room, not on the
    /// cache's copy, whose presence times may be old (another instance may have recorded the polls).
    pub(crate) fn loaded(&self, room: Room, fresh: bool) -> Result<LoadedRoom, ApiError> {
        if fresh {
            return self.open(room);
        }
        let mut loaded = room.load()?;
        loaded.watching = self.watching(&loaded.room, Utc::now());
        Ok(loaded)
    }

    /// Replays `room` and marks who is away, as of now, and how many watch it where that is known.
    pub(crate) fn open(&self, room: Room) -> Result<LoadedRoom, ApiError> {
        let mut loaded = room.load()?;
        let now = Utc::now();
        loaded.mark_away(now, self.abandon_after);
        loaded.watching = self.watching(&loaded.room, now);
        Ok(loaded)
    }

    /// The seated players still there: seats taken whose player was heard of within the
    /// abandonment time.
    pub(crate) fn present(&self, room: &Room, now: chrono::DateTime<Utc>) -> Vec<Seat> {
        Seat::ALL
            .into_iter()
            .filter(|seat| room.holder(*seat).token_hash.is_some() && now - room.last_seen(*seat) <= self.abandon_after)
            .collect()
    }

    /// How many people watch `room`: with the local push, every open room page listens to it, so
    /// its listeners less its seated players still there. With Supabase Realtime the functions
    /// hold no connections: the open pages a seated player's page last counted in the channel's
    /// presence, less the same, while a seated player is there to count. Unknown without a push.
    fn watching(&self, room: &Room, now: chrono::DateTime<Utc>) -> Option<usize> {
        let present = self.present(room, now).len();
        let open_pages = match &self.push {
            Push::Local(changes) => changes.listeners(&room.id),
            Push::Supabase { .. } if present > 0 => room.open_pages? as usize,
            _ => return None,
        };
        Some(open_pages.saturating_sub(present))
    }

    /// Records a poll by `seat` unless one was recorded recently (or much sooner for short
    /// abandonment times, so presence stays finer than the time it is judged by), the page's
    /// visibility changed (`looking`: the player sees the room, so no push notification), or the
    /// count of open pages its page reports changed (only kept where Realtime's presence is what
    /// counts them). Best effort: a failed write is logged and the request goes on (a poll still
    /// gets its room, a new seat still gets its token).
    pub(crate) async fn saw(&self, room: &mut Room, seat: Seat, open_pages: Option<u32>, looking: bool) {
        let now = now();
        let every = Duration::seconds(PRESENCE_WRITE_SECONDS).min(self.abandon_after / 4);
        let open_pages =
            open_pages.filter(|_| matches!(self.push, Push::Supabase { .. })).map(|n| n.min(MAX_OPEN_PAGES));
        let due = room.seen[seat.index()].is_none_or(|seen| now - seen >= every);
        let was_looking = room.looked[seat.index()].is_some();
        if due || looking != was_looking || open_pages.is_some_and(|n| room.open_pages != Some(n)) {
            let presence = Presence { at: now, looking, open_pages };
            match self.store.touch(&room.id, seat, presence).await {
                Ok(()) => {
                    room.seen[seat.index()] = Some(now);
                    room.looked[seat.index()] = looking.then_some(now);
                    room.open_pages = open_pages.or(room.open_pages);
                    self.cache.saw(&room.id, seat, presence);
                }
                Err(error) => tracing::warn!(%error, room = room.id.as_str(), "presence not recorded"),
            }
        }
    }
}
