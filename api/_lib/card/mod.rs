//! Share cards: what a link to a room shows where it is pasted. A link-preview crawler (it runs no
//! JavaScript) asking for `/room/<code>` is sent a small page whose `og:` and `twitter:` tags name
//! the game and the players and point at `GET /api/card?roomId=<code>`, a PNG of the room's board
//! drawn here (`draw.rs`). People get the site's room page as always.
//!
//! Crawlers are told apart by their User-Agent: on Vercel by a rewrite in `vercel.json`, whose
//! pattern is [`vercel_agent_pattern`] (a test keeps the two equal), and in `tabula serve` by
//! [`send_link_previews_to_cards`]. An unknown room gets the site's generic card, never an error.

mod chess;
pub mod draw;
mod edges;
mod go;
mod popucom;

use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Uri};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use serde_json::Value;

use crate::error::ApiError;
use crate::http::within_deadline;
use crate::room::RoomId;
use crate::state::AppState;

/// This module's path (`/room/<code>` for crawlers is `routes::function_router`'s).
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/card", get(get_card).layer(axum::middleware::from_fn(within_deadline)))
}

/// What the User-Agent of a link-preview crawler contains (as they send it, case and all).
pub const LINK_PREVIEW_AGENTS: &[&str] = &[
    "facebookexternalhit",
    "Facebot",
    "Twitterbot",
    "Slackbot",
    "Slack-ImgProxy",
    "Discordbot",
    "TelegramBot",
    "WhatsApp",
    "LinkedInBot",
    "SkypeUriPreview",
    "Pinterest",
    "redditbot",
    "Embedly",
    "Iframely",
    "vkShare",
    "Mastodon",
    "Bluesky",
    "Googlebot",
    "bingbot",
    "Applebot",
];

pub fn is_link_preview(user_agent: &str) -> bool {
    LINK_PREVIEW_AGENTS.iter().any(|agent| user_agent.contains(agent))
}

/// The `has` value of `vercel.json`'s rewrite of `/room/:code` for crawlers.
pub fn vercel_agent_pattern() -> String {
    format!(".*({}).*", LINK_PREVIEW_AGENTS.join("|"))
}

/// The address a crawler's `/room/<code>` is answered from (Vercel's rewrite says the same).
pub(crate) fn card_page_uri(code: &str) -> Option<Uri> {
    let id = RoomId::parse(code).ok()?;
    format!("/api/card?roomId={}&format=html", id.as_str()).parse().ok()
}

