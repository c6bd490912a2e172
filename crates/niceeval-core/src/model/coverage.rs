//! Evidence coverage algebra (spec §3): complete > partial > unavailable,
//! and a turn can only downgrade its agent's declaration.

use serde_json::{Map, Value};

pub const CHANNELS: [&str; 6] = ["events", "actions", "messages", "usage", "status", "data"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CoverageStatus {
    Unavailable = 1,
    Partial = 2,
    Complete = 3,
}

impl CoverageStatus {
    pub fn parse(s: &str) -> Option<CoverageStatus> {
        match s {
            "complete" => Some(CoverageStatus::Complete),
            "partial" => Some(CoverageStatus::Partial),
            "unavailable" => Some(CoverageStatus::Unavailable),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CoverageStatus::Complete => "complete",
            CoverageStatus::Partial => "partial",
            CoverageStatus::Unavailable => "unavailable",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverageEntry {
    pub status: CoverageStatus,
    pub reason: Option<String>,
}

/// What is wrong with an evidence coverage entry (NiceEval throws on each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverageError {
    NotAnObject,
    BadStatus,
    ReasonOnComplete,
    MissingReason(CoverageStatus),
}

impl std::fmt::Display for CoverageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoverageError::NotAnObject => f.write_str("must be an evidence coverage entry (an object)"),
            CoverageError::BadStatus => f.write_str("status must be complete, partial, or unavailable"),
            CoverageError::ReasonOnComplete => f.write_str("cannot include reason when status is complete"),
            CoverageError::MissingReason(s) => write!(f, "requires a non-empty reason when status is {}", s.as_str()),
        }
    }
}

impl CoverageEntry {
    pub fn complete() -> Self {
        CoverageEntry { status: CoverageStatus::Complete, reason: None }
    }

    /// Validate one entry as NiceEval does; the error says what is wrong.
    pub fn parse(v: &Value) -> Result<CoverageEntry, CoverageError> {
        let Some(obj) = v.as_object() else { return Err(CoverageError::NotAnObject) };
        let status = obj
            .get("status")
            .and_then(Value::as_str)
            .and_then(CoverageStatus::parse)
            .ok_or(CoverageError::BadStatus)?;
        let reason = obj.get("reason");
        match status {
            CoverageStatus::Complete if reason.is_some() => Err(CoverageError::ReasonOnComplete),
            CoverageStatus::Complete => Ok(CoverageEntry::complete()),
            _ => match reason.and_then(Value::as_str) {
                Some(r) if !r.trim().is_empty() => Ok(CoverageEntry { status, reason: Some(r.to_string()) }),
                _ => Err(CoverageError::MissingReason(status)),
            },
        }
    }

    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("status".into(), self.status.as_str().into());
        if let Some(r) = &self.reason {
            o.insert("reason".into(), r.clone().into());
        }
        Value::Object(o)
    }
}

/// The six channels, in NiceEval's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    pub entries: [CoverageEntry; 6],
}

impl Default for Coverage {
    fn default() -> Self {
        Coverage::complete()
    }
}

impl Coverage {
    pub fn complete() -> Coverage {
        Coverage { entries: std::array::from_fn(|_| CoverageEntry::complete()) }
    }

    pub fn get(&self, channel: &str) -> Option<&CoverageEntry> {
        CHANNELS.iter().position(|c| *c == channel).map(|i| &self.entries[i])
    }

    /// `downgradeEvidenceCoverage(agent, turnDecl)`: per listed channel take
    /// the worse; ties keep the agent entry. Invalid entries are skipped here
    /// and reported by `check`.
    pub fn downgrade(&self, turn_declaration: Option<&Value>) -> Coverage {
        let mut out = self.clone();
        let Some(decl) = turn_declaration.and_then(Value::as_object) else {
            return out;
        };
        for (i, channel) in CHANNELS.iter().enumerate() {
            if let Some(entry) = decl.get(*channel).and_then(|v| CoverageEntry::parse(v).ok())
                && entry.status < out.entries[i].status
            {
                out.entries[i] = entry;
            }
        }
        out
    }

    /// `worstEvidenceCoverage([self, other])`: keep self unless other is strictly worse.
    pub fn worst(&self, other: &Coverage) -> Coverage {
        let mut out = self.clone();
        for i in 0..CHANNELS.len() {
            if other.entries[i].status < out.entries[i].status {
                out.entries[i] = other.entries[i].clone();
            }
        }
        out
    }

    pub fn is_complete(&self) -> bool {
        self.entries.iter().all(|e| e.status == CoverageStatus::Complete)
    }

    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        for (i, c) in CHANNELS.iter().enumerate() {
            o.insert((*c).into(), self.entries[i].to_json());
        }
        Value::Object(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_turn_can_only_downgrade() {
        let agent = Coverage::complete().downgrade(Some(&json!({"usage": {"status": "unavailable", "reason": "A"}})));
        let turn = agent.downgrade(Some(
            &json!({"usage": {"status": "complete"}, "actions": {"status": "partial", "reason": "B"}}),
        ));
        assert_eq!(turn.get("usage").unwrap().reason.as_deref(), Some("A"));
        assert_eq!(turn.get("actions").unwrap().status, CoverageStatus::Partial);
    }

    #[test]
    fn ties_keep_the_earlier_reason() {
        let a = Coverage::complete().downgrade(Some(&json!({"actions": {"status": "partial", "reason": "first"}})));
        let b = Coverage::complete().downgrade(Some(&json!({"actions": {"status": "partial", "reason": "second"}})));
        assert_eq!(a.worst(&b).get("actions").unwrap().reason.as_deref(), Some("first"));
    }

    #[test]
    fn entry_validation_messages() {
        assert!(CoverageEntry::parse(&json!({"status": "complete", "reason": "x"})).is_err());
        assert!(CoverageEntry::parse(&json!({"status": "partial", "reason": "  "})).is_err());
        assert!(CoverageEntry::parse(&json!({"status": "unknown"})).is_err());
    }
}
