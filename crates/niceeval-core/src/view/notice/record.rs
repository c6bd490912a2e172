//! The words of a Record's notices: its runs, attempts, attachments and
//! blobs, what its observability collection keeps, and the slots its runs
//! did not record.

use crate::model::notice::{Collection, ConversationTurn, LeftOut, ObservabilityNotice, RecordNotice, Unread};
use crate::model::recorded::SlotNotRecorded;
use serde_json::Value;

pub fn record(n: &RecordNotice) -> String {
    match n {
        RecordNotice::Unread(unread) => unread_words(unread),
        RecordNotice::AttachmentUnreadable { dir } => {
            format!("attachment {} has no readable attachment.json; skipped", dir.display())
        }
        RecordNotice::UnknownFamily { family, dir, known } => format!(
            "unknown attachment family {family:?} in {}; skipped (this viewer reads {})",
            dir.display(),
            known.join(", ")
        ),
        RecordNotice::FamilyDiffersFromDir { dir, family } => {
            format!("attachment dir {} declares family {family:?}; read as {family}", dir.display())
        }
        RecordNotice::NoSchemaVersion { family, dir } => {
            format!("{family} in {} has no schemaVersion; skipped", dir.display())
        }
        RecordNotice::NewerSchema { family, version, dir, newest } => format!(
            "{family} schemaVersion {version} in {} is newer than this viewer supports (up to {newest}); skipped — update niceeval",
            dir.display()
        ),
        RecordNotice::RunDiagnostic { run, diagnostic: d } => {
            format!("run {run}: {} {} {}", d.kind, d.code, d.message)
        }
        RecordNotice::NoPublishedAttempts => "the Record has no published attempts".into(),
        RecordNotice::DraftsIgnored { runs } => {
            format!("{} unfinished draft run(s) without a `complete` marker ignored: {}", runs.len(), runs.join(", "))
        }
        RecordNotice::CompleteNotAMarker { run } => {
            format!("run {run}: `complete` is not a zero-byte regular file; run skipped as unpublished")
        }
        RecordNotice::RunJsonUnreadable { run } => format!("run {run} has no readable run.json; skipped"),
        RecordNotice::IncompleteAttemptRef { run } => {
            format!("run {run}: a member has an incomplete attempt ref; skipped")
        }
        RecordNotice::InvalidAttemptRef { run, origin, attempt } => {
            format!("run {run}: attempt ref {origin}/{attempt} is not a valid id; skipped")
        }
        RecordNotice::OriginUnpublished { origin, action } => format!(
            "origin run {origin} of this {} attempt is not published (no `complete`)",
            action.as_deref().unwrap_or("member")
        ),
        RecordNotice::AttemptDirMissing { dir } => format!("attempt dir {} is missing", dir.display()),
        RecordNotice::AttemptIdDiffers { written, dir_id } => {
            format!("attempt.json says attemptId {written}, its dir is {dir_id}")
        }
        RecordNotice::ObservabilityNotRecorded => "observability not recorded: no conversation, usage or timing".into(),
        RecordNotice::AssertionsNotRecorded => "assertions not recorded".into(),
        RecordNotice::TraceNotJson { why } => format!("otel-trace.json artifact is not JSON: {why}"),
        RecordNotice::BlobKeyInvalid { key, dir } => {
            format!("blob ref {key:?} in {} is not a valid blob key; skipped", dir.display())
        }
        RecordNotice::BlobUnreadable { path, io } => format!("blob {} is missing or unreadable ({io})", path.display()),
        RecordNotice::BlobLengthDiffers { path, bytes, declared } => format!(
            "blob {} has {bytes} bytes but the Record says byteLength {declared}; content not shown",
            path.display()
        ),
        RecordNotice::BlobHashDiffers { path, declared, actual } => format!(
            "blob {} fails its sha256 check (Record says {declared}, file is {actual}); content not shown",
            path.display()
        ),
        RecordNotice::BlobNotUtf8 { path } => {
            format!("blob {} is not valid UTF-8; invalid bytes shown as U+FFFD", path.display())
        }
    }
}

fn unread_words(unread: &Unread) -> String {
    match unread {
        Unread::Outside { why } | Unread::Refused { why } => why.clone(),
        Unread::Missing { path, io } => format!("{}: {io}", path.display()),
        Unread::NotJson(failure) => super::load_failure(failure),
    }
}