/// `tabula serve`'s side of the crawler rewrite: a GET of `/room/<code>` by a link-preview crawler
/// becomes `/api/card?roomId=<code>&format=html`. Wraps the whole app, as it must run before routing.
pub async fn send_link_previews_to_cards(mut request: Request, next: Next) -> Response {
    let code = request.uri().path().strip_prefix("/room/").map(|rest| rest.trim_end_matches('/').to_owned());
    let crawler =
        request.headers().get(header::USER_AGENT).and_then(|agent| agent.to_str().ok()).is_some_and(is_link_preview);
    if let (Some(code), true, true) = (code, crawler, request.method() == Method::GET) {
        *request.uri_mut() = card_page_uri(&code).unwrap_or_else(|| Uri::from_static("/api/card?format=html"));
    }
    next.run(request).await
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardQuery {
    room_id: Option<String>,
    /// `html`: the crawler's page; anything else, the PNG.
    format: Option<String>,
}

/// `GET /api/card?roomId=R[&format=html]`: the room's card image, or the page that shows it.
pub async fn get_card(
    State(app): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<CardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    // A card never fails on its address: what cannot be read is the generic card.
    let (room_id, format) = query.map_or((None, None), |Query(q)| (q.room_id, q.format));
    card(&app, &headers, room_id.as_deref(), format.as_deref() == Some("html")).await
}

/// `GET /room/<code>` inside a Vercel function: reached only through the crawler rewrite, if the
/// platform hands the function the address asked for rather than the rewrite's destination.
pub async fn get_room_card_page(
    State(app): State<AppState>,
    headers: HeaderMap,
    Path(code): Path<String>,
) -> Result<Response, ApiError> {
    card(&app, &headers, Some(&code), true).await
}

async fn card(app: &AppState, headers: &HeaderMap, room_id: Option<&str>, page: bool) -> Result<Response, ApiError> {
    let id = room_id.and_then(|raw| RoomId::parse(raw).ok());
    let view = match &id {
        Some(id) => match app.store().load(id).await? {
            Some(room) => Some(app.open(room)?.view()),
            None => None,
        },
        None => None,
    };
    if page {
        let mut response = Html(card_page(view.as_ref(), &origin(headers))).into_response();
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        return Ok(response);
    }
    let png = view.as_ref().map_or_else(draw::generic_card, draw::room_card);
    let mut response = png.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    // The page's image address carries the room's version, so a short life is only for the bare one.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"));
    Ok(response)
}

/// `https://host` as the request reached us (behind Vercel or a proxy, from its forwarding
/// headers), for the absolute addresses `og:` tags need; empty (relative addresses) if unknown.
fn origin(headers: &HeaderMap) -> String {
    let value = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let host = value("x-forwarded-host").or_else(|| value("host")).unwrap_or("");
    let plain_host = |h: &str| !h.is_empty() && h.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
    if !plain_host(host) {
        return String::new();
    }
    let scheme = if value("x-forwarded-proto") == Some("https") { "https" } else { "http" };
    format!("{scheme}://{host}")
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What a card knows of one game: its name in views, its title, its colours' names (colour 1
/// first, as its page says them) and its board's drawing. Each game's is in its file.
pub struct GameCard {
    pub name: &'static str,
    pub title: fn(&Value) -> String,
    pub colours: [&'static str; 2],
    pub draw: fn(&mut draw::Canvas, &Value) -> Option<draw::Sides>,
}

/// Every game a card draws: a line per game.
const GAMES: [&GameCard; 4] = [&popucom::CARD, &go::CARD, &edges::CARD, &chess::CARD];

fn game_of(view: &Value) -> Option<&'static GameCard> {
    GAMES.into_iter().find(|game| view["game"].as_str() == Some(game.name))
}

pub(crate) fn game_title(view: &Value) -> String {
    game_of(view).map_or_else(|| "A game".into(), |game| (game.title)(view))
}

fn colour_names(view: &Value) -> [&'static str; 2] {
    game_of(view).map_or(["Black", "White"], |game| game.colours)
}

/// The title and description of a room's card.
fn room_text(view: &Value) -> (String, String) {
    let game = game_title(view);
    let colours = colour_names(view);
    // Seat holders by colour, colour 1 first.
    let mut players: [Option<String>; 2] = [None, None];
    let mut free = false;
    for seat in view["seats"].as_array().into_iter().flatten() {
        let Some(colour) = seat["colour"].as_u64().filter(|c| (1..=2).contains(c)) else { continue };
        if seat["taken"].as_bool() == Some(true) {
            let name = seat["name"].as_str().unwrap_or(colours[colour as usize - 1]);
            players[colour as usize - 1] = Some(name.to_owned());
        } else {
            free = true;
        }
    }
    let moves = view["moves"].as_array().map_or(0, Vec::len);
    let state = &view["state"];
    let title = match &players {
        [Some(one), Some(two)] => format!("{one} vs {two}: {game}"),
        [Some(one), None] | [None, Some(one)] => format!("{one} is waiting for an opponent: {game}"),
        [None, None] => format!("A room of {game}"),
    };
    let on_time = if state["result"]["reason"] == "timeout" { " on time" } else { "" };
    let description = if state["result"]["reason"] == "aborted" {
        "Game over: aborted, a first move was not made in time.".to_owned()
    } else if state["result"].is_object() {
        match state["result"]["winner"].as_u64() {
            Some(w @ 1..=2) => format!("Game over: {} won{on_time} after {moves} moves.", colours[w as usize - 1]),
            _ => format!("Game over: a draw after {moves} moves."),
        }
    } else if free {
        "A seat is free: open the link to play, on Tabula.".to_owned()
    } else {
        let to_move = state["to_move"].as_u64().filter(|c| (1..=2).contains(c));
        let turn = to_move.map_or(String::new(), |c| format!(", {} to move", colours[c as usize - 1]));
        format!("Move {}{turn}. Open the link to watch, on Tabula.", moves + 1)
    };
    match clock_words(&view["clock"]) {
        Some(clock) => (title, format!("{description} Clock: {clock}.")),
        None => (title, description),
    }
}

/// A room's time control in words (`5 min + 3 s a move`, `correspondence, 3-day moves`).
fn clock_words(clock: &Value) -> Option<String> {
    match clock["kind"].as_str()? {
        "live" => {
            let (seconds, increment) = (clock["initialSeconds"].as_u64()?, clock["incrementSeconds"].as_u64()?);
            let minutes = match seconds % 60 {
                0 => (seconds / 60).to_string(),
                rest => format!("{}:{rest:02}", seconds / 60),
            };
            Some(format!("{minutes} min + {increment} s a move"))
        }
        "correspondence" => Some(format!("correspondence, {}-day moves", clock["daysPerMove"].as_u64()?)),
        _ => None,
    }
}

const GENERIC_TITLE: &str = "Tabula: board games with a friend, online";
const GENERIC_DESCRIPTION: &str =
    "Play POPUCOM three-match chess, Go, Edges & Blocks and chess variants in your browser: every move checked by the rules.";

/// The page a crawler gets for a room (or the generic one), with absolute addresses from `origin`.
/// Rooms stay out of search engines (Googlebot is among the crawlers), as their pages do.
fn card_page(view: Option<&Value>, origin: &str) -> String {
    let (title, description, page, image) = match view {
        Some(view) => {
            let (title, description) = room_text(view);
            let id = view["roomId"].as_str().unwrap_or_default();
            let version = view["version"].as_i64().unwrap_or_default();
            (title, description, format!("/room/{id}"), format!("/api/card?roomId={id}&v={version}"))
        }
        None => (GENERIC_TITLE.to_owned(), GENERIC_DESCRIPTION.to_owned(), "/".to_owned(), "/api/card".to_owned()),
    };
    let (title, description) = (escape(&title), escape(&description));
    let (page, image) = (escape(&format!("{origin}{page}")), escape(&format!("{origin}{image}")));
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<meta name="description" content="{description}">
<meta name="robots" content="noindex">
<link rel="canonical" href="{page}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Tabula">
<meta property="og:title" content="{title}">
<meta property="og:description" content="{description}">
<meta property="og:url" content="{page}">
<meta property="og:image" content="{image}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="{width}">
<meta property="og:image:height" content="{height}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="{title}">
<meta name="twitter:description" content="{description}">
<meta name="twitter:image" content="{image}">
</head>
<body>
<h1>{title}</h1>
<p>{description}</p>
<p><a href="{page}">Open it on Tabula</a></p>
</body>
</html>
"#,
        width = draw::WIDTH,
        height = draw::HEIGHT,
    )
}

#[cfg(test)]
mod tests;
