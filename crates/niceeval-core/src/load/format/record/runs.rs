//! The runs of a Record: `runs/<id>/` with `run.json`, `members/*.json` and
//! run-owned attachments, published only with a zero-byte `complete` marker.

use super::{Attachment, notice, read_attachments, read_json, s, sub_dirs};
use crate::model::document::{Notice, NoticeLevel};
use crate::model::notice::RecordNotice;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub(super) struct Run {
    pub id: String,
    pub value: Value,
    pub started_at: Option<f64>,
    pub members: Vec<Value>,
    pub attachments: BTreeMap<String, Attachment>,
}

impl Run {
    pub fn slot(&self, slot_id: &str) -> Option<&Value> {
        self.value
            .get("expectedSlots")
            .and_then(Value::as_array)
            .and_then(|s| s.iter().find(|x| x.get("slotId").and_then(Value::as_str) == Some(slot_id)))
    }
}

pub(super) fn is_complete_marker(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file() && m.len() == 0)
}

/// Every run of the Record with a `complete` marker, and the ids of drafts.
pub(super) fn read_runs(dir: &Path, notices: &mut Vec<Notice>) -> (Vec<Run>, Vec<String>) {
    let mut runs = Vec::new();
    let mut drafts = Vec::new();
    for rd in sub_dirs(&dir.join("runs"), notices) {
        let id = rd.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let marker = rd.join("complete");
        if !is_complete_marker(&marker) {
            if marker.exists() {
                notices.push(notice(NoticeLevel::Warning, RecordNotice::CompleteNotAMarker { run: id }));
            } else {
                drafts.push(id);
            }
            continue;
        }
        let Some(value) = read_json(&rd.join("run.json"), notices) else {
            notices.push(notice(NoticeLevel::Warning, RecordNotice::RunJsonUnreadable { run: id }));
            continue;
        };
        let mut members = Vec::new();
        let mut member_files: Vec<PathBuf> = std::fs::read_dir(rd.join("members"))
            .map(|r| {
                r.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "json"))
                    .collect()
            })
            .unwrap_or_default();
        member_files.sort();
        for m in member_files {
            if let Some(v) = read_json(&m, notices) {
                members.push(v);
            }
        }
        let attachments = read_attachments(&rd, notices);
        runs.push(Run {
            id: s(value.get("runId")).unwrap_or(id),
            started_at: value.get("startedAt").and_then(Value::as_f64),
            value,
            members,
            attachments,
        });
    }
    (runs, drafts)
}