pub fn observability(n: &ObservabilityNotice) -> String {
    match n {
        ObservabilityNotice::CollectionPartial { collection, limitations } => {
            format!("{} is partial: {}", collection_name(*collection), limitations.join("; "))
        }
        ObservabilityNotice::CostInOtherCurrency { currency } => {
            format!("a provider cost in {currency} is not added to costUSD")
        }
        ObservabilityNotice::CostAmountUnreadable { amount } => {
            format!("unreadable provider-cost amount {}; not added to costUSD", json_cut(amount))
        }
        ObservabilityNotice::CostWithoutAmount => "a provider-cost without an amount; not added to costUSD".into(),
        ObservabilityNotice::OtherTokens { tokens } => {
            format!("{tokens} tokens in bucket `other` are not in any usage field")
        }
        ObservabilityNotice::ToolRequestsNotCounted { requests } => {
            format!("{requests} tool request(s) are not counted in `requests`")
        }
        ObservabilityNotice::UsageIsAttemptTotal => {
            "usage is the attempt total: a Record does not attribute usage to turns".into()
        }
        ObservabilityNotice::ConversationDropsEvents => {
            "a Record drops thinking, compaction, redacted/truncated events and items it cannot represent".into()
        }
        ObservabilityNotice::ItemWithoutTurnId => "a conversation item has no turnId; skipped".into(),
        ObservabilityNotice::LateItem { kind, id, turn } => format!(
            "{} {} is recorded under turn {} but arrived after a later turn began; it is shown in its recorded turn",
            kind.as_deref().unwrap_or("item"),
            id.as_deref().unwrap_or(""),
            match turn {
                ConversationTurn::Sequence(q) => q.to_string(),
                ConversationTurn::Id(id) => id.clone(),
            }
        ),
        ObservabilityNotice::LabelsMatchedByOrder => {
            "turns were matched to session/turn labels by order (no source-navigation join)".into()
        }
        ObservabilityNotice::TurnsWithoutLabel { unlabeled, turns } => format!(
            "{unlabeled} of {turns} turn(s) have no session/turn label; they are shown in session 1 in conversation order"
        ),
        ObservabilityNotice::ItemLeftOut(why) => match why {
            LeftOut::SubagentState(state) => format!("subagent item with state \"{state}\" left out"),
            LeftOut::SubagentWithoutState => "subagent item without a state left out".into(),
            LeftOut::UnknownKind(kind) => format!("conversation item of unknown kind {kind:?} left out"),
        },
        ObservabilityNotice::WaitingRecordedAsCompleted { turn } => format!(
            "{turn} has an input request and is recorded as completed: a Record stores a waiting Turn as completed"
        ),
    }
}

fn collection_name(c: Collection) -> &'static str {
    match c {
        Collection::Timing => "timing",
        Collection::Usage => "usage",
        Collection::Diagnostics => "diagnostics",
        Collection::Commands => "commands",
    }
}

/// A JSON value as the Record wrote it, cut at 60 characters.
fn json_cut(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// "1 selected slot was not recorded: flaky attempt 3 of main (not-dispatched)",
/// NiceEval's notice for them (`site-components/compute.ts`), with which ones.
pub fn slots_not_recorded(slots: &[SlotNotRecorded]) -> String {
    const LISTED: usize = 5;
    let head = match slots.len() {
        1 => "1 selected slot was not recorded".to_string(),
        n => format!("{n} selected slots were not recorded"),
    };
    let mut which: Vec<String> = slots
        .iter()
        .take(LISTED)
        .map(|x| {
            let mut t = x.eval_id.clone().unwrap_or_else(|| "an eval".into());
            if let Some(n) = x.attempt_number {
                t.push_str(&format!(" attempt {n}"));
            }
            if let Some(e) = &x.experiment_id {
                t.push_str(&format!(" of {e}"));
            }
            t.push_str(&format!(" ({})", x.action.as_deref().unwrap_or("no member")));
            t
        })
        .collect();
    if slots.len() > LISTED {
        which.push(format!("and {} more", slots.len() - LISTED));
    }
    format!("{head}: {}", which.join(", "))
}
