//! Which push services a subscription may name. The endpoint comes from a browser, so the server
//! would POST wherever a page says: only `https` addresses of the known push services are taken,
//! and never one that resolves to a private, loopback or link-local address (no request forgery
//! into the deployment's network). `PUSH_SERVICE_HOSTS` replaces the list (a stand-in on loopback
//! in tests, a self-hosted push service); a host it names exactly may then resolve anywhere, and
//! plain `http` is allowed to a loopback host. A seat may name a Discord or Slack incoming webhook
//! instead of a browser: the same checks, against those two services' hosts.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::Url;

/// The push services of Chrome and Edge (FCM), Firefox, Safari and Windows: where browsers'
/// `PushManager.subscribe` endpoints point. `*.` stands for any subdomain.
pub const KNOWN_PUSH_SERVICES: [&str; 4] =
    ["fcm.googleapis.com", "updates.push.services.mozilla.com", "*.push.apple.com", "*.notify.windows.com"];

/// The hosts of Discord's and Slack's incoming webhooks (`webhook.rs` tells them apart by path).
pub const KNOWN_WEBHOOK_HOSTS: [&str; 3] = ["discord.com", "discordapp.com", "hooks.slack.com"];

/// The longest endpoint kept (browsers' are a few hundred characters).
const MAX_ENDPOINT_LEN: usize = 2048;

#[derive(Clone, Debug)]
pub struct PushHosts {
    entries: Vec<String>,
    webhook_entries: Vec<String>,
    /// From `PUSH_SERVICE_HOSTS` rather than the built-in lists (it replaces both).
    configured: bool,
    /// Addresses to use instead of asking DNS (tests).
    resolved: HashMap<String, Vec<IpAddr>>,
}

impl Default for PushHosts {
    fn default() -> PushHosts {
        PushHosts {
            entries: KNOWN_PUSH_SERVICES.map(String::from).to_vec(),
            webhook_entries: KNOWN_WEBHOOK_HOSTS.map(String::from).to_vec(),
            configured: false,
            resolved: HashMap::new(),
        }
    }
}

impl PushHosts {
    /// `PUSH_SERVICE_HOSTS`: host names (or `*.domain`) separated by commas, for push services and
    /// webhooks alike; the known services when unset.
    pub fn parse(configured: Option<&str>) -> PushHosts {
        match configured {
            None => PushHosts::default(),
            Some(list) => {
                let entries: Vec<String> =
                    list.split(',').map(|h| h.trim().to_ascii_lowercase()).filter(|h| !h.is_empty()).collect();
                PushHosts { webhook_entries: entries.clone(), entries, configured: true, resolved: HashMap::new() }
            }
        }
    }

    /// The same list, with `host` resolving to `addresses` without asking DNS (tests).
    pub fn resolving(mut self, host: &str, addresses: Vec<IpAddr>) -> PushHosts {
        self.resolved.insert(host.to_ascii_lowercase(), addresses);
        self
    }

    /// `endpoint` if a subscription may name it, or why not.
    pub async fn check(&self, endpoint: &str) -> Result<Url, String> {
        self.check_in(&self.entries, "push service", endpoint).await
    }

    /// Whether `PUSH_SERVICE_HOSTS` replaced the built-in lists.
    pub fn is_configured(&self) -> bool {
        self.configured
    }

    /// `address` if a seat may name it as its incoming webhook, or why not.
    pub async fn check_webhook(&self, address: &str) -> Result<Url, String> {
        self.check_in(&self.webhook_entries, "webhook service", address).await
    }

    async fn check_in(&self, entries: &[String], service: &str, endpoint: &str) -> Result<Url, String> {
        if endpoint.len() > MAX_ENDPOINT_LEN {
            return Err(format!("the endpoint is longer than {MAX_ENDPOINT_LEN} characters"));
        }
        let url = Url::parse(endpoint).map_err(|e| format!("the endpoint is not an address: {e}"))?;
        let host = match url.host() {
            Some(url::Host::Domain(name)) => name.to_ascii_lowercase(),
            Some(url::Host::Ipv4(ip)) => ip.to_string(),
            Some(url::Host::Ipv6(ip)) => ip.to_string(),
            None => return Err("the endpoint has no host".into()),
        };
        if !url.username().is_empty() || url.password().is_some() {
            return Err("the endpoint carries credentials".into());
        }
        let Some(named) = matches(entries, &host) else {
            return Err(format!("{host} is not a known {service}"));
        };
        let port = url.port_or_known_default().ok_or("the endpoint has no port")?;
        let addresses = self.addresses(&host, port, named && self.configured).await?;
        match url.scheme() {
            "https" => Ok(url),
            "http" if self.configured && addresses.iter().all(IpAddr::is_loopback) => Ok(url),
            _ => Err("the endpoint must be https".into()),
        }
    }

