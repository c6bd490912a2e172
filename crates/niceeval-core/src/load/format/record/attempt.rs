//! One attempt directory of a Record (`runs/<id>/attempts/<attemptId>/`):
//! its `attempt.json` and attachments, read family by family into an
//! [`Attempt`] that already holds its run's facts.

use super::{Attachment, confine, files, notice, observability, read_attachments, read_json, s};
use crate::load::format::assertions;
use crate::load::format::locator::attempt_locator;
use crate::model::document::{Attempt, Completeness, FileChanges, Notice, NoticeLevel, SourceFile, SourceSite};
use crate::model::notice::{RecordNotice, Unread};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// Read one attempt dir into `a` (which already holds run facts).
pub fn load_attempt(a: &mut Attempt, attempt_dir: &Path, attempt_id: &str) {
    a.attempt_id = Some(attempt_id.to_string());
    a.locator = Some(attempt_locator(attempt_id));
    let mut notices = Vec::new();
    if let Err(why) = confine::inside(attempt_dir) {
        notices.push(notice(NoticeLevel::Error, RecordNotice::Unread(Unread::Outside { why })));
        a.notices.extend(notices);
        return;
    }
    if !attempt_dir.is_dir() {
        notices.push(notice(NoticeLevel::Error, RecordNotice::AttemptDirMissing { dir: attempt_dir.to_path_buf() }));
    }
    read_attempt_json(a, attempt_dir, attempt_id, &mut notices);
    let atts = read_attachments(attempt_dir, &mut notices);
    // The source-navigation rows join turns to their timing intervals and sends to their source.
    let nav = atts.get("niceeval.source-navigation");
    let nav_rows: Option<Vec<Value>> = nav.and_then(|n| n.payload.get("rows-data")).and_then(Value::as_array).cloned();
    read_observability(a, atts.get("niceeval.observability"), nav_rows.as_deref(), &mut notices);
    if let Some(rows) = &nav_rows {
        read_send_sites(a, rows);
    }
    read_assertions(a, atts.get("niceeval.assertions"), &mut notices);
    a.verdict = assertions::fold_verdict(a.outcome.as_deref(), a.review.assertions.as_deref());
    a.score = a.review.assertions.as_deref().and_then(assertions::sum_score);
    a.review.file_changes = Some(file_changes(atts.get("niceeval.file-changes"), &mut notices));
    if let Some(att) = atts.get("niceeval.artifacts") {
        read_trace(a, att, &mut notices);
    }
    // Sources stored with the attempt (not the usual place, but read them).
    if let Some(att) = atts.get("niceeval.sources") {
        a.review.sources = read_sources(Some(att), &mut notices);
    }
    a.notices.extend(notices);
}

/// `attempt.json`: the eval id and outcome.
fn read_attempt_json(a: &mut Attempt, attempt_dir: &Path, attempt_id: &str, notices: &mut Vec<Notice>) {
    let Some(aj) = read_json(&attempt_dir.join("attempt.json"), notices) else { return };
    a.eval_id = s(aj.get("evalId")).or(a.eval_id.take());
    a.outcome = s(aj.get("outcome"));
    if let Some(id) = aj.get("attemptId").and_then(Value::as_str)
        && id != attempt_id
    {
        let differs = RecordNotice::AttemptIdDiffers { written: id.to_string(), dir_id: attempt_id.to_string() };
        notices.push(notice(NoticeLevel::Warning, differs));
    }
}

/// Observability: the conversation, usage, timing and commands.
fn read_observability(
    a: &mut Attempt,
    obs: Option<&Attachment>,
    nav_rows: Option<&[Value]>,
    notices: &mut Vec<Notice>,
) {
    let Some(obs) = obs else {
        a.events = Some(Completeness::NotRecorded);
        notices.push(notice(NoticeLevel::Info, RecordNotice::ObservabilityNotRecorded));
        return;
    };
    let blobs = obs.blobs();
    let mut stream_notices = Vec::new();
    let mut resolve = |st: &Value| -> Option<String> {
        let r = st.get("storage").and_then(|x| x.get("ref")).or_else(|| st.get("ref"))?;
        // A stream's sha256 covers the retained bytes.
        let integrity = serde_json::json!({
            "byteLength": st.get("retainedBytes").cloned().unwrap_or(Value::Null),
            "sha256": st.get("sha256").cloned().unwrap_or(Value::Null),
        });
        blobs.text(r, Some(&integrity), &mut stream_notices)
    };
    observability::apply(a, observability::Obs::from_value(&obs.payload), nav_rows, Some(&mut resolve));
    notices.extend(stream_notices);
}

