//! "Your move" notifications that reach a closed tab: Web Push (RFC 8030), the payload encrypted
//! for the browser (RFC 8291, `aes128gcm`) and signed with the deployment's VAPID key (RFC 8292).
//! No account: a seated player's page subscribes with its seat token (`POST /api/notify`), and a
//! change that gives that seat the move, or ends its game, is pushed to it unless its page is
//! visible (its polls say so). Off where no VAPID keys are set (`GET /api/notify` answers 404).

mod endpoint;
mod message;
mod vapid;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::Deserialize;
use serde_json::{json, Value};

pub use self::endpoint::{is_public, PushHosts, KNOWN_PUSH_SERVICES};
pub use self::message::{notices, Notice};
pub use self::vapid::VapidKeys;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::room::{now, LoadedRoom, RoomId};
use crate::state::AppState;
use crate::store::Subscription;
use crate::token::hash_token;

/// The most subscriptions a seat keeps (a phone and a computer, and a browser that subscribed
/// anew); a further one replaces the oldest.
pub const SUBSCRIPTIONS_PER_SEAT: usize = 5;
/// How long one push may take: it is sent before the move's answer (a function may be frozen once
/// it has answered), so a slow push service costs the mover at most this.
const PUSH_DEADLINE: Duration = Duration::from_secs(3);
/// A seat whose page polled while visible this recently is looking at the room: no push. Longer
/// than a visible page's slowest poll (`site/src/play/pacing.rs`: 45 s with a working push channel).
pub const LOOKING_SECONDS: i64 = 60;
/// How long a push service keeps a notification for an offline browser.
const TTL_SECONDS: u32 = 24 * 3600;

/// Sends Web Push: the keys, the push services allowed, an HTTP client.
pub struct Notifier {
    keys: VapidKeys,
    hosts: PushHosts,
    client: reqwest::Client,
}

impl Notifier {
    pub fn new(keys: VapidKeys, hosts: PushHosts) -> Notifier {
        // No redirects: a push service that redirects would lead the server past the host check.
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(PUSH_DEADLINE);
        Notifier { keys, hosts, client: client.build().expect("a plain HTTP client builds") }
    }
}

/// This module's paths.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/notify", get(public_key).post(subscribe).delete(unsubscribe))
}

fn notifier(app: &AppState) -> Result<&Notifier, ApiError> {
    app.notifier.as_deref().ok_or(ApiError::NotConfigured)
}

/// `{"publicKey"}`: what pages subscribe with.
async fn public_key(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({"publicKey": notifier(&app)?.keys.public_key()})))
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
    notifier.hosts.check(&endpoint).await.map_err(ApiError::EndpointRefused)?;
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

/// The browser's key and secret, if they are a P-256 point and 16 bytes.
fn decode_keys(p256dh: &str, auth: &str) -> Result<(p256::PublicKey, web_push_native::Auth), String> {
    let point = URL_SAFE_NO_PAD.decode(p256dh.trim_end_matches('=')).map_err(|_| "keys.p256dh is not base64url")?;
    let public = p256::PublicKey::from_sec1_bytes(&point).map_err(|_| "keys.p256dh is not a P-256 public key")?;
    let secret = URL_SAFE_NO_PAD.decode(auth.trim_end_matches('=')).map_err(|_| "keys.auth is not base64url")?;
    if secret.len() != 16 {
        return Err("keys.auth must be 16 bytes".into());
    }
    Ok((public, web_push_native::Auth::clone_from_slice(&secret)))
}

/// What a push service said.
enum Delivery {
    Sent,
    /// 404 or 410: the browser unsubscribed, or the subscription expired.
    Gone,
    Failed(String),
}

impl Notifier {
    async fn send(&self, subscription: &Subscription, payload: &[u8]) -> Delivery {
        let url = match self.hosts.check(&subscription.endpoint).await {
            Ok(url) => url,
            Err(why) => return Delivery::Failed(why),
        };
        let (public, auth) = match decode_keys(&subscription.p256dh, &subscription.auth) {
            Ok(keys) => keys,
            Err(why) => return Delivery::Failed(why),
        };
        let body = match web_push_native::encrypt(payload.to_vec(), &public, &auth) {
            Ok(body) => body,
            Err(error) => return Delivery::Failed(format!("encrypting: {error}")),
        };
        let authorization = match self.keys.authorization(&url, chrono::Utc::now().timestamp()) {
            Ok(header) => header,
            Err(why) => return Delivery::Failed(why),
        };
        let request = self
            .client
            .post(url)
            .header("TTL", TTL_SECONDS)
            .header("Urgency", "high")
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Authorization", authorization)
            .body(body);
        match request.send().await {
            Ok(response) if response.status().is_success() => Delivery::Sent,
            Ok(response) if matches!(response.status().as_u16(), 404 | 410) => Delivery::Gone,
            Ok(response) => Delivery::Failed(format!("the push service answered {}", response.status())),
            Err(error) => Delivery::Failed(error.to_string()),
        }
    }
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
