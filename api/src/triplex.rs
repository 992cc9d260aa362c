//! Triplex records, the original game's server table: `POST /api/triplex/solve` stores a solve only
//! if the engine accepts its solution for that level; `GET /api/triplex/records?level=N` answers the
//! first solver, the number of solvers and their best and median times.

use axum::extract::{Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tabula_core::triplex::catalog;

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::room::now;
use crate::routes::AppState;
use crate::store::Solve;

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
    let printable =
        name.chars().all(|c| !c.is_control() && !matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'));
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
    let solves = app.store().solves(level).await?;
    let mut response = Json(summary(level, &solves)).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(response)
}

/// The records of one level from its solves (oldest first). Each name counts once, with its best
/// time: the number of solvers, and the best and median of those times (the lower middle one when
/// there are an even number).
pub fn summary(level: i64, solves: &[Solve]) -> Value {
    let first = solves.first().map(|s| json!({"name": s.name, "ms": s.ms, "at": s.solved_at}));
    let mut best_by_name: Vec<(&str, i64)> = Vec::new();
    for solve in solves {
        match best_by_name.iter_mut().find(|(name, _)| *name == solve.name) {
            Some((_, best)) => *best = (*best).min(solve.ms),
            None => best_by_name.push((&solve.name, solve.ms)),
        }
    }
    let mut times: Vec<i64> = best_by_name.iter().map(|&(_, ms)| ms).collect();
    times.sort_unstable();
    let median = times.len().checked_sub(1).map(|last| times[last / 2]);
    json!({
        "level": level,
        "first": first,
        "solvers": times.len(),
        "bestMs": times.first(),
        "medianMs": median,
    })
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, Utc};

    use super::*;

    fn solve(name: &str, ms: i64, minute: i64) -> Solve {
        let at = chrono::DateTime::<Utc>::UNIX_EPOCH + Duration::minutes(minute);
        Solve { level: 3, name: name.into(), ms, solved_at: at }
    }

    #[test]
    fn each_name_counts_once_with_its_best_time() {
        let solves = [solve("ann", 9000, 0), solve("bob", 4000, 1), solve("ann", 3000, 2), solve("cy", 7000, 3)];
        let records = summary(3, &solves);
        assert_eq!(records["first"]["name"], "ann");
        assert_eq!(records["first"]["ms"], 9000, "the first solve, not ann's best");
        assert_eq!(records["solvers"], 3);
        assert_eq!(records["bestMs"], 3000);
        assert_eq!(records["medianMs"], 4000, "of ann 3000, bob 4000, cy 7000");
        let two = summary(3, &solves[..2]);
        assert_eq!(two["medianMs"], 4000, "the lower middle of 4000 and 9000");
    }

    #[test]
    fn a_level_nobody_solved_has_empty_records() {
        let records = summary(5, &[]);
        assert_eq!((records["first"].is_null(), &records["solvers"]), (true, &json!(0)));
        assert!(records["bestMs"].is_null() && records["medianMs"].is_null());
    }

    #[test]
    fn names_are_cleaned_and_limited() {
        assert_eq!(solver_name("  Ann   the\tGreat ").unwrap(), "Ann the Great");
        assert!(solver_name("   ").is_err());
        assert!(solver_name(&"x".repeat(25)).is_err());
        assert_eq!(solver_name(&"é".repeat(24)).unwrap().chars().count(), 24);
        assert!(solver_name("bad\u{7}bell").is_err());
        assert!(solver_name("flip\u{202e}sdrawkcab").is_err(), "no direction overrides");
    }
}
