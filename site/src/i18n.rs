//! Every user-visible string, through Fluent (`site/locales/*.ftl`): zh-CN, en and ja. The language is
//! detected from the browser, switchable, and remembered in localStorage.

use std::cell::RefCell;

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use leptos::prelude::*;

use crate::storage;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    ZhCn,
    En,
    Ja,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::ZhCn, Lang::En, Lang::Ja];

    pub fn tag(self) -> &'static str {
        match self {
            Lang::ZhCn => "zh-CN",
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The language's own name, for the switch (the same in every language).
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::ZhCn => "中文",
            Lang::En => "English",
            Lang::Ja => "日本語",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Lang::ZhCn => include_str!("../locales/zh-CN.ftl"),
            Lang::En => include_str!("../locales/en.ftl"),
            Lang::Ja => include_str!("../locales/ja.ftl"),
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
                _ => None,
            })
            .unwrap_or(Lang::En)
    }
}

fn bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(lang.source().to_owned()).expect("locale files parse (a test checks)");
    let langid = lang.tag().parse().expect("our tags are valid language ids");
    let mut bundle = FluentBundle::new(vec![langid]);
    // No Unicode isolation marks around arguments: they show up in copied text and tests.
    bundle.set_use_isolating(false);
    bundle.add_resource(resource).expect("no duplicate message ids (a test checks)");
    bundle
}

thread_local! {
    // The browser runs the app on one thread; bundles are built on first use.
    static BUNDLES: RefCell<Vec<(Lang, FluentBundle<FluentResource>)>> = const { RefCell::new(Vec::new()) };
}

/// Formats message `id` in `lang`. A missing message shows its id (a test keeps that from happening).
pub fn format(lang: Lang, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    BUNDLES.with(|bundles| {
        let mut bundles = bundles.borrow_mut();
        if !bundles.iter().any(|(l, _)| *l == lang) {
            bundles.push((lang, bundle(lang)));
        }
        let (_, bundle) = bundles.iter().find(|(l, _)| *l == lang).expect("just added");
        let Some(pattern) = bundle.get_message(id).and_then(|message| message.value()) else {
            return id.to_owned();
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, value.clone());
        }
        let mut errors = Vec::new();
        bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned()
    })
}

/// The current language, shared through context.
#[derive(Clone, Copy)]
pub struct I18n {
    pub lang: RwSignal<Lang>,
}

impl I18n {
    /// The remembered choice, else the browser's preference.
    pub fn detect() -> I18n {
        let lang = storage::language().and_then(|tag| Lang::from_tag(&tag)).unwrap_or_else(|| {
            let languages: Vec<String> = web_sys::window()
                .map(|w| w.navigator().languages().iter().filter_map(|v| v.as_string()).collect())
                .unwrap_or_default();
            Lang::negotiate(languages.iter().map(String::as_str))
        });
        I18n { lang: RwSignal::new(lang) }
    }

    pub fn set(&self, lang: Lang) {
        storage::set_language(lang.tag());
        self.lang.set(lang);
    }

    /// Message `id` in the current language (reactive when called inside a view closure).
    pub fn t(&self, id: &str) -> String {
        format(self.lang.get(), id, &[])
    }

    pub fn t_with(&self, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        format(self.lang.get(), id, args)
    }
}

pub fn use_i18n() -> I18n {
    expect_context::<I18n>()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use fluent_bundle::FluentResource;
    use fluent_syntax::ast::Entry;

    use super::*;

    fn message_ids(lang: Lang) -> BTreeSet<String> {
        let resource = FluentResource::try_new(lang.source().to_owned())
            .unwrap_or_else(|(_, errors)| panic!("{} does not parse: {errors:?}", lang.tag()));
        resource
            .entries()
            .filter_map(|entry| match entry {
                Entry::Message(message) => Some(message.id.name.to_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_language_has_exactly_the_english_messages() {
        let english = message_ids(Lang::En);
        assert!(english.len() > 50);
        for lang in Lang::ALL {
            assert_eq!(message_ids(lang), english, "{} differs from en", lang.tag());
        }
    }

    #[test]
    fn messages_format_with_their_arguments() {
        for lang in Lang::ALL {
            let text = format(lang, "moves-left", &[("count", 7.into())]);
            assert!(text.contains('7'), "{}: {text}", lang.tag());
            let player = format(lang, "player-1", &[]);
            assert!(format(lang, "result-win", &[("player", player.clone().into())]).contains(&player));
        }
        assert_eq!(format(Lang::En, "to-move", &[("player", "Red".into())]), "Red to move");
        assert_eq!(format(Lang::ZhCn, "player-2", &[]), "蓝方");
    }

    #[test]
    fn browser_preferences_pick_a_language() {
        assert_eq!(Lang::negotiate(["fr-FR", "ja-JP", "en"]), Lang::Ja);
        assert_eq!(Lang::negotiate(["zh-TW"]), Lang::ZhCn);
        assert_eq!(Lang::negotiate(["de"]), Lang::En);
        assert_eq!(Lang::negotiate([]), Lang::En);
    }
}
