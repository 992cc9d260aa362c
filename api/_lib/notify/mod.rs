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

pub use self::message::{notices, Notice};
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::room::{now, LoadedRoom, RoomId};
use crate::state::AppState;
use crate::store::Subscription;
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
    subscription: PushSubscription,
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

/// The request's seat and subscription, checked: a seat token of the room, a push service on the
/// list, keys that encrypt.
async fn checked(app: &AppState, request: NotifyRequest) -> Result<(RoomId, Subscription), ApiError> {
    let notifier = notifier(app)?;
    let id = RoomId::parse(&request.room_id)?;
    let room = app.fetch(&id).await?;
    let seat = room.seat_for_token(&request.token).ok_or(ApiError::NotAPlayer)?;
    let PushSubscription { endpoint, keys } = request.subscription;
    decode_keys(&keys.p256dh, &keys.auth).map_err(ApiError::BadRequest)?;
    notifier.check_endpoint(&endpoint).await.map_err(ApiError::EndpointRefused)?;
    let subscription = Subscription {
        room_id: id.as_str().to_owned(),
        seat: seat.number(),
        token_hash: hash_token(&request.token),
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        created_at: now(),
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

impl AppState {
    /// Pushes what changed from `before` to `after` to the seats it concerns (`notices`), unless
    /// their page is visible. Best effort: a failure is logged, never the request's; a push
    /// service's 404 or 410 deletes that subscription, and so does a seat that changed hands.
    pub(crate) async fn notify(&self, before: &LoadedRoom, after: &LoadedRoom) {
        let Some(notifier) = self.notifier.clone() else { return };
        let notices = notices(before, after);
        if notices.is_empty() {
            return;
        }
        let room = &after.room;
        let subscriptions = match self.store().subscriptions(&room.id).await {
            Ok(subscriptions) => subscriptions,
            Err(error) => return tracing::warn!(%error, room = room.id.as_str(), "subscriptions not read"),
        };
        let (at, view) = (now(), after.view());
        let mut sends = tokio::task::JoinSet::new();
        for subscription in subscriptions {
            let Some(seat) = tabula_core::Seat::from_number(subscription.seat) else { continue };
            if room.holder(seat).token_hash.as_deref() != Some(subscription.token_hash.as_str()) {
                if let Err(error) = self.store().unsubscribe(&room.id, &subscription.endpoint).await {
                    tracing::warn!(%error, "a lapsed subscription not deleted");
                }
                continue;
            }
            let looking = room.looked[seat.index()].is_some_and(|t| (at - t).num_seconds() < LOOKING_SECONDS);
            let Some((_, notice)) = notices.iter().find(|(s, _)| *s == seat).filter(|_| !looking) else { continue };
            let payload = notice.payload(after, &view, seat).to_string();
            let notifier = Arc::clone(&notifier);
            sends.spawn(async move {
                let delivery = notifier.send(&subscription, payload.as_bytes()).await;
                (subscription, delivery)
            });
        }
        while let Some(sent) = sends.join_next().await {
            match sent {
                Ok((_, Delivery::Sent)) => {}
                Ok((subscription, Delivery::Gone)) => {
                    if let Err(error) = self.store().unsubscribe(&room.id, &subscription.endpoint).await {
                        tracing::warn!(%error, "an expired subscription not deleted");
                    }
                }
                Ok((_, Delivery::Failed(why))) => tracing::warn!(why, room = room.id.as_str(), "push not sent"),
                Err(error) => tracing::warn!(%error, "push task failed"),
            }
        }
    }
}