    /// `host`'s addresses, where it may be reached: public ones only, unless `exempt`.
    async fn addresses(&self, host: &str, port: u16, exempt: bool) -> Result<Vec<IpAddr>, String> {
        let addresses: Vec<IpAddr> = match self.resolved.get(host) {
            Some(addresses) => addresses.clone(),
            None => tokio::net::lookup_host((host, port))
                .await
                .map_err(|e| format!("{host} does not resolve: {e}"))?
                .map(|a| a.ip())
                .collect(),
        };
        if addresses.is_empty() {
            return Err(format!("{host} does not resolve"));
        }
        if let Some(private) = addresses.iter().find(|ip| !is_public(**ip)).filter(|_| !exempt) {
            return Err(format!("{host} resolves to a private address ({private})"));
        }
        Ok(addresses)
    }
}

/// The HTTP client's resolver for pushes and webhooks: the addresses it connects to are the ones
/// it checked, so a name whose DNS changes between the endpoint's check and the connection
/// (rebinding) still never reaches a private address.
pub struct CheckedResolver(pub PushHosts);

impl reqwest::dns::Resolve for CheckedResolver {
    fn resolve(&self, name: hyper_0_14::client::connect::dns::Name) -> reqwest::dns::Resolving {
        let hosts = self.0.clone();
        Box::pin(async move {
            let host = name.as_str().to_ascii_lowercase();
            let listed = [&hosts.entries, &hosts.webhook_entries].into_iter().map(|list| matches(list, &host));
            let Some(named) = listed.flatten().reduce(|a, b| a || b) else {
                return Err(format!("{host} is on no list").into());
            };
            // The port is the request's: the client sets it on each address.
            let addresses = hosts.addresses(&host, 443, named && hosts.configured).await?;
            let addresses: reqwest::dns::Addrs = Box::new(addresses.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addresses)
        })
    }
}

/// Whether `host` is on the list: `Some(true)` when named exactly, `Some(false)` through a `*.`
/// entry.
fn matches(entries: &[String], host: &str) -> Option<bool> {
    entries.iter().find_map(|entry| match entry.strip_prefix("*.") {
        Some(domain) => {
            host.strip_suffix(domain).is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')).then_some(false)
        }
        None => (entry == host).then_some(true),
    })
}

