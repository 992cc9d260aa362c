//! Every user-visible string, from the Fluent files `site/locales/*.ftl` (zh-CN, en, ja, ru, fr, de), compiled
//! into tables at build time (`build.rs`). The language is detected from the browser, switchable,
//! and remembered in localStorage.

use leptos::prelude::*;

use crate::storage;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    ZhCn,
    En,
    Ja,
    Ru,
    Fr,
    De,
}

impl Lang {
    pub const ALL: [Lang; 6] = [Lang::ZhCn, Lang::En, Lang::Ja, Lang::Ru, Lang::Fr, Lang::De];

    pub fn tag(self) -> &'static str {
        match self {
            Lang::ZhCn => "zh-CN",
            Lang::En => "en",
            Lang::Ja => "ja",
            Lang::Ru => "ru",
            Lang::Fr => "fr",
            Lang::De => "de",
        }
    }

    /// The language's own name, for the switch (the same in every language).
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::ZhCn => "中文",
            Lang::En => "English",
            Lang::Ja => "日本語",
            Lang::Ru => "Русский",
            Lang::Fr => "Français",
            Lang::De => "Deutsch",
        }
    }

    pub fn from_tag(tag: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.tag().eq_ignore_ascii_case(tag))
    }

    /// The first supported language among the browser's preferences (`zh-TW` counts as Chinese,
    /// `ja-JP` as Japanese), else English.
    pub fn negotiate<'a>(preferences: impl IntoIterator<Item = &'a str>) -> Lang {
        preferences
            .into_iter()
            .find_map(|tag| match tag.split('-').next().unwrap_or("").to_ascii_lowercase().as_str() {
                "zh" => Some(Lang::ZhCn),
                "ja" => Some(Lang::Ja),
                "en" => Some(Lang::En),
                "ru" => Some(Lang::Ru),
                "fr" => Some(Lang::Fr),
                "de" => Some(Lang::De),
                _ => None,
            })
            .unwrap_or(Lang::En)
    }
}

/// A value for a message's `{ $variable }`: text or a whole number.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg(String);

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg(text)
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg(text.to_owned())
    }
}

macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg(n.to_string())
            }
        }
    )*};
}

number_args!(u8, u32, u64, usize, i64);

/// The compiled message tables (see `build.rs`), sorted by id.
mod tables {
    include!(concat!(env!("OUT_DIR"), "/messages.rs"));
}

/// A language's messages compiled in (all of them natively, English in the browser).
#[cfg(not(target_arch = "wasm32"))]
pub fn table(lang: Lang) -> Option<&'static [(&'static str, &'static str)]> {
    Some(match lang {
        Lang::ZhCn => tables::ZH_CN,
        Lang::En => tables::EN,
        Lang::Ja => tables::JA,
        Lang::Ru => tables::RU,
        Lang::Fr => tables::FR,
        Lang::De => tables::DE,
    })
}

#[cfg(target_arch = "wasm32")]
pub fn table(lang: Lang) -> Option<&'static [(&'static str, &'static str)]> {
    (lang == Lang::En).then_some(tables::EN)
}

/// A language's messages fetched at run time, sorted by id.
type Fetched = (Lang, Vec<(String, String)>);

