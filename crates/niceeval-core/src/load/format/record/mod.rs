//! Record directories (`.niceeval/record`, `record.json` with
//! `format: niceeval.record`), read as formats.md §2.6 says:
//!
//! 1. `record.json` must say `format: niceeval.record` (an extra legacy
//!    `schemaVersion` key is ignored).
//! 2. Only runs with a zero-byte regular `complete` file are read; drafts
//!    are skipped with an Info notice.
//! 3. Every member with an attempt ref (executed, carried, accepted) loads
//!    `runs/<originRunId>/attempts/<attemptId>/` (see [`attempt`]), which may sit in another
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

pub mod attempt;
pub mod blob;
mod confine;
pub mod files;
pub mod observability;
pub(crate) mod regular_file;
mod runs;
pub mod scope;

use crate::load::error::LoadError;
use crate::model::document::{Attempt, Document, Membership, Notice, NoticeKind, NoticeLevel, SourceFile};
use crate::model::measure::SlotNotRecorded;
use crate::model::notice::{RecordNotice, Unread};
use blob::Blobs;
use regular_file::{NotRead, RecordFile};
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

/// A `record.json` that is there but refused (a FIFO, too large, not JSON)
/// makes `dir` a Record root too, so that opening it names the refusal.
fn is_record_root(dir: &Path) -> bool {
    let bytes = match regular_file::read(&dir.join("record.json"), RecordFile::Document) {
        Ok(bytes) => bytes,
        Err(NotRead::Refused(_)) => return true,
        Err(NotRead::Missing(_)) => return false,
    };
    crate::load::parse::compact::from_slice(crate::load::input::strip_bom(&bytes))
        .ok()
        .is_some_and(|v| v.get("format").and_then(Value::as_str) == Some("niceeval.record"))
}

fn notice(level: NoticeLevel, fact: impl Into<NoticeKind>) -> Notice {
    Notice::new(level, fact)
}

