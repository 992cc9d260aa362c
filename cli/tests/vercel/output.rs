//! A Build Output folder (`.vercel/output`, Build Output API v3) as `vercel build` writes it, and
//! what Vercel's edge does with it: the route table of `config.json` (redirects, headers, the
//! filesystem, rewrites, the 404 page) over the static files and the functions. Only the parts of
//! the routing spec `vercel build` emits for this repository are followed; anything else in the
//! table fails the test, so a new kind of route cannot pass unexamined.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fancy_regex::Regex;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Config {
    pub version: u32,
    pub routes: Vec<Route>,
    #[serde(default)]
    pub overrides: BTreeMap<String, Override>,
    #[serde(default)]
    pub crons: Vec<Cron>,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct Route {
    pub src: Option<String>,
    pub dest: Option<String>,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    pub status: Option<u16>,
    #[serde(default, rename = "continue")]
    pub continues: bool,
    #[serde(default)]
    pub check: bool,
    #[serde(default)]
    pub has: Vec<Condition>,
    pub handle: Option<String>,
    /// Not emitted for this repository; read so that a route asking for it fails the test.
    #[serde(default, rename = "caseSensitive")]
    pub case_sensitive: bool,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    #[serde(rename = "type")]
    pub kind: String,
    pub key: String,
    pub value: Option<String>,
}

#[derive(Deserialize, Debug)]
pub struct Override {
    pub path: Option<String>,
    #[serde(rename = "contentType")]
    pub content_type: Option<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
pub struct Cron {
    pub path: String,
    pub schedule: String,
}

/// A function's `.vc-config.json`.
#[derive(Deserialize, Debug)]
pub struct FunctionConfig {
    pub runtime: String,
    pub handler: String,
    #[serde(default)]
    pub architecture: Option<String>,
    #[serde(default)]
    pub environment: BTreeMap<String, String>,
    /// Where the build left a file instead of copying it in (relative to the repository it built):
    /// the Rust runtime points the handler at the binary in cargo's target directory.
    #[serde(default, rename = "filePathMap")]
    pub file_path_map: BTreeMap<String, String>,
}

impl FunctionConfig {
    /// The handler's file, for the function in `folder` built from `repository`.
    pub fn handler_path(&self, folder: &Path, repository: &Path) -> PathBuf {
        match self.file_path_map.get(&self.handler) {
            Some(mapped) => repository.join(mapped),
            None => folder.join(&self.handler),
        }
    }
}

pub struct Output {
    pub dir: PathBuf,
    pub config: Config,
    /// Function name (its path without the leading `/`: `api/game`) to its `.func` folder.
    pub functions: BTreeMap<String, PathBuf>,
}

impl Output {
    pub fn read(dir: &Path) -> Output {
        let text = std::fs::read_to_string(dir.join("config.json"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join("config.json").display()));
        let config: Config = serde_json::from_str(&text).expect("config.json in the Build Output API's shape");
        let mut functions = BTreeMap::new();
        collect_functions(&dir.join("functions"), "", &mut functions);
        Output { dir: dir.to_owned(), config, functions }
    }

    pub fn static_dir(&self) -> PathBuf {
        self.dir.join("static")
    }

    pub fn function_config(&self, name: &str) -> FunctionConfig {
        let path = self.functions[name].join(".vc-config.json");
        serde_json::from_str(&std::fs::read_to_string(&path).expect(".vc-config.json")).expect("a function config")
    }

    /// The static file a path names, as Vercel's filesystem step finds it: an override's path,
    /// the file itself, or a folder's `index.html`.
    fn static_file(&self, path: &str) -> Option<(PathBuf, Option<String>)> {
        let key = path.trim_start_matches('/');
        let key = if key.is_empty() { "index" } else { key };
        for (file, entry) in &self.config.overrides {
            if entry.path.as_deref() == Some(key) {
                return Some((self.static_dir().join(file), entry.content_type.clone()));
            }
        }
        let direct = self.static_dir().join(key);
        if direct.is_file() && !key.contains("..") {
            return Some((direct, None));
        }
        let index = direct.join("index.html");
        index.is_file().then_some((index, None))
    }

    fn lookup(&self, path: &str) -> Option<Target> {
        let name = path.trim_start_matches('/');
        if self.functions.contains_key(name) {
            return Some(Target::Function(name.to_owned()));
        }
        self.static_file(path).map(|(file, content_type)| Target::Static { file, content_type })
    }

