//! The translation's words over a provenance made by hand: four lines of a
//! log, one of them dropped, one with two events.

use super::*;
use crate::model::derive::derive_attempt;
use crate::model::document::{Attempt, Session, Turn, TurnRecord};
use crate::model::event::Source;
use crate::model::provenance::{NativeLine, ProvenanceBuilder};

const LOG: &str = "{\"type\":\"system\",\"subtype\":\"init\",\"uuid\":\"u\",\"model\":\"m\"}\n{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"Fix it.\"}}\n{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"On it\"}]}}\nnot json \u{1b}[31m\n";

/// The attempt (one turn of three messages) and its provenance.
fn attempt() -> (Attempt, DerivedAttempt) {
    let message = |role: &str, text: &str| json!({"type": "message", "role": role, "text": text});
    let events =
        json!({"events": [message("user", "Fix it."), message("assistant", "On it"), message("assistant", "…")]});
    let (turn, _) = Turn::from_owned(events);
    let mut b = ProvenanceBuilder::new(
        Origin::AgentLog { agent: "claude-code".into(), repaired: false },
        Source::shared(std::sync::Arc::new(LOG.as_bytes().to_vec())),
    );
    let mut start = 0u64;
    let lines: Vec<&str> = LOG.lines().collect();
    let produced: [(&[u32], Option<DropReason>); 4] = [
        (&[], Some(DropReason::Skipped(SkipReason::Metadata))),
        (&[0], None),
        (&[1, 2], None),
        (&[], Some(DropReason::Skipped(SkipReason::NotJson("x".into())))),
    ];
    for (n, (text, (events, dropped))) in lines.iter().zip(produced).enumerate() {
        let word = ["system init", "user", "assistant", "(raw text)"][n];
        let kind = b.kind(word);
        let line = NativeLine { number: n as u32 + 1, start, len: text.len() as u32, kind, session: 0, turn: 0 };
        b.push(line, events, dropped);
        start += text.len() as u64 + 1;
    }
    let mut a = Attempt::default();
    a.sessions.push(Session { index: 1, turns: vec![TurnRecord { turn, ..Default::default() }], ..Default::default() });
    a.provenance = Some(std::sync::Arc::new(b.finish()));
    let derived = derive_attempt(&a, None, &crate::model::usage::builtin_prices());
    (a, derived)
}

#[test]
fn each_line_is_worded_with_the_events_it_became() {
    let (a, derived) = attempt();
    let p = a.provenance.as_deref().unwrap();
    let rows: Vec<LineRow> = (0..p.lines.len()).map(|i| line_row(&derived, p, i)).collect();
    assert_eq!(rows[0].kind, "system init");
    assert_eq!(rows[0].became().as_plain(), "dropped: metadata");
    assert_eq!(rows[0].preview, "{\"model\":\"m\"}", "the envelope (type, subtype, uuid) is left out");
    assert_eq!(rows[1].events, vec!["1:1"]);
    assert_eq!(rows[1].preview, "Fix it.", "a message line shows its content");
    assert_eq!(rows[2].became().as_plain(), "→ 1:2 1:3");
    assert_eq!(rows[2].what().as_plain(), "assistant  [{\"type\":\"text\",\"text\":\"On it\"}]");
    assert_eq!(rows[3].dropped.as_deref(), Some("not JSON"));
    assert!(!rows[3].preview.contains('\u{1b}'), "a preview is sanitised: {:?}", rows[3].preview);
}

#[test]
fn every_event_names_its_source_line() {
    let (a, _) = attempt();
    let p = a.provenance.as_deref().unwrap();
    let addr = TurnAddr { session: 0, turn: 0 };
    assert_eq!(event_source(p, addr, 0).as_deref(), Some("line 2"));
    assert_eq!(event_source(p, addr, 1).as_deref(), Some("line 3"));
    assert_eq!(event_source(p, addr, 2).as_deref(), Some("line 3"));
    assert_eq!(event_source(p, addr, 3), None, "no such event");
    assert_eq!(event_source(p, TurnAddr { session: 0, turn: 1 }, 0), None, "no such turn");
}

#[test]
fn counts_say_lines_producing_and_dropped_by_kind() {
    let (a, _) = attempt();
    let p = a.provenance.as_deref().unwrap();
    let c = counts(p);
    assert_eq!((c.lines, c.producing, c.events), (4, 2, 3));
    assert_eq!(c.dropped, vec![("(raw text)".to_string(), 1), ("system init".to_string(), 1)]);
    assert_eq!(counts_text(p).as_plain(), "4 lines · 2 made 3 events · 2 dropped ((raw text) 1, system init 1)");
}

#[test]
fn raw_text_is_pretty_json_and_ranges_point_into_the_source() {
    let (a, _) = attempt();
    let p = a.provenance.as_deref().unwrap();
    assert_eq!(p.text(3), "not json \u{1b}[31m".as_bytes());
    assert!(raw_pretty(p, 1).contains("\n  \"type\": \"user\""), "{}", raw_pretty(p, 1));
    assert!(raw_pretty(p, 3).starts_with("not json"));
    assert!(drop_detail(p.dropped(3).unwrap()).contains("parseSuccess false"));
}
