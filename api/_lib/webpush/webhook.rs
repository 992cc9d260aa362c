//! Discord's and Slack's incoming webhooks, for players who live there: which service an address
//! is (by its path and host; a stand-in on loopback can play either), and the message each takes. The
//! text names players, whose names are theirs to choose: no mention may ping a channel.

use reqwest::Url;
use serde_json::{json, Value};

use crate::store::Channel;

/// The webhook service of `address` (`/api/webhooks/...` is Discord's, `/services/...` Slack's),
/// on that service's own host unless `any_host` (a configured list: a stand-in plays either).
pub fn channel_of(address: &Url, any_host: bool) -> Option<Channel> {
    let (path, host) = (address.path(), address.host_str().unwrap_or_default());
    if path.starts_with("/api/webhooks/") && (any_host || matches!(host, "discord.com" | "discordapp.com")) {
        Some(Channel::Discord)
    } else if path.starts_with("/services/") && (any_host || host == "hooks.slack.com") {
        Some(Channel::Slack)
    } else {
        None
    }
}

/// The webhook's JSON for a notice (`{title, body, url}` as pushed), with the room's full address
/// where the site's is known.
pub fn message(channel: Channel, notice: &Value, site: Option<&str>) -> Value {
    let field = |name: &str| notice[name].as_str().unwrap_or_default();
    let link = match site {
        Some(site) => format!("{}{}", site.trim_end_matches('/'), field("url")),
        None => field("url").to_owned(),
    };
    match channel {
        // Slack reads `<...>` as links and mentions (`<!channel>`): escaped as its docs say.
        Channel::Slack => json!({
            "text": format!("*{}*: {} {link}", slack_escape(field("title")), slack_escape(field("body"))),
        }),
        // Discord: no mention of anyone is resolved (`@everyone` in a name stays text), markdown in
        // a name stays text (no hidden links), and no link preview.
        Channel::Discord | Channel::WebPush => json!({
            "content": format!("**{}**: {} {link}", discord_escape(field("title")), discord_escape(field("body"))),
            "allowed_mentions": {"parse": []},
            "flags": 4,
        }),
    }
}
/// Markdown's characters, each behind a backslash.
fn discord_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\*_~`|[]()<>#-:".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_tells_the_service() {
        let of = |address: &str| channel_of(&Url::parse(address).unwrap(), false);
        assert_eq!(of("https://discord.com/api/webhooks/1/abc"), Some(Channel::Discord));
        assert_eq!(of("https://hooks.slack.com/services/T0/B0/x"), Some(Channel::Slack));
        assert_eq!(of("https://discord.com/channels/1"), None);
        assert_eq!(of("https://discord.com/services/T0/B0/x"), None, "Slack's path on Discord's host");
        let stand_in = Url::parse("http://localhost:9/services/T0/B0/x").unwrap();
        assert_eq!(channel_of(&stand_in, true), Some(Channel::Slack), "a configured host plays either");
        for channel in [Channel::WebPush, Channel::Discord, Channel::Slack] {
            assert_eq!(Channel::parse(channel.as_str()), Some(channel));
        }
    }

    #[test]
    fn messages_link_the_room_and_ping_no_one() {
        let notice =
            json!({"title": "Your move", "body": "Your move in Go against <!channel> @everyone", "url": "/room/abc"});
        let discord = message(Channel::Discord, &notice, Some("https://tabula.example/"));
        assert_eq!(
            discord["content"],
            "**Your move**: Your move in Go against \\<!channel\\> @everyone https://tabula.example/room/abc"
        );
        assert_eq!(discord["allowed_mentions"], json!({"parse": []}));
        let hidden = json!({"title": "Your move", "body": "against [Ana](https://evil.tld)", "url": "/room/abc"});
        let content = message(Channel::Discord, &hidden, None)["content"].as_str().unwrap().to_owned();
        assert!(content.contains("\\[Ana\\]\\(https\\://evil.tld\\)"), "a name's link stays text: {content}");
        let slack = message(Channel::Slack, &notice, None);
        assert_eq!(slack["text"], "*Your move*: Your move in Go against &lt;!channel&gt; @everyone /room/abc");
    }
}
