//! The plans' quotas (`docs/capacity-quotas.json`) against the counts per game-hour: how many
//! game-hours a month and how many games at once each quota allows, and which binds first.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

const HOURS_A_MONTH: f64 = 730.0;

/// What one quota allows: game-hours a month and concurrent (always-on) games.
struct Allowance {
    game_hours: f64,
    concurrent: f64,
}

/// `per_game_hour`: each measure per game-hour; `per_game`: measures counted per game in progress
/// (connections held, functions running at once).
fn allowance(
    quota: &Value,
    per_game_hour: &BTreeMap<String, f64>,
    per_game: &BTreeMap<String, f64>,
) -> Option<Allowance> {
    let limit = quota["limit"].as_f64()?;
    let measure = quota["measure"].as_str()?;
    let allowance = match quota["per"].as_str()? {
        "month" => {
            let game_hours = limit / per_game_hour.get(measure)?;
            Allowance { game_hours, concurrent: game_hours / HOURS_A_MONTH }
        }
        "second" => {
            let concurrent = limit / (per_game_hour.get(measure)? / 3600.0);
            Allowance { game_hours: concurrent * HOURS_A_MONTH, concurrent }
        }
        "concurrent" => {
            let concurrent = limit / per_game.get(measure)?;
            Allowance { game_hours: concurrent * HOURS_A_MONTH, concurrent }
        }
        _ => return None,
    };
    allowance.game_hours.is_finite().then_some(allowance)
}

fn round(x: f64) -> String {
    match x {
        x if x >= 1e7 => format!("{:.1}M", x / 1e6),
        x if x >= 100.0 => format!("{:.0}", x),
        x => format!("{x:.1}"),
    }
}

/// A Markdown table per plan; the binding quota is the hard one allowing the fewest game-hours.
pub fn report(quotas: &Value, per_game_hour: &BTreeMap<String, f64>, per_game: &BTreeMap<String, f64>) -> String {
    let mut out = String::new();
    for plan in quotas["plans"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "\n### {} ({})\n",
            plan["name"].as_str().unwrap_or("?"),
            plan["services"].as_str().unwrap_or("")
        );
        let _ = writeln!(out, "| quota | limit | per game-hour (or per game) | game-hours a month | games at once |");
        let _ = writeln!(out, "|---|---:|---:|---:|---:|");
        let mut binding: Option<(String, f64, f64)> = None;
        for quota in plan["quotas"].as_array().into_iter().flatten() {
            let what = quota["what"].as_str().unwrap_or("?");
            let measure = quota["measure"].as_str().unwrap_or("?");
            let used = match quota["per"].as_str() {
                Some("concurrent") => per_game.get(measure).map(|u| format!("{} per game", round(*u))),
                _ => per_game_hour.get(measure).map(|u| round(*u)),
            }
            .unwrap_or_else(|| "not counted".into());
            let hard = quota["hard"].as_bool().unwrap_or(true);
            let limit = quota["limit"].as_f64().unwrap_or(0.0);
            let per = quota["per"].as_str().unwrap_or("");
            let limit_text = if limit > 0.0 { format!("{} / {per}", round(limit)) } else { "none".into() };
            match allowance(quota, per_game_hour, per_game).filter(|_| limit > 0.0) {
                Some(a) => {
                    let note = if hard { "" } else { " (included, then billed)" };
                    let _ = writeln!(
                        out,
                        "| {what}{note} | {limit_text} | {used} | {} | {} |",
                        round(a.game_hours),
                        round(a.concurrent)
                    );
                    if hard && binding.as_ref().is_none_or(|(_, hours, _)| a.game_hours < *hours) {
                        binding = Some((what.to_owned(), a.game_hours, a.concurrent));
                    }
                }
                None => {
                    let _ = writeln!(out, "| {what} | {limit_text} | {used} | - | - |");
                }
            }
        }
        if let Some((what, hours, concurrent)) = binding {
            let _ = writeln!(
                out,
                "\nBinds first: **{what}**, at {} game-hours a month ({} games at once, always on).",
                round(hours),
                round(concurrent)
            );
        }
    }
    out
}
