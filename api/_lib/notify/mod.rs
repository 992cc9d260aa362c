//! "Your move" notifications that reach a closed tab, by Web Push (`webpush/`). No account: a seated player's page subscribes with its seat token (`POST /api/notify`), and a
//! change that gives that seat the move, or ends its game, is pushed to it unless its page is
//! visible (its polls say so). Off where no VAPID keys are set (`GET /api/notify` answers 404).

mod message;

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tabula_core::Seat;

pub use self::message::{notices, Notice};
use crate::body::JsonBody;
use crate::clock::ClockSetting;
use crate::error::ApiError;
use crate::room::{now, LoadedRoom, RoomId};
use crate::state::AppState;
use crate::store::{Channel, Subscription};
use crate::token::hash_token;
use crate::webpush::{decode_keys, Delivery, Notifier};

/// The most subscriptions a seat keeps (a phone and a computer, and a browser that subscribed
/// anew); a further one replaces the oldest.
pub const SUBSCRIPTIONS_PER_SEAT: usize = 5;
/// A seat whose page polled while visible this recently is looking at the room: no push. Longer
/// than a visible page's slowest poll (`site/src/play/pacing.rs`: 45 s with a working push channel).
pub const LOOKING_SECONDS: i64 = 60;

/// This module's paths.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/notify", get(public_key).post(subscribe).delete(unsubscribe))
}

fn notifier(app: &AppState) -> Result<&Notifier, ApiError> {
    app.notifier.as_deref().ok_or(ApiError::NotConfigured)
}

/// `{"publicKey"}`: what pages subscribe with.
async fn public_key(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({"publicKey": notifier(&app)?.public_key()})))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NotifyRequest {
    room_id: String,
    token: String,
    /// A browser's subscription, or:
    #[serde(default)]
    subscription: Option<PushSubscription>,
    /// a Discord or Slack incoming webhook's address.
    #[serde(default)]
    webhook: Option<String>,
}

/// The browser's `PushSubscription.toJSON()`, of which the server needs these.
#[derive(Deserialize)]
struct PushSubscription {
    endpoint: String,
    keys: SubscriptionKeys,
}

#[derive(Deserialize)]
struct SubscriptionKeys {
    p256dh: String,
    auth: String,
}

/// The request's seat and subscription, checked: a seat token of the room, and a push service on
/// the list with keys that encrypt, or a webhook of Discord or Slack.
async fn checked(app: &AppState, request: NotifyRequest) -> Result<(RoomId, Subscription), ApiError> {
    let notifier = notifier(app)?;
    let id = RoomId::parse(&request.room_id)?;
    let room = app.fetch(&id).await?;
    let seat = room.seat_for_token(&request.token).ok_or(ApiError::NotAPlayer)?;
    let (endpoint, p256dh, auth, kind) = match (request.subscription, request.webhook) {
        (Some(PushSubscription { endpoint, keys }), None) => {
            decode_keys(&keys.p256dh, &keys.auth).map_err(ApiError::BadRequest)?;
            notifier.check_endpoint(&endpoint).await.map_err(ApiError::EndpointRefused)?;
            (endpoint, keys.p256dh, keys.auth, Channel::WebPush)
        }
        (None, Some(webhook)) => {
            let (_, channel) = notifier.check_webhook(&webhook).await.map_err(ApiError::EndpointRefused)?;
            (webhook, String::new(), String::new(), channel)
        }
        _ => return Err(ApiError::BadRequest("give either `subscription` or `webhook`".into())),
    };
    let subscription = Subscription {
        room_id: id.as_str().to_owned(),
        seat: seat.number(),
        token_hash: hash_token(&request.token),
        endpoint,
        p256dh,
        auth,
        created_at: now(),
        reminded: None,
        kind,
    };
    Ok((id, subscription))
}

async fn subscribe(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<NotifyRequest>,
) -> Result<Json<Value>, ApiError> {
    let (_, subscription) = checked(&app, request).await?;
    app.store().subscribe(&subscription, SUBSCRIPTIONS_PER_SEAT).await?;
    Ok(Json(json!({"subscribed": true})))
}

async fn unsubscribe(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<NotifyRequest>,
) -> Result<Json<Value>, ApiError> {
    let (id, subscription) = checked(&app, request).await?;
    app.store().unsubscribe(&id, &subscription.endpoint).await?;
    Ok(Json(json!({"subscribed": false})))
}

/// The reminders a correspondence game sends the seat on move, by hours left to move.
const REMINDER_HOURS: [i64; 2] = [1, 24];
/// The most rooms one cron pass looks at (least recently changed first).
const SWEEP_LIMIT: usize = 500;

/// What one cron pass over the clocks did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    /// Games ended on the clock (a timeout, or an abort before the first moves).
    pub ended: u64,
    /// Reminders pushed.
    pub reminders: u64,
}

