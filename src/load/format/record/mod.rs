//! Record directories (`.niceeval/record`, `record.json` with
//! `format: niceeval.record`), read as formats.md §2.6 says:
//!
//! 1. `record.json` must say `format: niceeval.record` (an extra legacy
//!    `schemaVersion` key is ignored).
//! 2. Only runs with a zero-byte regular `complete` file are read; drafts
//!    are skipped with an Info notice.
//! 3. Every member with an attempt ref (executed, carried, accepted) loads
//!    `runs/<originRunId>/attempts/<attemptId>/`, which may sit in another
//!    run. An attempt included by several runs appears once; the other
//!    runs are listed in `Membership::also_in`.
//! 4. Attachments are read by family and `schemaVersion`; an unknown family
//!    or a newer version is skipped with a Notice, the rest still opens.
//! 5. Blob refs are resolved eagerly at load from the sibling `blobs/` dir,
//!    with `byteLength`/`sha256` checked (see [`blob`]).
//! 6. Turns are rebuilt from conversation items (see [`observability`]),
//!    the verdict folded and the locator computed.
//!
//! Nothing here writes to the Record.

pub mod blob;
mod confine;
pub mod files;
pub mod observability;
mod runs;
pub mod scope;

use super::assertions;
use super::locator::attempt_locator;
use crate::load::error::LoadError;
use crate::model::document::{
    Attempt, Completeness, Document, Membership, Notice, NoticeLevel, SourceFile, SourceSite,
};
use blob::Blobs;
use runs::{Run, is_complete_marker, read_runs};
pub use scope::Scope;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Families this viewer reads and the newest `schemaVersion` of each.
pub const KNOWN_FAMILIES: [(&str, u64); 6] = [
    ("niceeval.assertions", 2),
    ("niceeval.observability", 2),
    ("niceeval.file-changes", 1),
    ("niceeval.source-navigation", 1),
    ("niceeval.sources", 1),
    ("niceeval.artifacts", 1),
];

/// The Record root for `dir`: `dir` itself when it holds a `record.json`
/// with `format: niceeval.record`, else `dir/.niceeval/record`, else `dir/record`.
pub fn find(dir: &Path) -> Option<PathBuf> {
    [dir.to_path_buf(), dir.join(".niceeval").join("record"), dir.join("record")]
        .into_iter()
        .find(|candidate| is_record_root(candidate))
}

fn is_record_root(dir: &Path) -> bool {
    let Ok(bytes) = std::fs::read(dir.join("record.json")) else { return false };
    crate::load::parse::compact::from_slice(crate::load::parse::strip_bom(&bytes))
        .ok()
        .is_some_and(|v| v.get("format").and_then(Value::as_str) == Some("niceeval.record"))
}

fn notice(level: NoticeLevel, message: impl Into<String>) -> Notice {
    Notice { level, message: message.into() }
}

/// Read and parse a JSON file; problems become notices.
fn read_json(path: &Path, notices: &mut Vec<Notice>) -> Option<Value> {
    if let Err(why) = confine::inside(path) {
        notices.push(notice(NoticeLevel::Warning, why));
        return None;
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            notices.push(notice(
                NoticeLevel::Warning,
                format!("{}: {}", path.display(), crate::load::input::io_message(&e)),
            ));
            return None;
        }
    };
    match crate::load::parse::compact::from_slice(crate::load::parse::strip_bom(&bytes)) {
        Ok(v) => Some(v),
        Err(e) => {
            notices.push(notice(NoticeLevel::Warning, LoadError::json(&path.display().to_string(), &e, 0).to_string()));
            None
        }
    }
}

/// The directories in `dir`, but none that leads outside the Record (a notice says so).
fn sub_dirs(dir: &Path, notices: &mut Vec<Notice>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    out.retain(|p| match confine::inside(p) {
        Ok(()) => true,
        Err(why) => {
            notices.push(notice(NoticeLevel::Warning, why));
            false
        }
    });
    out.sort();
    out
}