    /// Where Vercel's edge sends a request, and the headers its routes add to the answer.
    pub fn route(&self, path: &str, query: &str, headers: &http::HeaderMap) -> Routed {
        let mut path = path.to_owned();
        let mut query: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        let mut added = BTreeMap::new();
        let mut phase: Option<&str> = None;
        for route in &self.config.routes {
            if let Some(handle) = route.handle.as_deref() {
                assert!(route.src.is_none() && route.dest.is_none(), "a handle with a route: {route:?}");
                match handle {
                    "filesystem" => {
                        if let Some(target) = self.lookup(&path) {
                            return Routed { target, path, query, headers: added, status: None };
                        }
                    }
                    "error" => {}
                    other => panic!("a routing phase this emulation does not know: {other}"),
                }
                phase = Some(handle);
                continue;
            }
            let src = route.src.as_deref().unwrap_or_else(|| panic!("a route without src: {route:?}"));
            assert!(!route.case_sensitive, "a case-sensitive route this emulation does not follow: {route:?}");
            // Vercel matches a route's `src` without regard to case (unless `caseSensitive`).
            let Some(groups) = matches(&format!("(?i){src}"), &path) else { continue };
            if !route.has.iter().all(|condition| holds(condition, headers)) {
                continue;
            }
            let substitute = |text: &str| {
                let mut text = text.to_owned();
                for (i, group) in groups.iter().enumerate().rev() {
                    text = text.replace(&format!("${i}"), group);
                }
                text
            };
            for (name, value) in &route.headers {
                added.insert(name.to_ascii_lowercase(), substitute(value));
            }
            if let Some(status) = route.status {
                // A redirect, or a plain status where the route names no destination.
                if (300..400).contains(&status) || (route.dest.is_none() && !route.continues) {
                    return Routed {
                        target: Target::Status(status),
                        path,
                        query,
                        headers: added,
                        status: Some(status),
                    };
                }
            }
            if let Some(dest) = &route.dest {
                let dest = substitute(dest);
                let (dest_path, dest_query) = dest.split_once('?').unwrap_or((&dest, ""));
                path = dest_path.to_owned();
                for (key, value) in url::form_urlencoded::parse(dest_query.as_bytes()).into_owned() {
                    query.retain(|(k, _)| *k != key);
                    query.push((key, value));
                }
            }
            if phase == Some("error") {
                // The error phase's page, with its status.
                let target = self.lookup(&path).unwrap_or(Target::Status(404));
                return Routed { target, path, query, headers: added, status: route.status };
            }
            if route.continues {
                continue;
            }
            assert!(route.check || route.dest.is_none() || phase.is_none(), "a rewrite without check: {route:?}");
            if let Some(target) = self.lookup(&path) {
                return Routed { target, path, query, headers: added, status: route.status };
            }
        }
        Routed { target: Target::Status(404), path, query, headers: added, status: Some(404) }
    }
}

fn collect_functions(dir: &Path, prefix: &str, into: &mut BTreeMap<String, PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(function) = name.strip_suffix(".func") {
            into.insert(format!("{prefix}{function}"), entry.path());
        } else if entry.path().is_dir() {
            collect_functions(&entry.path(), &format!("{prefix}{name}/"), into);
        }
    }
}

/// The groups of `src` matched against the whole path (`$0` is the match).
fn matches(src: &str, path: &str) -> Option<Vec<String>> {
    let regex = Regex::new(src).unwrap_or_else(|e| panic!("route src {src}: {e}"));
    let captures = regex.captures(path).unwrap_or_else(|e| panic!("route src {src}: {e}"))?;
    Some((0..captures.len()).map(|i| captures.get(i).map_or("", |m| m.as_str()).to_owned()).collect())
}

fn holds(condition: &Condition, headers: &http::HeaderMap) -> bool {
    assert_eq!(condition.kind, "header", "a route condition this emulation does not know: {condition:?}");
    let Some(value) = headers.get(condition.key.as_str()).and_then(|v| v.to_str().ok()) else { return false };
    condition.value.as_ref().is_none_or(|pattern| matches(&format!("^(?:{pattern})$"), value).is_some())
}

#[derive(Debug, PartialEq)]
pub enum Target {
    Static {
        file: PathBuf,
        content_type: Option<String>,
    },
    Function(String),
    /// A redirect (its `Location` among the headers) or a plain status.
    Status(u16),
}

#[derive(Debug)]
pub struct Routed {
    pub target: Target,
    /// The path and query the target gets (after rewrites).
    pub path: String,
    pub query: Vec<(String, String)>,
    /// Headers the routes add to the answer (lower-case names).
    pub headers: BTreeMap<String, String>,
    pub status: Option<u16>,
}
