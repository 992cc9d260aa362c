//! Triplex records, the original game's server table: `POST /api/triplex/solve` stores a solve only
//! if the engine accepts its solution for that level; `GET /api/triplex/records?level=N` answers the
//! first solver, the number of solvers and their best and median times.

use axum::extract::{Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tabula_core::triplex::catalog;

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::http::within_deadline;
use crate::room::now;
use crate::state::AppState;
use crate::store::Solve;

/// This module's paths.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/triplex/solve", post(post_solve).layer(axum::middleware::from_fn(within_deadline)))
        .route("/api/triplex/records", get(get_records).layer(axum::middleware::from_fn(within_deadline)))
}

/// A name is what a player typed, trimmed, runs of spaces made one, at most this many characters.
pub const SOLVER_NAME_MAX_CHARS: usize = 24;
/// Longer than anyone plays one level in one sitting: a week.
const MAX_MS: i64 = 7 * 24 * 3600 * 1000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolveRequest {
    level: i64,
    name: String,
    ms: i64,
    /// The piece index of every cell, row by row (the shape of the level file's `solution`).
    solution: Vec<Vec<u8>>,
}

/// The name as shown in the records, or why it cannot be one.
fn solver_name(typed: &str) -> Result<String, ApiError> {
    let name = typed.split_whitespace().collect::<Vec<_>>().join(" ");
    // Direction overrides and isolates could turn the records' text around; joiners (emoji,
    // Persian, Indic scripts) are fine.
    let printable =
        name.chars().all(|c| !c.is_control() && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'));
    if name.is_empty() || name.chars().count() > SOLVER_NAME_MAX_CHARS || !printable {
        return Err(ApiError::BadRequest(format!("name must be 1 to {SOLVER_NAME_MAX_CHARS} printable characters")));
    }
    Ok(name)
}

fn known_level(number: i64) -> Result<&'static tabula_core::triplex::Level, ApiError> {
    usize::try_from(number).ok().and_then(catalog::level).ok_or(ApiError::LevelNotFound(number))
}

pub(crate) async fn post_solve(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<SolveRequest>,
) -> Result<Response, ApiError> {
    let name = solver_name(&request.name)?;
    if !(1..=MAX_MS).contains(&request.ms) {
        return Err(ApiError::BadRequest(format!("ms must be a whole number from 1 to {MAX_MS}")));
    }
    let level = known_level(request.level)?;
    level.check_solution(&request.solution).map_err(|e| ApiError::WrongSolution(e.to_string()))?;
    let solve = Solve { level: request.level, name, ms: request.ms, solved_at: now() };
    app.store().add_solve(&solve).await?;
    records(&app, request.level).await
}

#[derive(Deserialize)]
pub(crate) struct RecordsQuery {
    level: Option<String>,
}

pub(crate) async fn get_records(
    State(app): State<AppState>,
    query: Result<Query<RecordsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let text = query.level.ok_or_else(|| ApiError::BadRequest("level is required".into()))?;
    let number = text.parse::<i64>().map_err(|_| ApiError::BadRequest("level must be a whole number".into()))?;
    known_level(number)?;
    records(&app, number).await
}

async fn records(app: &AppState, level: i64) -> Result<Response, ApiError> {
    let records = app.store().records(level).await?;
    let first = records.first_name.map(|name| json!({"name": name, "ms": records.first_ms, "at": records.first_at}));
    let body = json!({
        "level": level,
        "first": first,
        "solvers": records.solvers,
        "bestMs": records.best_ms,
        "medianMs": records.median_ms,
    });
    let mut response = Json(body).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_and_limited() {
        assert_eq!(solver_name("  Ann   the\tGreat ").unwrap(), "Ann the Great");
        assert!(solver_name("   ").is_err());
        assert!(solver_name(&"x".repeat(25)).is_err());
        assert_eq!(solver_name(&"é".repeat(24)).unwrap().chars().count(), 24);
        assert!(solver_name("bad\u{7}bell").is_err());
        assert!(solver_name("flip\u{202e}sdrawkcab").is_err(), "no direction overrides");
        assert!(solver_name("iso\u{2067}late").is_err(), "no direction isolates");
        assert_eq!(solver_name("👨\u{200d}👩\u{200d}👧").unwrap(), "👨\u{200d}👩\u{200d}👧", "joiners in emoji stay");
        assert!(solver_name("می\u{200c}خواهم").is_ok(), "the zero-width non-joiner Persian needs");
    }
}