/// An address on the public internet: not private, loopback, link-local, shared (CGNAT),
/// documentation, benchmarking, multicast, broadcast, reserved or unspecified.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => public_v4(v4),
            None => public_v6(v6),
        },
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (18..20).contains(&b))
        || a >= 240)
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
        || ip.to_ipv4().is_some_and(|v4| !public_v4(v4)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "127.0.0.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "198.18.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:10.0.0.1",
            "::ffff:127.0.0.1",
            "2001:db8::1",
        ] {
            assert!(!is_public(ip(private)), "{private}");
        }
        for public in ["8.8.8.8", "142.250.74.10", "2a00:1450:4001::200e", "::ffff:8.8.4.4"] {
            assert!(is_public(ip(public)), "{public}");
        }
    }

    #[tokio::test]
    async fn known_services_over_https_on_public_addresses_only() {
        let hosts = PushHosts::default()
            .resolving("fcm.googleapis.com", vec![ip("142.250.74.10")])
            .resolving("web.push.apple.com", vec![ip("17.1.2.3")])
            .resolving("evil.push.apple.com", vec![ip("10.0.0.7")]);
        assert!(hosts.check("https://fcm.googleapis.com/fcm/send/abc").await.is_ok());
        assert!(hosts.check("https://web.push.apple.com/QGx").await.is_ok(), "a subdomain of a *. entry");
        let refused = [
            ("http://fcm.googleapis.com/fcm/send/abc", "https"),
            ("https://example.com/push", "not a known push service"),
            ("https://push.apple.com/x", "not a known push service"),
            ("https://fcm.googleapis.com.evil.com/x", "not a known push service"),
            ("https://user:pw@fcm.googleapis.com/x", "credentials"),
            ("https://evil.push.apple.com/x", "private address"),
            ("https://127.0.0.1/x", "not a known push service"),
            ("not a url", "not an address"),
        ];
        for (endpoint, why) in refused {
            let error = hosts.check(endpoint).await.expect_err(endpoint);
            assert!(error.contains(why), "{endpoint}: {error}");
        }
    }

    #[tokio::test]
    async fn the_client_connects_only_to_addresses_it_checked() {
        use reqwest::dns::Resolve;
        let resolve = |hosts: PushHosts, name: &'static str| async move {
            let name = name.parse().unwrap();
            CheckedResolver(hosts).resolve(name).await.map(|a| a.map(|a| a.ip()).collect::<Vec<_>>())
        };
        // The DNS answer at connection time is what counts (here: rebound to the cloud's metadata).
        let rebound = PushHosts::default().resolving("fcm.googleapis.com", vec![ip("169.254.169.254")]);
        let error = resolve(rebound, "fcm.googleapis.com").await.unwrap_err();
        assert!(error.to_string().contains("private address"), "{error}");
        let public = PushHosts::default().resolving("hooks.slack.com", vec![ip("34.226.36.46")]);
        assert_eq!(resolve(public, "hooks.slack.com").await.unwrap(), vec![ip("34.226.36.46")]);
        assert!(resolve(PushHosts::default(), "example.com").await.is_err(), "on no list");
        let named = PushHosts::parse(Some("localhost")).resolving("localhost", vec![ip("127.0.0.1")]);
        assert_eq!(resolve(named, "localhost").await.unwrap(), vec![ip("127.0.0.1")], "named in the configured list");
    }

    #[tokio::test]
    async fn webhooks_only_on_discord_and_slack() {
        let hosts = PushHosts::default()
            .resolving("discord.com", vec![ip("162.159.135.232")])
            .resolving("hooks.slack.com", vec![ip("34.226.36.46")])
            .resolving("fcm.googleapis.com", vec![ip("142.250.74.10")]);
        assert!(hosts.check_webhook("https://discord.com/api/webhooks/1/abc").await.is_ok());
        assert!(hosts.check_webhook("https://hooks.slack.com/services/T0/B0/x").await.is_ok());
        let error = hosts.check_webhook("https://fcm.googleapis.com/fcm/send/abc").await.unwrap_err();
        assert!(error.contains("not a known webhook service"), "{error}");
        let error = hosts.check("https://discord.com/api/webhooks/1/abc").await.unwrap_err();
        assert!(error.contains("not a known push service"), "a webhook is no push service: {error}");
        let error = hosts.check_webhook("http://discord.com/api/webhooks/1/abc").await.unwrap_err();
        assert!(error.contains("https"), "{error}");
    }

    #[tokio::test]
    async fn a_configured_list_replaces_the_known_one_and_lets_named_hosts_be_local() {
        let hosts = PushHosts::parse(Some("localhost, *.corp.test"))
            .resolving("localhost", vec![ip("127.0.0.1")])
            .resolving("push.corp.test", vec![ip("10.0.0.8")]);
        assert!(hosts.check("http://localhost:8090/notify/abc").await.is_ok(), "named, on loopback: http too");
        let error = hosts.check("https://push.corp.test/x").await.unwrap_err();
        assert!(error.contains("private address"), "a *. entry never reaches a private address: {error}");
        let error = hosts.check("https://fcm.googleapis.com/x").await.unwrap_err();
        assert!(error.contains("not a known push service"), "{error}");
        let hosts = PushHosts::parse(Some("push.lan")).resolving("push.lan", vec![ip("192.168.1.9")]);
        assert!(hosts.check("https://push.lan/x").await.is_ok(), "named exactly");
        assert!(hosts.check("http://push.lan/x").await.unwrap_err().contains("https"), "http only to loopback");
    }
}