fn s(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

/// One attachment: its dir (for blobs), version and payload.
pub struct Attachment {
    pub dir: PathBuf,
    pub version: u64,
    pub payload: Value,
}

impl Attachment {
    pub fn blobs(&self) -> Blobs {
        Blobs::new(&self.dir)
    }
}

/// `<owner>/attachments/<family>/` → family → Attachment, for the families
/// and versions this viewer knows. Everything else is a notice.
pub fn read_attachments(owner: &Path, notices: &mut Vec<Notice>) -> BTreeMap<String, Attachment> {
    let mut out = BTreeMap::new();
    for dir in sub_dirs(&owner.join("attachments"), notices) {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(envelope) = read_json(&dir.join("attachment.json"), notices) else {
            notices.push(notice(
                NoticeLevel::Warning,
                format!("attachment {} has no readable attachment.json; skipped", dir.display()),
            ));
            continue;
        };
        let family = envelope.get("family").and_then(Value::as_str).unwrap_or(&name).to_string();
        let Some(&(_, newest)) = KNOWN_FAMILIES.iter().find(|(f, _)| *f == family) else {
            notices.push(notice(
                NoticeLevel::Warning,
                format!(
                    "unknown attachment family {family:?} in {}; skipped (this viewer reads {})",
                    dir.display(),
                    KNOWN_FAMILIES.iter().map(|(f, _)| *f).collect::<Vec<_>>().join(", ")
                ),
            ));
            continue;
        };
        if family != name {
            notices.push(notice(
                NoticeLevel::Warning,
                format!("attachment dir {} declares family {family:?}; read as {family}", dir.display()),
            ));
        }
        let Some(version) = envelope.get("schemaVersion").and_then(Value::as_u64) else {
            notices.push(notice(
                NoticeLevel::Warning,
                format!("{family} in {} has no schemaVersion; skipped", dir.display()),
            ));
            continue;
        };
        if version == 0 || version > newest {
            notices.push(notice(
                NoticeLevel::Warning,
                format!(
                    "{family} schemaVersion {version} in {} is newer than this viewer supports (up to {newest}); skipped — update niceeval",
                    dir.display()
                ),
            ));
            continue;
        }
        let Some(payload) = read_json(&dir.join("payload.json"), notices) else { continue };
        out.insert(family, Attachment { dir, version, payload });
    }
    out
}

/// Load a Record root into a document.
pub fn load_dir(dir: &Path) -> Result<Document, LoadError> {
    load_scoped(dir, &Scope::Whole)
}

/// [`load_dir`] limited to one run or one attempt of the Record at `dir`.
pub fn load_scoped(dir: &Path, scope: &Scope) -> Result<Document, LoadError> {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let _confined = confine::Confined::to(dir);
    let shown = dir.display().to_string();
    let record_json = dir.join("record.json");
    confine::inside(&record_json).map_err(|why| LoadError::new(record_json.display().to_string(), why))?;
    let bytes = std::fs::read(&record_json)
        .map_err(|e| LoadError::new(record_json.display().to_string(), crate::load::input::io_message(&e)))?;
    let root = crate::load::parse::parse_json(&record_json.display().to_string(), &bytes)?;
    if root.get("format").and_then(Value::as_str) != Some("niceeval.record") {
        return Err(LoadError::new(
            record_json.display().to_string(),
            "not a NiceEval Record (format is not niceeval.record)",
        ));
    }
    let mut doc = Document { format: scope.format_name(), sources: vec![shown], ..Default::default() };

    let (mut runs, drafts) = read_runs(dir, &mut doc.notices);
    let published: Vec<&str> = runs.iter().map(|r| r.id.as_str()).collect();
    scope.check_runs(&published, &drafts).map_err(|why| LoadError::new(dir.display().to_string(), why))?;
    runs.retain(|r| scope.keeps_run(&r.id));
    if !drafts.is_empty() {
        doc.notices.push(notice(
            NoticeLevel::Info,
            format!(
                "{} unfinished draft run(s) without a `complete` marker ignored: {}",
                drafts.len(),
                drafts.join(", ")
            ),
        ));
    }
    runs.sort_by(|a, b| {
        a.started_at.unwrap_or(f64::MAX).total_cmp(&b.started_at.unwrap_or(f64::MAX)).then(a.id.cmp(&b.id))
    });

    // Run-level diagnostics become document notices.
    for run in &runs {
        if let Some(att) = run.attachments.get("niceeval.observability") {
            for d in att.payload.get("diagnostics-data").map(observability::diagnostics).unwrap_or_default() {
                let level = if d.kind == "execution-error" { NoticeLevel::Error } else { NoticeLevel::Warning };
                doc.notices.push(notice(level, format!("run {}: {} {} {}", run.id, d.kind, d.code, d.message)));
            }
        }
    }

    let mut source_cache: HashMap<String, Vec<SourceFile>> = HashMap::new();
    let mut by_attempt: HashMap<String, usize> = HashMap::new();
    for run in &runs {
        for m in &run.members {
            let action = s(m.get("action"));
            let slot_id = s(m.get("slotId"));
            let slot = slot_id.as_deref().and_then(|id| run.slot(id));
            let attempt_ref = m.get("attempt").filter(|a| a.is_object());
            let Some(aref) = attempt_ref else {
                if !scope.keeps_slots_without_attempt() {
                    continue;
                }
                // not-dispatched / interrupted: a slot without an attempt.
                let mut a = base_attempt(run, slot);
                a.events = Some(Completeness::NotRecorded);
                a.review.membership = Some(Membership {
                    run_id: Some(run.id.clone()),
                    origin_run_id: None,
                    slot_id,
                    action: action.clone(),
                    also_in: Vec::new(),
                });
                a.notices.push(notice(
                    NoticeLevel::Info,
                    format!(
                        "slot was {} in run {}: no attempt recorded",
                        action.as_deref().unwrap_or("not run"),
                        run.id
                    ),
                ));
                doc.attempts.push(a);
                continue;
            };
            let (Some(attempt_id), Some(origin)) = (s(aref.get("attemptId")), s(aref.get("originRunId"))) else {
                doc.notices.push(notice(
                    NoticeLevel::Warning,
                    format!("run {}: a member has an incomplete attempt ref; skipped", run.id),
                ));
                continue;
            };
            if !scope.keeps_attempt(&attempt_id) {
                continue;
            }
            if let Some(&i) = by_attempt.get(&attempt_id) {
                if let Some(mem) = doc.attempts[i].review.membership.as_mut() {
                    mem.also_in.push((run.id.clone(), action.unwrap_or_default()));
                }
                continue;
            }
            let origin_dir = dir.join("runs").join(&origin);
            if !is_safe_component(&origin) || !is_safe_component(&attempt_id) {
                doc.notices.push(notice(
                    NoticeLevel::Warning,
                    format!("run {}: attempt ref {origin}/{attempt_id} is not a valid id; skipped", run.id),
                ));
                continue;
            }
            let attempt_dir = origin_dir.join("attempts").join(&attempt_id);
            let mut a = base_attempt(run, slot);
            if origin != run.id && !is_complete_marker(&origin_dir.join("complete")) {
                a.notices.push(notice(
                    NoticeLevel::Warning,
                    format!(
                        "origin run {origin} of this {} attempt is not published (no `complete`)",
                        action.as_deref().unwrap_or("member")
                    ),
                ));
            }
            load_attempt(&mut a, &attempt_dir, &attempt_id);
            a.review.membership = Some(Membership {
                run_id: Some(run.id.clone()),
                origin_run_id: Some(origin.clone()),
                slot_id,
                action,
                also_in: Vec::new(),
            });
            // Sources live in the origin run.
            let sources = source_cache.entry(origin.clone()).or_insert_with(|| {
                let mut n = Vec::new();
                let atts = match runs.iter().find(|r| r.id == origin) {
                    Some(r) => read_sources(r.attachments.get("niceeval.sources"), &mut n),
                    None => read_sources(read_attachments(&origin_dir, &mut n).get("niceeval.sources"), &mut n),
                };
                for x in n {
                    doc.notices.push(x);
                }
                atts
            });
            if a.review.sources.is_empty() {
                a.review.sources = sources.clone();
            }
            by_attempt.insert(attempt_id, doc.attempts.len());
            doc.attempts.push(a);
        }
    }

    if doc.attempts.is_empty() {
        doc.notices.push(notice(NoticeLevel::Info, "the Record has no published attempts"));
    }
    Ok(doc)
}

fn is_safe_component(s: &str) -> bool {
    !s.is_empty() && !s.starts_with('.') && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn base_attempt(run: &Run, slot: Option<&Value>) -> Attempt {
    let exec = run.value.get("context").and_then(|c| c.get("execution"));
    Attempt {
        experiment_id: s(run.value.get("experimentId"))
            .or_else(|| s(run.value.get("context").and_then(|c| c.get("experimentId")))),
        eval_id: slot.and_then(|x| s(x.get("evalId"))),
        attempt_number: slot.and_then(|x| x.get("attemptOrdinal")).and_then(Value::as_u64).map(|o| o + 1),
        model: exec.and_then(|e| s(e.get("model"))),
        agent: exec.and_then(|e| s(e.get("agentId"))),
        started_at: run.started_at.map(epoch_ms_iso),
        events_exact: false,
        ..Default::default()
    }
}

fn read_sources(att: Option<&Attachment>, notices: &mut Vec<Notice>) -> Vec<SourceFile> {
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

/// Read one attempt dir into `a` (which already holds run facts).
pub fn load_attempt(a: &mut Attempt, attempt_dir: &Path, attempt_id: &str) {
    a.attempt_id = Some(attempt_id.to_string());
    a.locator = Some(attempt_locator(attempt_id));
    let mut notices = Vec::new();
    if let Err(why) = confine::inside(attempt_dir) {
        notices.push(notice(NoticeLevel::Error, why));
        a.notices.extend(notices);
        return;
    }
    if !attempt_dir.is_dir() {
        notices.push(notice(NoticeLevel::Error, format!("attempt dir {} is missing", attempt_dir.display())));
    }
    if let Some(aj) = read_json(&attempt_dir.join("attempt.json"), &mut notices) {
        a.eval_id = s(aj.get("evalId")).or(a.eval_id.take());
        a.outcome = s(aj.get("outcome"));
        if let Some(id) = aj.get("attemptId").and_then(Value::as_str)
            && id != attempt_id
        {
            notices.push(notice(
                NoticeLevel::Warning,
                format!("attempt.json says attemptId {id}, its dir is {attempt_id}"),
            ));
        }
    }
    let atts = read_attachments(attempt_dir, &mut notices);

    // Observability (+ source-navigation join).
    let nav = atts.get("niceeval.source-navigation");
    let nav_rows: Option<Vec<Value>> = nav.and_then(|n| n.payload.get("rows-data")).and_then(Value::as_array).cloned();
    match atts.get("niceeval.observability") {
        Some(obs) => {
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
            observability::apply(
                a,
                observability::Obs::from_value(&obs.payload),
                nav_rows.as_deref(),
                Some(&mut resolve),
            );
            notices.extend(stream_notices);
        }
        None => {
            a.events = Some(Completeness::NotRecorded);
            notices.push(notice(NoticeLevel::Info, "observability not recorded: no conversation, usage or timing"));
        }
    }
    // Send sites from source-navigation.
    if let Some(rows) = &nav_rows {
        let label_of: HashMap<&str, &str> =
            a.review.timing.intervals.iter().filter_map(|i| Some((i.id.as_deref()?, i.label.as_str()))).collect();
        for row in rows {
            let src = row.get("source");
            if src.and_then(|x| x.get("state")).and_then(Value::as_str) != Some("mapped") {
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
                turn_label: row
                    .get("timing")
                    .and_then(|t| t.get("intervalId"))
                    .and_then(Value::as_str)
                    .and_then(|iid| label_of.get(iid))
                    .map(|l| l.to_string()),
            });
        }
    }

    // Assertions.
    match atts.get("niceeval.assertions") {
        Some(att) => {
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
            let sites =
                att.payload.get("source-sites-data").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
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
        None => {
            a.review.assertions_state = Some(Completeness::NotRecorded);
            notices.push(notice(NoticeLevel::Info, "assertions not recorded"));
        }
    }
    a.verdict = assertions::fold_verdict(a.outcome.as_deref(), a.review.assertions.as_deref());
    a.score = a.review.assertions.as_deref().and_then(assertions::sum_score);

    // File changes.
    a.review.file_changes = Some(match atts.get("niceeval.file-changes") {
        Some(att) => {
            let blobs = att.blobs();
            let windows = att.payload.get("windows-data").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
            files::from_windows(windows, att.payload.get("collection-data"), Some(&blobs), &mut notices)
        }
        None => files::not_recorded(),
    });

    // Artifacts: the OTel trace.
    if let Some(att) = atts.get("niceeval.artifacts") {
        let blobs = att.blobs();
        for art in att.payload.get("artifacts-data").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            if art.get("label").and_then(Value::as_str) != Some("otel-trace.json") {
                continue;
            }
            let Some(text) = art.get("content").and_then(|c| blobs.text(c, Some(art), &mut notices)) else { continue };
            match serde_json::from_str::<Value>(&text) {
                Ok(v) => a.review.trace = Some(v),
                Err(e) => {
                    notices.push(notice(NoticeLevel::Warning, format!("otel-trace.json artifact is not JSON: {e}")))
                }
            }
        }
    }
    // Sources stored with the attempt (not the usual place, but read them).
    if let Some(att) = atts.get("niceeval.sources") {
        a.review.sources = read_sources(Some(att), &mut notices);
    }
    a.notices.extend(notices);
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

/// Epoch milliseconds → `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
pub fn epoch_ms_iso(ms: f64) -> String {
    if !ms.is_finite() {
        return ms.to_string();
    }
    let total_ms = ms.round() as i64;
    let secs = total_ms.div_euclid(1000);
    let milli = total_ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z", rem / 3600, (rem % 3600) / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso() {
        assert_eq!(epoch_ms_iso(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(epoch_ms_iso(1796014846603.0), "2026-11-30T05:00:46.603Z");
    }

    #[test]
    fn labels() {
        use observability::parse_turn_label as p;
        assert_eq!(p("turn3"), Some((1, 3)));
        assert_eq!(p("session2/turn1"), Some((2, 1)));
        assert_eq!(p("s3/t2"), Some((3, 2)));
        assert_eq!(p("eval.run"), None);
        assert_eq!(p("turn0"), None);
    }
}