impl AppState {
    /// Pushes what changed from `before` to `after` to the seats it concerns (`notices`), unless
    /// their page is visible. Best effort: a failure is logged, never the request's.
    pub(crate) async fn notify(&self, before: &LoadedRoom, after: &LoadedRoom) {
        if self.notifier.is_none() {
            return;
        }
        let notices = notices(before, after);
        if !notices.is_empty() {
            self.push_notices(after, &notices, None).await;
        }
    }

    /// The cron's pass over rooms with clocks: writes the games that ended on the clock (which
    /// pushes their end), and reminds the seat on move in a correspondence game when 24 hours,
    /// then 1 hour, are left (each reminder once, and none where a move has less time than that).
    pub(crate) async fn sweep_clocks(&self) -> Result<Sweep, ApiError> {
        let mut sweep = Sweep::default();
        for room in self.store().clocked_rooms(SWEEP_LIMIT).await? {
            let room = self.settle_clock(room).await?;
            if room.clock.as_ref().is_some_and(|clock| clock.ended.is_some()) {
                sweep.ended += 1;
                continue;
            }
            let Some(clock) = room.clock.clone().filter(|c| matches!(c.setting, ClockSetting::Correspondence { .. }))
            else {
                continue;
            };
            let loaded = room.load()?;
            let seats_full = loaded.room.seats.iter().all(|seat| seat.token_hash.is_some());
            let Some(colour) = loaded.to_move().filter(|_| seats_full) else { continue };
            let left_ms = clock.left_ms(colour, now());
            let full_ms = clock.setting.full_ms();
            let due = REMINDER_HOURS.into_iter().find(|h| left_ms <= h * 3_600_000 && full_ms > h * 3_600_000);
            let Some(hours) = due else { continue };
            let seat = Seat::ALL.into_iter().find(|s| loaded.room.colour_of(*s) == colour).unwrap_or(colour);
            let mark = format!("{}-{}-{hours}h", loaded.room.game_number, loaded.room.moves.len());
            sweep.reminders += self.push_notices(&loaded, &[(seat, Notice::Reminder { hours })], Some(&mark)).await;
        }
        Ok(sweep)
    }

    /// Sends each seat's notice to its subscriptions, unless its page is visible, and, with a
    /// reminder's `mark`, only to those not sent that one yet; how many were sent. A push
    /// service's 404 or 410 deletes that subscription, and so does a seat that changed hands.
    async fn push_notices(&self, room: &LoadedRoom, notices: &[(Seat, Notice)], mark: Option<&str>) -> u64 {
        let Some(notifier) = self.notifier.clone() else { return 0 };
        let id = &room.room.id;
        let subscriptions = match self.store().subscriptions(id).await {
            Ok(subscriptions) => subscriptions,
            Err(error) => {
                tracing::warn!(%error, room = id.as_str(), "subscriptions not read");
                return 0;
            }
        };
        let (at, view) = (now(), room.view());
        let mut sends = tokio::task::JoinSet::new();
        for subscription in subscriptions {
            let Some(seat) = Seat::from_number(subscription.seat) else { continue };
            if room.room.holder(seat).token_hash.as_deref() != Some(subscription.token_hash.as_str()) {
                if let Err(error) = self.store().unsubscribe(id, &subscription.endpoint).await {
                    tracing::warn!(%error, "a lapsed subscription not deleted");
                }
                continue;
            }
            let looking = room.room.looked[seat.index()].is_some_and(|t| (at - t).num_seconds() < LOOKING_SECONDS);
            let sent_before = mark.is_some() && subscription.reminded.as_deref() == mark;
            let Some((_, notice)) = notices.iter().find(|(s, _)| *s == seat) else { continue };
            if looking || sent_before {
                continue;
            }
            let payload = notice.payload(room, &view, seat).to_string();
            let notifier = Arc::clone(&notifier);
            sends.spawn(async move {
                let delivery = notifier.send(&subscription, payload.as_bytes()).await;
                (subscription, delivery)
            });
        }
        let mut sent = 0;
        while let Some(done) = sends.join_next().await {
            let outcome = match done {
                Ok((subscription, Delivery::Sent)) => {
                    sent += 1;
                    match mark {
                        Some(mark) => self.store().reminded(id, &subscription.endpoint, mark).await,
                        None => Ok(()),
                    }
                }
                Ok((subscription, Delivery::Gone)) => self.store().unsubscribe(id, &subscription.endpoint).await,
                Ok((_, Delivery::Failed(why))) => {
                    tracing::warn!(why, room = id.as_str(), "push not sent");
                    Ok(())
                }
                Err(error) => {
                    tracing::warn!(%error, "push task failed");
                    Ok(())
                }
            };
            if let Err(error) = outcome {
                tracing::warn!(%error, room = id.as_str(), "a subscription not updated");
            }
        }
        sent
    }
}
