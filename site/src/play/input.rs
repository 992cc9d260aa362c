//! From a tap to a move: what a board is given, and the one decision every game's input goes
//! through (play it, show it as a ghost to confirm, or say why not), kept free of the DOM so it is
//! unit-tested natively.

use leptos::prelude::*;
use tabula_core::{Game, Rejection, Seat};

use crate::browser;
use crate::catalogue::Slug;
use crate::storage::ConfirmMoves;

/// What a game's board gets from the screen.
pub struct BoardProps<G: Game> {
    /// The position shown: the live one, or a step of the replay.
    pub game: Signal<G>,
    /// The position before the last shown move, to show what that move changed.
    pub before: Signal<Option<G>>,
    pub last: Signal<Option<G::Move>>,
    /// The colour this screen moves for now: `None` while watching or replaying.
    pub acting: Signal<Option<Seat>>,
    /// The colour this screen plays for online, also while replaying or after the end (a board
    /// faces it); `None` on one device and while watching.
    pub own_side: Signal<Option<Seat>>,
    /// A move shown as a ghost until it is confirmed.
    pub ghost: Signal<Option<G::Move>>,
    /// Offers a tapped move; the screen checks it, then plays it, asks to confirm it, or says why not.
    pub play: Callback<G::Move>,
    /// A move from a button (pass, accept): checked and played, never held for confirmation.
    pub act: Callback<G::Move>,
    /// One device plays both colours.
    pub local: bool,
    /// A small picture (the rules' diagrams): no input at all.
    pub diagram: bool,
}

impl<G: Game> Clone for BoardProps<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for BoardProps<G> {}

/// What to do with an offered move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    Play,
    /// Show it as a ghost: a second tap on it, or the confirm button, plays it.
    Ghost,
    /// Refused before anything is sent: the message id saying why.
    Refuse(String),
}

/// Judges `mv` in `game` for a screen acting as `acting` (any colour when `local`), with
/// confirmation `confirm` and the current ghost.
pub fn judge<G: Game>(
    game: &G,
    mv: &G::Move,
    acting: Option<Seat>,
    local: bool,
    confirm: bool,
    ghost: Option<&G::Move>,
) -> Offer {
    let Some(acting) = acting else { return Offer::Refuse("illegal-spectator".into()) };
    if let Err(error) = game.check(mv) {
        return Offer::Refuse(format!("illegal-{}", error.code()));
    }
    if !local && game.mover(mv) != Some(acting) {
        return Offer::Refuse("illegal-not_your_turn".into());
    }
    if confirm && ghost != Some(mv) {
        return Offer::Ghost;
    }
    Offer::Play
}

/// Carries out a judged offer: play it (`commit`), show it as a ghost, or say why not (`say` gets a
/// message id, or `None` to clear the message). The local and the online screen differ only in those.
pub fn carry_out<G: Game>(
    offer: Offer,
    mv: G::Move,
    slug: Slug,
    ghost: RwSignal<Option<G::Move>>,
    say: impl Fn(Option<String>),
    commit: impl FnOnce(G::Move),
) {
    match offer {
        Offer::Play => commit(mv),
        Offer::Ghost => {
            say(None);
            ghost.set(Some(mv));
        }
        Offer::Refuse(id) => {
            ghost.set(None);
            say(Some(refusal_id(slug, &id, crate::i18n::has)));
        }
    }
}

/// The message id for a refusal code of `game`: its own wording if it has one, else the shared one.
pub fn refusal_id(slug: Slug, id: &str, has: impl Fn(&str) -> bool) -> String {
    let own = format!("{}-{id}", slug.name());
    if has(&own) {
        own
    } else {
        id.to_owned()
    }
}

/// Whether moves wait for a confirmation on this device: as the player set it, else on touch
/// screens and where the game says its points are small here.
#[derive(Clone, Copy)]
pub struct Confirm {
    pub touch: bool,
    pub setting: Signal<ConfirmMoves>,
}

impl Confirm {
    pub fn detect() -> Confirm {
        let settings = crate::storage::use_settings();
        Confirm {
            touch: browser::media_matches("(pointer: coarse)"),
            setting: Signal::derive(move || settings.with(|s| s.confirm)),
        }
    }

    pub fn needed(self, small_points: bool) -> bool {
        confirm_needed(self.setting.get(), self.touch, small_points)
    }
}

pub fn confirm_needed(setting: ConfirmMoves, touch: bool, small_points: bool) -> bool {
    match setting {
        ConfirmMoves::Always => true,
        ConfirmMoves::Never => false,
        ConfirmMoves::Auto => touch || small_points,
    }
}

#[cfg(test)]
mod tests {
    use tabula_core::popucom::{Cell, Popucom};
    use tabula_core::GameKind;

    use super::*;

    #[test]
    fn a_move_is_refused_played_or_ghosted() {
        let game = Popucom::replay(Default::default(), &[Cell::new(4, 4)]).unwrap(); // blue to move
        let free = Cell::new(0, 0);
        let refuse = |id: &str| Offer::Refuse(id.to_owned());
        assert_eq!(judge(&game, &free, None, false, false, None), refuse("illegal-spectator"));
        assert_eq!(judge(&game, &Cell::new(4, 4), Some(Seat::Two), false, false, None), refuse("illegal-occupied"));
        assert_eq!(judge(&game, &free, Some(Seat::One), false, false, None), refuse("illegal-not_your_turn"));
        assert_eq!(judge(&game, &free, Some(Seat::One), true, false, None), Offer::Play, "one device plays both");
        assert_eq!(judge(&game, &free, Some(Seat::Two), false, false, None), Offer::Play);
        assert_eq!(judge(&game, &free, Some(Seat::Two), false, true, None), Offer::Ghost);
        assert_eq!(judge(&game, &free, Some(Seat::Two), false, true, Some(&Cell::new(0, 1))), Offer::Ghost);
        assert_eq!(judge(&game, &free, Some(Seat::Two), false, true, Some(&free)), Offer::Play, "the second tap");
    }

    #[test]
    fn moves_are_confirmed_by_touch_small_points_or_the_setting() {
        assert!(!confirm_needed(ConfirmMoves::Auto, false, false), "a mouse on a big board");
        assert!(confirm_needed(ConfirmMoves::Auto, true, false), "a touch screen");
        assert!(confirm_needed(ConfirmMoves::Auto, false, true), "points under 28 px");
        assert!(confirm_needed(ConfirmMoves::Always, false, false));
        assert!(!confirm_needed(ConfirmMoves::Never, true, true));
    }

    #[test]
    fn a_game_may_word_a_refusal_its_own_way() {
        let known = ["go-illegal-occupied"];
        let has = |id: &str| known.contains(&id);
        assert_eq!(refusal_id(Slug::Played(GameKind::Go), "illegal-occupied", has), "go-illegal-occupied");
        assert_eq!(refusal_id(Slug::Played(GameKind::Popucom), "illegal-occupied", has), "illegal-occupied");
    }
}
