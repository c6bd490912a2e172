//! `niceeval show … --json` documents (`format: niceeval.show`, formats.md §6).
//!
//! `data.kind` `attempt`, `execution`, `timing`, `source` and
//! `run-membership` become attempts keyed by locator. Evidence entries
//! already carry the derived check/expected/observed/explanation; the
//! observability view has blobs resolved; turns are rebuilt from its
//! conversation items exactly as for a Record (there is no
//! source-navigation join here, so session/turn labels come from the
//! `agent.send` timing intervals matched by order when the counts agree).
//!
//! Several show documents of the same attempt (`--json`, `--timing --json`,
//! `--source --json`) combine into one attempt with
//! [`combine_same_locator`], which [`super::document::merge`] calls.

use super::assertions;
use super::record::{files, observability};
use crate::load::error::LoadError;
use crate::model::document::{Attempt, Completeness, Document, Membership, Notice, NoticeLevel, SourceFile};
use crate::model::notice::ShowNotice;
use crate::model::timing::Timing;
use serde_json::Value;

pub fn looks_like(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some("niceeval.show")
}

fn s(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

fn notice(level: NoticeLevel, fact: ShowNotice) -> Notice {
    Notice::new(level, fact)
}

fn entries(v: Option<&Value>) -> &[Value] {
    v.and_then(|x| x.get("entries").or(Some(x))).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// What `selection.sampleIdentity` (`sample-v1:{json}`) says about slots and runs.
struct Sample {
    value: Value,
}

impl Sample {
    fn parse(root: &Value) -> Sample {
        let value = root
            .get("selection")
            .and_then(|x| x.get("sampleIdentity"))
            .and_then(Value::as_str)
            .and_then(|id| id.split_once(':'))
            .and_then(|(_, json)| serde_json::from_str(json).ok())
            .unwrap_or(Value::Null);
        Sample { value }
    }

    /// The slot whose (base) attempt has this locator.
    fn slot(&self, locator: &str) -> Option<&Value> {
        let slots = self.value.get("slots")?.as_array()?;
        let loc_of =
            |x: &Value| x.get("attempt").and_then(|a| a.get("locator")).and_then(Value::as_str).map(str::to_string);
        slots.iter().find(|x| {
            loc_of(x).as_deref() == Some(locator) || x.get("base").and_then(loc_of).as_deref() == Some(locator)
        })
    }

    fn run(&self, run_id: &str) -> Option<&Value> {
        self.value.get("runs")?.as_array()?.iter().find(|r| r.get("runId").and_then(Value::as_str) == Some(run_id))
    }

    fn fill(&self, a: &mut Attempt) {
        let Some(loc) = a.locator.clone() else { return };
        if let Some(slot) = self.slot(&loc) {
            a.eval_id = a.eval_id.take().or_else(|| s(slot.get("evalId")));
            a.experiment_id = a.experiment_id.take().or_else(|| s(slot.get("experimentId")));
            a.attempt_number =
                a.attempt_number.or_else(|| slot.get("attemptOrdinal").and_then(Value::as_u64).map(|o| o + 1));
            let base = slot.get("base").unwrap_or(slot);
            let m = a.review.membership.get_or_insert_with(Membership::default);
            m.run_id = m.run_id.take().or_else(|| s(slot.get("runId")));
            m.slot_id = m.slot_id.take().or_else(|| s(slot.get("slotId")));
            m.action = m.action.take().or_else(|| s(base.get("action")));
        }
        let origin = a.review.membership.as_ref().and_then(|m| m.origin_run_id.clone());
        if let Some(run) = origin.as_deref().and_then(|r| self.run(r)) {
            let exec = run.get("context").and_then(|c| c.get("execution"));
            a.model = a.model.take().or_else(|| exec.and_then(|e| s(e.get("model"))));
            a.agent = a.agent.take().or_else(|| exec.and_then(|e| s(e.get("agentId"))));
            a.started_at = a
                .started_at
                .take()
                .or_else(|| run.get("startedAt").and_then(Value::as_f64).map(super::record::epoch_ms_iso));
        }
    }
}

/// The attempt for a view entry's `attempt: {kind, locator, originRunId}`.
fn attempt_for<'a>(attempts: &'a mut Vec<Attempt>, entry: &Value) -> &'a mut Attempt {
    let r = entry.get("attempt");
    let locator = r.and_then(|r| s(r.get("locator")));
    let origin = r.and_then(|r| s(r.get("originRunId")));
    let pos = attempts.iter().position(|a| a.locator.is_some() && a.locator == locator);
    let i = match pos {
        Some(i) => i,
        None => {
            attempts.push(Attempt {
                locator,
                events_exact: false,
                review: crate::model::document::Review {
                    membership: Some(Membership { origin_run_id: origin, ..Default::default() }),
                    ..Default::default()
                },
                ..Default::default()
            });
            attempts.len() - 1
        }
    };
    &mut attempts[i]
}