thread_local! {
    // The languages not compiled in, once fetched.
    static FETCHED: std::cell::RefCell<Vec<Fetched>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn is_loaded(lang: Lang) -> bool {
    table(lang).is_some() || FETCHED.with(|f| f.borrow().iter().any(|(l, _)| *l == lang))
}

/// Calls `f` with message `id`'s pattern in `lang`, falling back to English while `lang` is not
/// loaded yet.
fn with_pattern<R>(lang: Lang, id: &str, f: impl FnOnce(Option<&str>) -> R) -> R {
    let find = |table: &'static [(&'static str, &'static str)]| -> Option<&'static str> {
        table.binary_search_by(|(key, _)| (*key).cmp(id)).ok().map(|i| table[i].1)
    };
    if let Some(table) = table(lang) {
        return f(find(table));
    }
    let mut f = Some(f);
    let fetched = FETCHED.with(|fetched| {
        let fetched = fetched.borrow();
        let (_, table) = fetched.iter().find(|(l, _)| *l == lang)?;
        let i = table.binary_search_by(|(key, _)| key.as_str().cmp(id)).ok();
        Some((f.take().expect("called once"))(i.map(|i| table[i].1.as_str())))
    });
    match fetched {
        Some(result) => result,
        None => (f.take().expect("not called"))(table(Lang::En).and_then(find)),
    }
}

/// Formats message `id` in `lang`, each `{$name}` replaced by its argument. A missing message shows
/// its id (a test keeps that from happening).
pub fn format(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    with_pattern(lang, id, |pattern| fill(pattern, id, args))
}

fn fill(pattern: Option<&str>, id: &str, args: &[(&str, Arg)]) -> String {
    let Some(pattern) = pattern else { return id.to_owned() };
    let mut text = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(start) = rest.find("{$") {
        text.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else { break };
        let name = &rest[start + 2..start + end];
        match args.iter().find(|(key, _)| *key == name) {
            Some((_, Arg(value))) => text.push_str(value),
            None => text.push_str(&rest[start..start + end + 1]),
        }
        rest = &rest[start + end + 1..];
    }
    text.push_str(rest);
    text
}

/// Whether message `id` exists (every language has the same messages; a test checks).
pub fn has(id: &str) -> bool {
    with_pattern(Lang::En, id, |p| p.is_some())
}

/// Fetches `lang`'s messages from the JSON file the build wrote (its address is in the page's
/// `tabulaLocales`). Returns whether the language is now loaded. In most bundles the reading is
/// code loaded on demand: in English, the language built in, it never runs, and its JSON reader is
/// most of the JSON reading those pages carry (the home 10 KB of its first load, a game's page or
/// local game 1.5 to 4.5 KB). A room reads its room's JSON and Triplex its progress at first paint
/// anyway: there the split costs more than it saves (docs/PERFORMANCE.md).
async fn fetch(lang: Lang) -> bool {
    #[cfg(any(feature = "home-pages", feature = "lobby-page", feature = "game-page", feature = "local-screen"))]
    return match fetch_code().await {
        Ok(fetch) => fetch(lang).await,
        // The module did not arrive (offline): the language stays as it is.
        Err(_) => false,
    };
    #[cfg(not(any(feature = "home-pages", feature = "lobby-page", feature = "game-page", feature = "local-screen")))]
    read_messages(lang).await
}

#[cfg(any(feature = "home-pages", feature = "lobby-page", feature = "game-page", feature = "local-screen"))]
#[leptos::wasm_split::wasm_split(i18n_fetch, wasm_split_path = ::leptos::wasm_split, fallible)]
fn fetch_code() -> Result<crate::browser::OnDemand<Lang, bool>, leptos::wasm_split::SplitLoaderError> {
    Ok(|lang| Box::pin(read_messages(lang)))
}

async fn read_messages(lang: Lang) -> bool {
    if is_loaded(lang) {
        return true;
    }
    let url = crate::browser::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"tabulaLocales".into()).ok())
        .and_then(|table| js_sys::Reflect::get(&table, &lang.tag().into()).ok())
        .and_then(|url| url.as_string());
    let Some(url) = url else { return false };
    let Ok(response) = gloo_net::http::Request::get(&url).send().await else { return false };
    let Ok(text) = response.text().await else { return false };
    // The build writes each file sorted by id (as the tables built in), which the lookup's binary
    // search needs: checked, not sorted again (a sort's code was 1 KB of a room's first load).
    let Some(messages) = messages_from_json(&text) else { return false };
    if !messages.is_sorted_by(|a, b| a.0 < b.0) {
        return false;
    }
    FETCHED.with(|f| f.borrow_mut().push((lang, messages)));
    true
}

