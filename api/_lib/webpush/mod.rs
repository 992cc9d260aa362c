//! Web Push (RFC 8030): the payload encrypted for the browser (RFC 8291, `aes128gcm`), signed with
//! the deployment's VAPID key (RFC 8292), sent only to known push services (`endpoint.rs`). What
//! is pushed, and when, is `notify/`'s. A seat may have a Discord or Slack webhook instead
//! (`webhook.rs`), sent the same notices.

mod endpoint;
mod vapid;
mod webhook;

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

pub use self::endpoint::{is_public, CheckedResolver, PushHosts, KNOWN_PUSH_SERVICES, KNOWN_WEBHOOK_HOSTS};
pub use self::vapid::VapidKeys;
pub use self::webhook::channel_of;
use crate::store::{Channel, Subscription};

/// How long one push may take: it is sent before the move's answer (a function may be frozen once
/// it has answered), so a slow push service costs the mover at most this.
const PUSH_DEADLINE: Duration = Duration::from_secs(3);
/// How long a push service keeps a notification for an offline browser.
const TTL_SECONDS: u32 = 24 * 3600;

/// Sends Web Push: the keys, the push services allowed, an HTTP client, and the site's address for
/// the links webhooks post.
pub struct Notifier {
    keys: VapidKeys,
    hosts: PushHosts,
    client: reqwest::Client,
    site: Option<String>,
}

impl Notifier {
    pub fn new(keys: VapidKeys, hosts: PushHosts) -> Notifier {
        // No redirects: a push service that redirects would lead the server past the host check.
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(PUSH_DEADLINE);
        // No proxy from the environment either: the resolver would refuse its address.
        let client = client.no_proxy().dns_resolver(std::sync::Arc::new(CheckedResolver(hosts.clone())));
        Notifier { keys, hosts, client: client.build().expect("a plain HTTP client builds"), site: None }
    }

    /// With the site's public address (`https://tabula.example`), which webhooks' links start with.
    pub fn with_site(mut self, site: Option<String>) -> Notifier {
        self.site = site;
        self
    }

    /// `address` if a seat may name it as its incoming webhook, and which service it is, or why not.
    pub async fn check_webhook(&self, address: &str) -> Result<(reqwest::Url, Channel), String> {
        let url = self.hosts.check_webhook(address).await?;
        let channel = channel_of(&url, self.hosts.is_configured())
            .ok_or("not an incoming webhook's address (Discord's or Slack's, on its own host)")?;
        Ok((url, channel))
    }

    /// What pages subscribe with (`applicationServerKey`).
    pub fn public_key(&self) -> &str {
        self.keys.public_key()
    }

    /// `endpoint` if a subscription may name it, or why not.
    pub async fn check_endpoint(&self, endpoint: &str) -> Result<reqwest::Url, String> {
        self.hosts.check(endpoint).await
    }
}

/// The browser's key and secret, if they are a P-256 point and 16 bytes.
pub(crate) fn decode_keys(p256dh: &str, auth: &str) -> Result<(p256::PublicKey, web_push_native::Auth), String> {
    let point = URL_SAFE_NO_PAD.decode(p256dh.trim_end_matches('=')).map_err(|_| "keys.p256dh is not base64url")?;
    let public = p256::PublicKey::from_sec1_bytes(&point).map_err(|_| "keys.p256dh is not a P-256 public key")?;
    let secret = URL_SAFE_NO_PAD.decode(auth.trim_end_matches('=')).map_err(|_| "keys.auth is not base64url")?;
    if secret.len() != 16 {
        return Err("keys.auth must be 16 bytes".into());
    }
    Ok((public, web_push_native::Auth::clone_from_slice(&secret)))
}

/// What a push service said.
pub(crate) enum Delivery {
    Sent,
    /// 404 or 410: the browser unsubscribed, or the subscription expired.
    Gone,
    Failed(String),
}

impl Notifier {
    pub(crate) async fn send(&self, subscription: &Subscription, payload: &[u8]) -> Delivery {
        if subscription.kind != Channel::WebPush {
            return self.post_webhook(subscription, payload).await;
        }
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
        delivery(request.send().await)
    }

    /// A notice (the push's JSON) as the webhook's message.
    async fn post_webhook(&self, subscription: &Subscription, payload: &[u8]) -> Delivery {
        let url = match self.check_webhook(&subscription.endpoint).await {
            Ok((url, _)) => url,
            Err(why) => return Delivery::Failed(why),
        };
        let notice = serde_json::from_slice(payload).unwrap_or_default();
        let message = webhook::message(subscription.kind, &notice, self.site.as_deref());
        let request = self.client.post(url).header("Content-Type", "application/json").body(message.to_string());
        delivery(request.send().await)
    }
}

/// 404 or 410: the subscription or webhook is gone; any other failure is kept and tried again.
fn delivery(answer: reqwest::Result<reqwest::Response>) -> Delivery {
    match answer {
        Ok(response) if response.status().is_success() => Delivery::Sent,
        Ok(response) if matches!(response.status().as_u16(), 404 | 410) => Delivery::Gone,
        Ok(response) => Delivery::Failed(format!("the service answered {}", response.status())),
        // Without the address: a webhook's is a secret, and this goes to the log.
        Err(error) => Delivery::Failed(error.without_url().to_string()),
    }
}