/// Send sites from source-navigation, each named by its turn's label.
fn read_send_sites(a: &mut Attempt, rows: &[Value]) {
    let label_of: HashMap<&str, &str> =
        a.review.timing.intervals.iter().filter_map(|i| Some((i.id.as_deref()?, i.label.as_str()))).collect();
    for row in rows {
        let src = row.get("source");
        let label = || {
            row.get("timing")
                .and_then(|t| t.get("intervalId"))
                .and_then(Value::as_str)
                .and_then(|iid| label_of.get(iid))
                .map(|l| l.to_string())
        };
        if src.and_then(|x| x.get("state")).and_then(Value::as_str) != Some("mapped") {
            a.review.unmapped_sends.push(crate::model::review::UnmappedSend {
                turn_label: label(),
                reason: src.and_then(|x| s(x.get("reason"))),
            });
            continue;
        }
        let start = src.and_then(|x| x.get("start"));
        a.review.source_sites.push(SourceSite {
            entry_id: None,
            source_id: src.and_then(|x| s(x.get("sourceItemId"))),
            line: start.and_then(|x| x.get("line")).and_then(Value::as_u64).unwrap_or(0),
            role: Some("send".into()),
            column: start.and_then(|x| x.get("column")).and_then(Value::as_u64),
            source_order: row.get("sourceOrder").and_then(Value::as_u64),
            turn_label: label(),
        });
    }
}

/// Assertions, with their place in the eval source.
fn read_assertions(a: &mut Attempt, att: Option<&Attachment>, notices: &mut Vec<Notice>) {
    let Some(att) = att else {
        a.review.assertions_state = Some(Completeness::NotRecorded);
        notices.push(notice(NoticeLevel::Info, RecordNotice::AssertionsNotRecorded));
        return;
    };
    let blobs = att.blobs();
    let mut bn = Vec::new();
    let mut resolve = |m: &Value| -> Option<String> { blobs.text(m.get("ref")?, Some(m), &mut bn) };
    let entries = att.payload.get("entries-data").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let list: Vec<_> = entries
        .iter()
        .map(|e| {
            if att.version == 1 {
                assertions::from_v1(e, Some(&mut resolve))
            } else {
                assertions::from_v2(e, Some(&mut resolve))
            }
        })
        .collect();
    notices.extend(bn);
    let sites = att.payload.get("source-sites-data").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let mut list = list;
    for a2 in &mut list {
        a2.source_order = sites
            .iter()
            .filter(|x| x.get("entryId").and_then(Value::as_str) == a2.entry_id.as_deref())
            .find_map(|x| x.get("sourceOrder").and_then(Value::as_u64));
    }
    for site in sites {
        a.review.source_sites.push(source_site(site));
    }
    a.review.assertions_state = Some(Completeness::Complete);
    a.review.assertions = Some(list);
}

/// File changes, or "not recorded".
fn file_changes(att: Option<&Attachment>, notices: &mut Vec<Notice>) -> FileChanges {
    match att {
        Some(att) => {
            let blobs = att.blobs();
            let windows = att.payload.get("windows-data").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
            files::from_windows(windows, att.payload.get("collection-data"), Some(&blobs), notices)
        }
        None => files::not_recorded(),
    }
}

/// Artifacts: the OTel trace.
fn read_trace(a: &mut Attempt, att: &Attachment, notices: &mut Vec<Notice>) {
    let blobs = att.blobs();
    for art in att.payload.get("artifacts-data").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
        if art.get("label").and_then(Value::as_str) != Some("otel-trace.json") {
            continue;
        }
        let Some(text) = art.get("content").and_then(|c| blobs.text(c, Some(art), notices)) else { continue };
        match serde_json::from_str::<Value>(&text) {
            Ok(v) => a.review.trace = Some(v),
            Err(e) => notices.push(notice(NoticeLevel::Warning, RecordNotice::TraceNotJson { why: e.to_string() })),
        }
    }
}

/// The sources of a `niceeval.sources` attachment.
pub fn read_sources(att: Option<&Attachment>, notices: &mut Vec<Notice>) -> Vec<SourceFile> {
    let Some(att) = att else { return Vec::new() };
    let blobs = att.blobs();
    att.payload
        .get("items-data")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|i| SourceFile {
                    id: s(i.get("sourceItemId")),
                    path: s(i.get("path")).unwrap_or_else(|| "(unknown path)".into()),
                    content: i.get("content").and_then(|c| blobs.text(c, Some(i), notices)),
                    sha256: s(i.get("sha256")),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// One `source-sites-data` entry (also the `sourceSites` of `show --json`).
pub fn source_site(site: &Value) -> SourceSite {
    let start = site.get("start");
    SourceSite {
        entry_id: s(site.get("entryId")),
        source_id: s(site.get("sourceItemId")),
        line: start.and_then(|x| x.get("line")).and_then(Value::as_u64).unwrap_or(0),
        role: s(site.get("role")),
        column: start.and_then(|x| x.get("column")).and_then(Value::as_u64),
        source_order: site.get("sourceOrder").and_then(Value::as_u64),
        turn_label: None,
    }
}