fn state_of(entry: &Value) -> &str {
    entry.get("state").and_then(Value::as_str).unwrap_or("available")
}

fn apply_evidence(attempts: &mut Vec<Attempt>, ev: Option<&Value>) {
    for e in entries(ev) {
        let a = attempt_for(attempts, e);
        let state = state_of(e);
        if state != "available" {
            a.review.assertions_state = Some(Completeness::NotRecorded);
            a.notices.push(notice(NoticeLevel::Warning, ShowNotice::AssessmentEvidence { state: state.to_string() }));
            continue;
        }
        let Some(d) = e.get("detail") else { continue };
        a.outcome = a.outcome.take().or_else(|| s(d.get("outcome")));
        let mut list: Vec<_> = d
            .get("entries")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .map(assertions::from_show)
            .collect();
        let sites = d.get("sourceSites").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        for x in &mut list {
            x.source_order = sites
                .iter()
                .filter(|site| site.get("entryId").and_then(Value::as_str) == x.entry_id.as_deref())
                .find_map(|site| site.get("sourceOrder").and_then(Value::as_u64));
        }
        a.review.source_sites.extend(sites.iter().map(super::record::attempt::source_site));
        let folded = assertions::fold_verdict(a.outcome.as_deref(), Some(&list));
        a.verdict = assertions::read_verdict(d.get("verdict"), &mut a.notices).or(folded);
        a.score = assertions::sum_score(&list);
        a.review.assertions_state = Some(Completeness::Complete);
        a.review.assertions = Some(list);
    }
}

fn apply_observability(attempts: &mut Vec<Attempt>, obs: Option<&Value>) {
    for e in entries(obs) {
        let a = attempt_for(attempts, e);
        let state = state_of(e);
        match e.get("detail") {
            Some(d) if state == "available" => {
                observability::apply(a, observability::Obs::from_value(d), None, None);
            }
            _ => {
                a.events = Some(Completeness::NotRecorded);
                let state = state.to_string();
                a.notices.push(notice(NoticeLevel::Warning, ShowNotice::ExecutionEvidence { state }));
            }
        }
    }
}

fn apply_file_changes(attempts: &mut Vec<Attempt>, fc: Option<&Value>) {
    for e in entries(fc) {
        let a = attempt_for(attempts, e);
        let state = state_of(e);
        let mut n = Vec::new();
        a.review.file_changes = Some(match e.get("detail") {
            Some(d) if state == "available" => {
                let windows = d.get("trajectory").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
                files::from_windows(windows, d.get("collection"), None, &mut n)
            }
            _ if state == "not-recorded" => files::not_recorded(),
            _ => {
                n.push(notice(NoticeLevel::Warning, ShowNotice::FileChanges { state: state.to_string() }));
                files::not_recorded()
            }
        });
        a.notices.extend(n);
    }
}

