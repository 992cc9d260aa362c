//! How a room page paces its requests: polls, retries, reopening its push channel. Plain
//! functions without the browser, so the capacity bench (`cli/benches/capacity/main.rs`) includes this
//! file and its simulated pages pace themselves exactly as the site's do.

/// How long to wait before the next poll, in milliseconds: about once a second while the player
/// waits (or watches) and the tab is visible, rarely while it is hidden. While the push channel
/// works (`pushed` holds the pace the server asks for, a third of the time after which a silent
/// player counts as gone), changes arrive by push and polls only tell the room the player is
/// there: every 1.5 paces while it is the player's own move (the push still brings the opponent's
/// resignation or takeback request at once). A hidden tab keeps the plain pace, no faster: the
/// browser may wake its timers only once a minute, which must not make a seated player look gone.
pub fn poll_delay_ms(visible: bool, my_turn: bool, pushed: Option<u32>) -> u32 {
    match (visible, my_turn, pushed) {
        (false, _, pushed) => pushed.unwrap_or(0).max(15_000),
        (true, true, Some(pace)) => pace / 2 * 3,
        (true, false, Some(pace)) => pace,
        (true, false, None) => 1_000,
        // Only the opponent's resignation, takeback request or the like can change the room now.
        (true, true, None) => 3_000,
    }
}

/// The longest a Realtime socket goes without a heartbeat, whatever the poll pace: Realtime's own
/// clients send one every 25 s.
pub const HEARTBEAT_MS: u32 = 25_000;

/// How often a push channel the browser gave up on is opened anew.
pub const REOPEN_PUSH_MS: u32 = 10_000;

/// The poll loop looks at the room's state this often (a push ends its wait at once).
pub const TICK_MS: u32 = 250;

/// Retrying after a failed request: 1 s, 2 s, 4 s ... up to 15 s.
pub fn retry_delay_ms(failures: u32) -> u32 {
    1_000u32.saturating_mul(1 << failures.min(4)).min(15_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polling_slows_down_when_hidden_and_retries_back_off() {
        assert_eq!(poll_delay_ms(true, false, None), 1_000);
        assert!(poll_delay_ms(false, false, None) > poll_delay_ms(true, true, None));
        // With a working push, the server's pace, but a hidden tab stays slower.
        assert_eq!(poll_delay_ms(true, false, Some(10_000)), 10_000);
        assert_eq!(poll_delay_ms(false, false, Some(1_000)), 15_000);
        assert_eq!(poll_delay_ms(false, false, Some(30_000)), 30_000);
        // The player to move polls less, but not in a hidden tab.
        assert_eq!(poll_delay_ms(true, true, Some(30_000)), 45_000);
        assert_eq!(poll_delay_ms(false, true, Some(30_000)), 30_000);
        assert_eq!((retry_delay_ms(0), retry_delay_ms(2), retry_delay_ms(30)), (1_000, 4_000, 15_000));
    }
}