/// Read and parse a JSON file; problems become notices.
fn read_json(path: &Path, notices: &mut Vec<Notice>) -> Option<Value> {
    if let Err(why) = confine::inside(path) {
        notices.push(notice(NoticeLevel::Warning, RecordNotice::Unread(Unread::Outside { why })));
        return None;
    }
    let kind =
        if path.file_name().is_some_and(|n| n == "payload.json") { RecordFile::Payload } else { RecordFile::Document };
    let bytes = match regular_file::read(path, kind) {
        Ok(b) => b,
        Err(e) => {
            notices.push(notice(NoticeLevel::Warning, RecordNotice::Unread(e.unread(path))));
            return None;
        }
    };
    match crate::load::parse::compact::from_slice(crate::load::input::strip_bom(&bytes)) {
        Ok(v) => Some(v),
        Err(e) => {
            let failure = (&LoadError::json(&path.display().to_string(), &e, 0)).into();
            notices.push(notice(NoticeLevel::Warning, RecordNotice::Unread(Unread::NotJson(failure))));
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
            notices.push(notice(NoticeLevel::Warning, RecordNotice::Unread(Unread::Outside { why })));
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
            notices.push(notice(NoticeLevel::Warning, RecordNotice::AttachmentUnreadable { dir }));
            continue;
        };
        let family = envelope.get("family").and_then(Value::as_str).unwrap_or(&name).to_string();
        let Some(&(_, newest)) = KNOWN_FAMILIES.iter().find(|(f, _)| *f == family) else {
            let known = KNOWN_FAMILIES.iter().map(|(f, _)| *f).collect();
            notices.push(notice(NoticeLevel::Warning, RecordNotice::UnknownFamily { family, dir, known }));
            continue;
        };
        if family != name {
            let differs = RecordNotice::FamilyDiffersFromDir { dir: dir.clone(), family: family.clone() };
            notices.push(notice(NoticeLevel::Warning, differs));
        }
        let Some(version) = envelope.get("schemaVersion").and_then(Value::as_u64) else {
            notices.push(notice(NoticeLevel::Warning, RecordNotice::NoSchemaVersion { family, dir }));
            continue;
        };
        if version == 0 || version > newest {
            notices.push(notice(NoticeLevel::Warning, RecordNotice::NewerSchema { family, version, dir, newest }));
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
    check_record_json(dir)?;
    let shown = dir.display().to_string();
    let mut doc = Document { format: scope.format_name(), sources: vec![shown], ..Default::default() };
    let runs = scoped_runs(dir, scope, &mut doc.notices)?;
    // Run-level diagnostics become document notices.
    for run in &runs {
        if let Some(att) = run.attachments.get("niceeval.observability") {
            for d in att.payload.get("diagnostics-data").map(observability::diagnostics).unwrap_or_default() {
                let level = if d.kind == "execution-error" { NoticeLevel::Error } else { NoticeLevel::Warning };
                let diagnostic = RecordNotice::RunDiagnostic { run: run.id.clone(), diagnostic: Box::new(d) };
                doc.notices.push(notice(level, diagnostic));
            }
        }
    }
    read_members(dir, scope, &runs, &mut doc);
    if !doc.slots_not_recorded.is_empty() {
        doc.notices.push(slots_notice(&doc.slots_not_recorded));
    }
    if doc.attempts.is_empty() {
        doc.notices.push(notice(NoticeLevel::Info, RecordNotice::NoPublishedAttempts));
    }
    Ok(doc)
}

/// `record.json` must be readable inside the Record and say `format: niceeval.record`.
fn check_record_json(dir: &Path) -> Result<(), LoadError> {
    let record_json = dir.join("record.json");
    confine::inside(&record_json).map_err(|why| LoadError::new(record_json.display().to_string(), why))?;
    let bytes = regular_file::read(&record_json, RecordFile::Document).map_err(|e| match e {
        NotRead::Missing(e) => LoadError::new(record_json.display().to_string(), crate::load::input::io_message(&e)),
        // The message names the path itself.
        NotRead::Refused(why) => LoadError::new(dir.display().to_string(), why),
    })?;
    let root = crate::load::parse::parse_json(&record_json.display().to_string(), &bytes)?;
    if root.get("format").and_then(Value::as_str) != Some("niceeval.record") {
        return Err(LoadError::new(
            record_json.display().to_string(),
            "not a NiceEval Record (format is not niceeval.record)",
        ));
    }
    Ok(())
}

/// The published runs `scope` reads, oldest first; the drafts are a notice.
fn scoped_runs(dir: &Path, scope: &Scope, notices: &mut Vec<Notice>) -> Result<Vec<Run>, LoadError> {
    let (mut runs, drafts) = read_runs(dir, notices);
    let published: Vec<&str> = runs.iter().map(|r| r.id.as_str()).collect();
    scope.check_runs(&published, &drafts).map_err(|why| LoadError::new(dir.display().to_string(), why))?;
    runs.retain(|r| scope.keeps_run(&r.id));
    if !drafts.is_empty() {
        notices.push(notice(NoticeLevel::Info, RecordNotice::DraftsIgnored { runs: drafts }));
    }
    runs.sort_by(|a, b| {
        a.started_at.unwrap_or(f64::MAX).total_cmp(&b.started_at.unwrap_or(f64::MAX)).then(a.id.cmp(&b.id))
    });
    Ok(runs)
}

/// The attempts of the runs' members, each attempt once (the other runs
/// that include it are listed in its membership).
fn read_members(dir: &Path, scope: &Scope, runs: &[Run], doc: &mut Document) {
    let mut source_cache: HashMap<String, Vec<SourceFile>> = HashMap::new();
    let mut by_attempt: HashMap<String, usize> = HashMap::new();
    for run in runs {
        if scope.keeps_slots_without_attempt() {
            doc.slots_not_recorded.extend(slots_not_recorded(run));
        }
        for m in &run.members {
            let action = s(m.get("action"));
            let slot_id = s(m.get("slotId"));
            let slot = slot_id.as_deref().and_then(|id| run.slot(id));
            let Some(aref) = m.get("attempt").filter(|a| a.is_object()) else { continue };
            let (Some(attempt_id), Some(origin)) = (s(aref.get("attemptId")), s(aref.get("originRunId"))) else {
                doc.notices
                    .push(notice(NoticeLevel::Warning, RecordNotice::IncompleteAttemptRef { run: run.id.clone() }));
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
                let invalid = RecordNotice::InvalidAttemptRef { run: run.id.clone(), origin, attempt: attempt_id };
                doc.notices.push(notice(NoticeLevel::Warning, invalid));
                continue;
            }
            let attempt_dir = origin_dir.join("attempts").join(&attempt_id);
            let mut a = base_attempt(run, slot);
            if origin != run.id && !is_complete_marker(&origin_dir.join("complete")) {
                let unpublished = RecordNotice::OriginUnpublished { origin: origin.clone(), action: action.clone() };
                a.notices.push(notice(NoticeLevel::Warning, unpublished));
            }
            attempt::load_attempt(&mut a, &attempt_dir, &attempt_id);
            a.review.membership = Some(Membership {
                run_id: Some(run.id.clone()),
                origin_run_id: Some(origin.clone()),
                slot_id,
                action,
                also_in: Vec::new(),
            });
            let sources = source_cache
                .entry(origin.clone())
                .or_insert_with(|| origin_sources(runs, &origin, &origin_dir, &mut doc.notices));
            if a.review.sources.is_empty() {
                a.review.sources = sources.clone();
            }
            by_attempt.insert(attempt_id, doc.attempts.len());
            doc.attempts.push(a);
        }
    }
}

/// The slots a run expected that hold no attempt, as NiceEval's Sample
/// reads them (`not-recorded`): a member with no attempt ref (not
/// dispatched, interrupted), or no member at all. They are not attempts.
fn slots_not_recorded(run: &Run) -> Vec<SlotNotRecorded> {
    let expected = run.value.get("expectedSlots").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let member_of = |id: &str| run.members.iter().find(|m| m.get("slotId").and_then(Value::as_str) == Some(id));
    let base = base_attempt(run, None);
    expected
        .iter()
        .filter_map(|slot| {
            let member = member_of(slot.get("slotId").and_then(Value::as_str)?);
            if member.is_some_and(|m| m.get("attempt").is_some_and(Value::is_object)) {
                return None;
            }
            Some(SlotNotRecorded {
                run_id: run.id.clone(),
                experiment_id: base.experiment_id.clone(),
                eval_id: s(slot.get("evalId")),
                attempt_number: slot.get("attemptOrdinal").and_then(Value::as_u64).map(|o| o + 1),
                action: member.and_then(|m| s(m.get("action"))),
            })
        })
        .collect()
}

/// The notice of the slots a run expected that hold no attempt (NiceEval's
/// own, `site-components/compute.ts`, says which).
pub(crate) fn slots_notice(slots: &[SlotNotRecorded]) -> Notice {
    notice(NoticeLevel::Warning, NoticeKind::SlotsNotRecorded(slots.to_vec()))
}

/// The sources of an attempt live in its origin run.
fn origin_sources(runs: &[Run], origin: &str, origin_dir: &Path, notices: &mut Vec<Notice>) -> Vec<SourceFile> {
    let mut n = Vec::new();
    let atts = match runs.iter().find(|r| r.id == origin) {
        Some(r) => attempt::read_sources(r.attachments.get("niceeval.sources"), &mut n),
        None => attempt::read_sources(read_attachments(origin_dir, &mut n).get("niceeval.sources"), &mut n),
    };
    notices.extend(n);
    atts
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
        started_at_is_run: run.started_at.is_some(),
        events_exact: false,
        ..Default::default()
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