fn apply_timing(attempts: &mut Vec<Attempt>, timing: Option<&Value>) {
    for e in timing.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
        let a = attempt_for(attempts, e);
        let Some(t) = e.get("timing").filter(|_| state_of(e) == "available") else {
            a.notices.push(notice(NoticeLevel::Info, ShowNotice::Timing { state: state_of(e).to_string() }));
            continue;
        };
        let timing = Timing::from_collection(t, observability::completeness(t.get("collection")));
        a.duration_ms = a.duration_ms.or_else(|| timing.span_ms());
        if a.review.timing.intervals.is_empty() {
            a.review.timing = timing;
        }
    }
}

fn apply_sources(attempts: &mut Vec<Attempt>, sources: Option<&Value>) {
    for e in entries(sources) {
        let a = attempt_for(attempts, e);
        let items =
            e.get("detail").and_then(|d| d.get("items")).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        for i in items {
            let content = i.get("content");
            let text = content
                .filter(|c| c.get("state").and_then(Value::as_str).is_none_or(|st| st == "available"))
                .and_then(|c| c.get("text").or_else(|| c.get("content").and_then(|x| x.get("text"))))
                .and_then(Value::as_str)
                .map(str::to_string);
            a.review.sources.push(SourceFile {
                id: s(i.get("sourceItemId")),
                path: s(i.get("path")).unwrap_or_else(|| "(unknown path)".into()),
                content: text,
                sha256: s(i.get("sha256")),
            });
        }
    }
}

fn apply_members(attempts: &mut Vec<Attempt>, members: Option<&Value>) {
    for m in members.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
        let Some(loc) = s(m.get("locator")) else { continue };
        let entry = serde_json::json!({ "attempt": { "locator": loc } });
        let a = attempt_for(attempts, &entry);
        a.eval_id = a.eval_id.take().or_else(|| s(m.get("eval")));
        a.experiment_id = a.experiment_id.take().or_else(|| s(m.get("experiment")));
        a.attempt_number = a.attempt_number.or_else(|| m.get("attempt").and_then(Value::as_u64).map(|o| o + 1));
        a.outcome = a.outcome.take().or_else(|| s(m.get("outcome")));
        if a.verdict.is_none() {
            a.verdict = assertions::read_verdict(m.get("verdict"), &mut a.notices);
        }
        let mem = a.review.membership.get_or_insert_with(Membership::default);
        mem.run_id = mem.run_id.take().or_else(|| s(m.get("selectedRun")));
        mem.slot_id = mem.slot_id.take().or_else(|| s(m.get("slot")));
        mem.action = mem.action.take().or_else(|| s(m.get("state")));
        if let Some(err) = m.get("error").filter(|e| !e.is_null()) {
            a.review.diagnostics.push(crate::model::document::Diagnostic {
                kind: "execution-error".into(),
                code: s(err.get("code")).unwrap_or_default(),
                phase: s(m.get("phase")),
                message: s(err.get("summary"))
                    .or_else(|| err.as_str().map(str::to_string))
                    .unwrap_or_else(|| err.to_string()),
                causes: Vec::new(),
            });
        }
    }
}

