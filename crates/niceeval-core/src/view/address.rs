//! One address for a turn and an event on every surface: the attempt-wide
//! `N:i` (NiceEval's turnOrdinal : event ordinal; `N:0` is the eval's input,
//! adapter event `i` is `N:i+1`). A session/turn label (`session2/turn1`)
//! may stand beside it, never instead of it.

use super::text::clean;
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::document::Attempt;

/// The attempt-wide number of a turn (its turnOrdinal); 0 when unknown.
pub fn turn_number(derived: &DerivedAttempt, addr: TurnAddr) -> u64 {
    derived.turn(addr).map(|t| t.turn_ordinal).unwrap_or(0)
}

/// `N:i` of adapter event `event` of turn `turn` (`None`: the input, `N:0`).
pub fn event_address(turn: u64, event: Option<usize>) -> String {
    format!("{turn}:{}", event.map(|e| e + 1).unwrap_or(0))
}

/// `N:i` of an event of the turn at `addr`.
pub fn event_at(derived: &DerivedAttempt, addr: TurnAddr, event: Option<usize>) -> String {
    event_address(turn_number(derived, addr), event)
}

/// The turn's label: the file's own (`turn2`, `session2/turn1`), else
/// `turnN` in the primary session and `sessionK/turnN` in the others
/// (NiceEval's `turn-label.ts`).
pub fn turn_label(attempt: &Attempt, addr: TurnAddr) -> String {
    let Some(session) = attempt.sessions.get(addr.session) else {
        return format!("turn{}", addr.turn + 1);
    };
    if let Some(l) = session.turns.get(addr.turn).and_then(|r| r.label.as_deref()) {
        return clean(l);
    }
    if session.index == 1 || (addr.session == 0 && attempt.sessions.len() == 1) {
        format!("turn{}", addr.turn + 1)
    } else {
        format!("session{}/turn{}", session.index, addr.turn + 1)
    }
}

/// "turn 6 · session2/turn1"; just "turn 3" when the label says the same.
pub fn turn_title(attempt: &Attempt, derived: &DerivedAttempt, addr: TurnAddr) -> String {
    let n = turn_number(derived, addr);
    let label = turn_label(attempt, addr);
    if label == format!("turn{n}") { format!("turn {n}") } else { format!("turn {n} · {label}") }
}

/// "6 session2/turn1"; just "3" when the label says the same: a turn in a
/// list of turns or in a finding's place.
pub fn turn_ref(attempt: &Attempt, derived: &DerivedAttempt, addr: TurnAddr) -> String {
    let n = turn_number(derived, addr);
    let label = turn_label(attempt, addr);
    if label == format!("turn{n}") { n.to_string() } else { format!("{n} {label}") }
}

/// Which turn `--turn` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnSelector {
    /// The attempt-wide turn number (turnOrdinal), as every surface prints it.
    Number(u64),
    /// A label: `turnN` (primary session) or `sessionK/turnN`.
    Label { session: Option<u64>, turn: u64 },
}

impl TurnSelector {
    /// `6`, `turn3`, `session2/turn1`, or an event's address `6:3` (its
    /// turn). `0` is a turn number like any other: NiceEval's turnOrdinal
    /// may start at 0, and a turn the file gives no ordinal prints as 0.
    pub fn parse(s: &str) -> Option<TurnSelector> {
        let s = s.trim();
        let number = match s.split_once(':') {
            Some((turn, event)) => event.parse::<u64>().ok().and(turn.parse::<u64>().ok()),
            None => s.parse::<u64>().ok(),
        };
        if let Some(n) = number {
            return Some(TurnSelector::Number(n));
        }
        let (session, rest) = match s.split_once('/') {
            Some((a, b)) => (Some(a.strip_prefix("session")?.parse::<u64>().ok()?), b),
            None => (None, s),
        };
        let turn = rest.strip_prefix("turn")?.parse::<u64>().ok().filter(|n| *n > 0)?;
        Some(TurnSelector::Label { session, turn })
    }

    /// The session index a label names (`sessionK/…`).
    pub fn session(&self) -> Option<u64> {
        match self {
            TurnSelector::Label { session, .. } => *session,
            TurnSelector::Number(_) => None,
        }
    }

    /// Whether the turn at `addr` is the one selected.
    pub fn matches(&self, attempt: &Attempt, derived: &DerivedAttempt, addr: TurnAddr) -> bool {
        match self {
            TurnSelector::Number(n) => turn_number(derived, addr) == *n,
            TurnSelector::Label { session, turn } => {
                let index = attempt.sessions.get(addr.session).map(|s| s.index);
                // A bare `turnN` names a turn of the primary session (sessionIndex 1),
                // or of the only session.
                let session_ok = match session {
                    Some(k) => index == Some(*k),
                    None => index == Some(1) || attempt.sessions.len() == 1,
                };
                session_ok && addr.turn as u64 + 1 == *turn
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors() {
        assert_eq!(TurnSelector::parse("6"), Some(TurnSelector::Number(6)));
        assert_eq!(TurnSelector::parse("turn3"), Some(TurnSelector::Label { session: None, turn: 3 }));
        assert_eq!(TurnSelector::parse("session2/turn1"), Some(TurnSelector::Label { session: Some(2), turn: 1 }));
        assert_eq!(TurnSelector::parse("0"), Some(TurnSelector::Number(0)));
        assert_eq!(TurnSelector::parse("6:3"), Some(TurnSelector::Number(6)));
        assert_eq!(TurnSelector::parse("6:"), None);
        assert_eq!(TurnSelector::parse(":3"), None);
        assert_eq!(TurnSelector::parse("sessionx/turn1"), None);
        assert_eq!(event_address(6, Some(2)), "6:3");
        assert_eq!(event_address(6, None), "6:0");
    }
}
