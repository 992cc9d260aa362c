//! The deployment's VAPID key pair (RFC 8292): push services take a push only with a token signed
//! by the key the browser subscribed with. Read from `VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY` and
//! `VAPID_SUBJECT`, never from a file; `tabula vapid-keys` prints a fresh pair.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::EncodePrivateKey;
use p256::SecretKey;
use reqwest::Url;
use serde::Serialize;

/// How long a signed token stays valid (push services take at most 24 hours).
const TOKEN_SECONDS: i64 = 12 * 3600;

pub struct VapidKeys {
    /// The uncompressed public point, base64url: what pages subscribe with (`applicationServerKey`).
    public_key: String,
    signing: EncodingKey,
    /// `mailto:` or `https:` contact for the push services.
    subject: String,
}

/// Never prints the private key.
impl std::fmt::Debug for VapidKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKeys").field("public_key", &self.public_key).field("subject", &self.subject).finish()
    }
}

#[derive(Serialize)]
struct Claims<'a> {
    aud: String,
    exp: i64,
    sub: &'a str,
}

impl VapidKeys {
    /// The pair, checked: the private key must be the public key's, the subject a contact.
    pub fn new(public_key: &str, private_key: &str, subject: &str) -> Result<VapidKeys, String> {
        let bytes = URL_SAFE_NO_PAD
            .decode(private_key.trim().trim_end_matches('='))
            .map_err(|_| "VAPID_PRIVATE_KEY is not base64url".to_owned())?;
        let secret = SecretKey::from_slice(&bytes).map_err(|_| "VAPID_PRIVATE_KEY is not a P-256 key".to_owned())?;
        let derived = public_key_text(&secret);
        if derived != public_key.trim().trim_end_matches('=') {
            return Err("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY".into());
        }
        if !(subject.starts_with("mailto:") || subject.starts_with("https://")) {
            return Err("VAPID_SUBJECT must be a mailto: or https: address".into());
        }
        let der = secret.to_pkcs8_der().map_err(|e| format!("VAPID_PRIVATE_KEY: {e}"))?;
        Ok(VapidKeys {
            public_key: derived,
            signing: EncodingKey::from_ec_der(der.as_bytes()),
            subject: subject.into(),
        })
    }

    /// A fresh pair, base64url: (public, private).
    pub fn generate() -> Result<(String, String), String> {
        loop {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
            // Almost every 32 bytes are a key; the rest (zero, or past the group order) are drawn again.
            if let Ok(secret) = SecretKey::from_slice(&bytes) {
                return Ok((public_key_text(&secret), URL_SAFE_NO_PAD.encode(secret.to_bytes())));
            }
        }
    }

    pub fn public_key(&self) -> &str {
        &self.public_key
    }

    /// The `Authorization` header of a push to `endpoint` sent at `now` (Unix seconds): a token for
    /// the push service's origin, and the public key it verifies with.
    pub fn authorization(&self, endpoint: &Url, now: i64) -> Result<String, String> {
        let claims =
            Claims { aud: endpoint.origin().ascii_serialization(), exp: now + TOKEN_SECONDS, sub: &self.subject };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::ES256), &claims, &self.signing)
            .map_err(|e| format!("signing the VAPID token: {e}"))?;
        Ok(format!("vapid t={token}, k={}", self.public_key))
    }
}

fn public_key_text(secret: &SecretKey) -> String {
    URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false).as_bytes())
}

#[cfg(test)]
mod tests {
    use jsonwebtoken::{DecodingKey, Validation};

    use super::*;

    #[test]
    fn a_generated_pair_signs_tokens_its_public_key_verifies() {
        let (public, private) = VapidKeys::generate().unwrap();
        let keys = VapidKeys::new(&public, &private, "mailto:ops@example.com").unwrap();
        let endpoint = Url::parse("https://fcm.googleapis.com/fcm/send/abc?x=1").unwrap();
        let now = chrono::Utc::now().timestamp();
        let header = keys.authorization(&endpoint, now).unwrap();
        let (token, key) = header.strip_prefix("vapid t=").unwrap().split_once(", k=").unwrap();
        assert_eq!(key, public);
        let point = URL_SAFE_NO_PAD.decode(key).unwrap();
        assert_eq!((point.len(), point[0]), (65, 4), "an uncompressed P-256 point");
        let (x, y) = (URL_SAFE_NO_PAD.encode(&point[1..33]), URL_SAFE_NO_PAD.encode(&point[33..]));
        let decoding = DecodingKey::from_ec_components(&x, &y).unwrap();
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&["https://fcm.googleapis.com"]);
        let claims = jsonwebtoken::decode::<serde_json::Value>(token, &decoding, &validation).unwrap().claims;
        assert_eq!(claims["sub"], "mailto:ops@example.com");
        assert_eq!(claims["exp"], now + TOKEN_SECONDS);
        // Another pair's key does not verify it.
        let (other, _) = VapidKeys::generate().unwrap();
        let other = URL_SAFE_NO_PAD.decode(other).unwrap();
        let (x, y) = (URL_SAFE_NO_PAD.encode(&other[1..33]), URL_SAFE_NO_PAD.encode(&other[33..]));
        assert!(jsonwebtoken::decode::<serde_json::Value>(
            token,
            &DecodingKey::from_ec_components(&x, &y).unwrap(),
            &validation
        )
        .is_err());
    }

    #[test]
    fn mismatched_or_malformed_keys_are_refused() {
        let (public, private) = VapidKeys::generate().unwrap();
        let (other_public, _) = VapidKeys::generate().unwrap();
        let subject = "https://tabula.example";
        assert!(VapidKeys::new(&other_public, &private, subject).unwrap_err().contains("not the public key"));
        assert!(VapidKeys::new(&public, "***", subject).unwrap_err().contains("base64url"));
        assert!(VapidKeys::new(&public, "AAAA", subject).unwrap_err().contains("P-256"));
        assert!(VapidKeys::new(&public, &private, "ops@example.com").unwrap_err().contains("VAPID_SUBJECT"));
        assert!(VapidKeys::new(&public, &private, subject).is_ok());
    }
}