pub fn load(path: &str, value: Value) -> Result<Document, LoadError> {
    let data = value.get("data").ok_or_else(|| LoadError::new(path, "niceeval.show document has no `data`"))?;
    let kind = data.get("kind").and_then(Value::as_str).unwrap_or("");
    let mut attempts = Vec::new();
    match kind {
        "attempt" => {
            apply_evidence(&mut attempts, data.get("evidence"));
            apply_observability(&mut attempts, data.get("observability"));
            apply_file_changes(&mut attempts, data.get("fileChanges"));
        }
        "execution" => apply_observability(&mut attempts, data.get("execution")),
        "timing" => apply_timing(&mut attempts, data.get("timing")),
        "source" => apply_sources(&mut attempts, data.get("sources")),
        "run-membership" => {
            apply_members(&mut attempts, data.get("members"));
            apply_evidence(&mut attempts, data.get("evidence"));
        }
        "groups" | "experiment-group" => return Ok(super::info::show_overview(path, kind, &value)),
        other => {
            return Err(LoadError::new(path, format!("unknown `niceeval show --json` page kind {other:?}")));
        }
    }
    let sample = Sample::parse(&value);
    for a in &mut attempts {
        // Pages other than attempt/execution leave `events` None: they do
        // not say whether the conversation was recorded; another page may.
        sample.fill(a);
    }
    let mut doc = Document {
        format: format!("niceeval show --json ({kind})"),
        sources: vec![path.to_string()],
        ..Default::default()
    };
    for p in value.get("problems").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
        let code = p.get("code").and_then(Value::as_str).map(str::to_string);
        let summary = p.get("summary").and_then(Value::as_str).map(str::to_string);
        doc.notices.push(notice(NoticeLevel::Warning, ShowNotice::Problem { code, summary }));
    }
    for a in &attempts {
        for n in a.notices.iter().filter(|n| n.level >= NoticeLevel::Warning) {
            let about = ShowNotice::AboutAttempt { locator: a.locator.clone(), notice: Box::new(n.clone()) };
            doc.notices.push(notice(n.level, about));
        }
    }
    if attempts.is_empty() {
        doc.notices.push(notice(NoticeLevel::Info, ShowNotice::NoAttempts));
    }
    doc.attempts = attempts;
    Ok(doc)
}

/// Combine attempts that share a locator (parts of the same attempt from
/// several `show --json` pages, or the same attempt from several inputs).
/// The first occurrence keeps its order; later parts fill what it lacks.
/// Attempts without a locator are left as they are.
pub fn combine_same_locator(attempts: Vec<Attempt>) -> Vec<Attempt> {
    let mut out: Vec<Attempt> = Vec::with_capacity(attempts.len());
    for a in attempts {
        match a.locator.as_ref().and_then(|l| out.iter().position(|b| b.locator.as_ref() == Some(l))) {
            Some(i) => absorb(&mut out[i], a),
            None => out.push(a),
        }
    }
    out
}

fn absorb(dst: &mut Attempt, src: Attempt) {
    macro_rules! fill {
        ($($f:ident),*) => { $( if dst.$f.is_none() { dst.$f = src.$f; } )* };
    }
    fill!(
        eval_id,
        experiment_id,
        attempt_number,
        attempt_id,
        verdict,
        outcome,
        model,
        agent,
        score,
        duration_ms,
        started_at,
        reported_usage,
        recorded_usage,
        reported_estimate
    );
    let dst_events_missing = matches!(dst.events, None | Some(Completeness::NotRecorded));
    if dst.sessions.is_empty() && !src.sessions.is_empty()
        || dst_events_missing && src.events.is_some() && !matches!(src.events, Some(Completeness::NotRecorded))
    {
        dst.sessions = src.sessions;
        dst.events = src.events;
        dst.events_exact = src.events_exact;
        dst.answers_not_recorded = src.answers_not_recorded;
        dst.from_record_conversation = src.from_record_conversation;
    } else if dst.events.is_none() {
        dst.events = src.events;
    }
    let (d, s) = (&mut dst.review, src.review);
    if d.assertions.is_none() {
        d.assertions = s.assertions;
        d.assertions_state = s.assertions_state;
    }
    if d.diagnostics.is_empty() {
        d.diagnostics = s.diagnostics;
    }
    if d.file_changes.as_ref().is_none_or(|f| f.state == Some(Completeness::NotRecorded)) && s.file_changes.is_some() {
        d.file_changes = s.file_changes;
    }
    if d.sources.is_empty() {
        d.sources = s.sources;
    }
    if d.source_sites.is_empty() {
        d.source_sites = s.source_sites;
    }
    if d.commands.is_empty() {
        d.commands = s.commands;
        d.commands_state = d.commands_state.take().or(s.commands_state);
    }
    if d.trace.is_none() {
        d.trace = s.trace;
    }
    if d.timing.intervals.is_empty() {
        d.timing = s.timing;
    }
    if d.membership.is_none() {
        d.membership = s.membership;
    }
    for n in src.notices {
        if !dst.notices.contains(&n) {
            dst.notices.push(n);
        }
    }
}