/// A language's messages from its JSON file, `[[id, pattern], ...]`, read by the browser's JSON
/// parser: serde's reader of the pairs was about 2 KB of a room's first load, which reads no
/// other JSON of this shape.
fn messages_from_json(text: &str) -> Option<Vec<(String, String)>> {
    use wasm_bindgen::JsCast;
    let pairs: js_sys::Array = js_sys::JSON::parse(text).ok()?.dyn_into().ok()?;
    pairs
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.dyn_into().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// The current language, shared through context.
#[derive(Clone, Copy)]
pub struct I18n {
    pub lang: RwSignal<Lang>,
}

impl I18n {
    /// The remembered choice, else the browser's preference.
    /// The remembered choice, else the browser's preference. A language not built in shows in
    /// English until its messages arrive.
    pub fn detect() -> I18n {
        let lang = storage::language().and_then(|tag| Lang::from_tag(&tag)).unwrap_or_else(|| {
            let languages: Vec<String> = crate::browser::window()
                .map(|w| w.navigator().languages().iter().filter_map(|v| v.as_string()).collect())
                .unwrap_or_default();
            Lang::negotiate(languages.iter().map(String::as_str))
        });
        let i18n = I18n { lang: RwSignal::new(Lang::En) };
        i18n.switch(lang);
        i18n
    }

    /// Switches to `lang` once its messages are loaded.
    fn switch(&self, lang: Lang) {
        if is_loaded(lang) {
            self.lang.set(lang);
            return;
        }
        let signal = self.lang;
        leptos::task::spawn_local(async move {
            if fetch(lang).await {
                signal.set(lang);
            }
        });
    }

    pub fn set(&self, lang: Lang) {
        storage::set_language(lang.tag());
        self.switch(lang);
    }

    /// Message `id` in the current language (reactive when called inside a view closure).
    pub fn t(&self, id: &str) -> String {
        format(self.lang.get(), id, &[])
    }

    pub fn t_with(&self, id: &str, args: &[(&str, Arg)]) -> String {
        format(self.lang.get(), id, args)
    }
}

/// Message `id` as reactive text (it follows the language). Every static label goes through this
/// one closure type: a closure written at each call site would each add its own code to the WASM.
pub fn tr(id: &'static str) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    let i18n = use_i18n();
    move || i18n.t(id)
}

pub fn use_i18n() -> I18n {
    expect_context::<I18n>()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn message_ids(lang: Lang) -> BTreeSet<&'static str> {
        table(lang).unwrap().iter().map(|(id, _)| *id).collect()
    }

    #[test]
    fn every_language_has_exactly_the_english_messages() {
        let english = message_ids(Lang::En);
        assert!(english.len() > 50);
        for lang in Lang::ALL {
            assert_eq!(message_ids(lang), english, "{} differs from en", lang.tag());
            let table = table(lang).unwrap();
            assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "{} is sorted, without duplicates", lang.tag());
        }
    }

    #[test]
    fn messages_format_with_their_arguments() {
        for lang in Lang::ALL {
            let text = format(lang, "moves-left", &[("count", 7u8.into())]);
            assert!(text.contains('7'), "{}: {text}", lang.tag());
            let player = format(lang, "player-1", &[]);
            assert!(format(lang, "result-win", &[("player", player.clone().into())]).contains(&player));
        }
        assert_eq!(format(Lang::En, "to-move", &[("player", "Red".into())]), "Red to move");
        assert_eq!(format(Lang::En, "to-move", &[]), "{$player} to move", "a missing argument shows");
        assert_eq!(
            format(Lang::En, "cell-label", &[("row", 3u8.into()), ("col", 4u8.into()), ("content", "empty".into())]),
            "Row 3, column 4: empty"
        );
        assert_eq!(format(Lang::ZhCn, "player-2", &[]), "蓝方");
        assert_eq!(format(Lang::En, "no-such-message", &[]), "no-such-message");
    }

    /// Every message id the code names literally (`t("...")`, `t_with("...", ...)`) or lists in
    /// the game registry exists.
    #[test]
    fn every_message_the_code_names_exists() {
        fn sources(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(std::fs::read_to_string(path).unwrap());
                }
            }
        }
        let mut texts = Vec::new();
        sources(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut texts);
        let mut named = BTreeSet::new();
        for text in &texts {
            for call in [".t(\"", ".t_with(\"", "Label::Id(\"", "caption: \"", " tr(\"", "{tr(\""] {
                for (at, _) in text.match_indices(call) {
                    let rest = &text[at + call.len()..];
                    named.insert(rest[..rest.find('"').unwrap()].to_owned());
                }
            }
        }
        assert!(named.len() > 60, "found only {named:?}");
        for slug in crate::catalogue::Slug::ALL {
            named.insert(slug.title_id().to_owned());
            named.insert(slug.pitch_id().to_owned());
            named.extend(slug.rules_ids().iter().map(|id| id.to_string()));
            named.extend(slug.options().iter().map(|o| o.label.to_owned()));
        }
        let english = message_ids(Lang::En);
        let missing: Vec<_> = named.iter().filter(|id| !english.contains(id.as_str())).collect();
        assert!(missing.is_empty(), "messages named in the code but missing from en.ftl: {missing:?}");
        assert!(has("to-move") && !has("no-such-message"));
    }

    #[test]
    fn the_home_says_something_new_under_its_heading() {
        for lang in Lang::ALL {
            let (heading, sentence) = (format(lang, "home-title", &[]), format(lang, "tagline", &[]));
            assert!(!sentence.contains(heading.as_str()), "{}: {sentence:?} repeats {heading:?}", lang.tag());
        }
    }

    #[test]
    fn browser_preferences_pick_a_language() {
        assert_eq!(Lang::negotiate(["pt-BR", "ja-JP", "en"]), Lang::Ja);
        assert_eq!(Lang::negotiate(["zh-TW"]), Lang::ZhCn);
        assert_eq!(Lang::negotiate(["fr-CA", "en"]), Lang::Fr);
        assert_eq!(Lang::negotiate(["de-AT"]), Lang::De);
        assert_eq!(Lang::negotiate(["ru"]), Lang::Ru);
        assert_eq!(Lang::negotiate(["pt"]), Lang::En);
        assert_eq!(Lang::negotiate([]), Lang::En);
    }
}
