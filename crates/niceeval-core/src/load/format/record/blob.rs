//! Blob refs `{"$niceeval.record.blob": key}` → bytes from the sibling
//! `blobs/` dir of the payload, with `byteLength`/`sha256` checks.
//!
//! Blobs are resolved eagerly at load (they are small: eval sources, file
//! revisions, command streams ≤ 64 KiB, trace JSON). A missing, unreadable
//! or mismatching blob becomes a Notice naming the file; the value is then
//! treated as unavailable and the rest of the attempt still opens.

use crate::model::document::{Notice, NoticeLevel};
use crate::model::notice::{RecordNotice, Unread};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

pub const BLOB_KEY: &str = "$niceeval.record.blob";

/// The key of a blob ref, or None when `v` is not one.
pub fn blob_key(v: &Value) -> Option<&str> {
    v.as_object().filter(|o| o.len() == 1).and_then(|o| o.get(BLOB_KEY)).and_then(Value::as_str)
}

/// Blobs of one attachment (`attachments/<family>/blobs/`).
pub struct Blobs {
    dir: PathBuf,
}

impl Blobs {
    pub fn new(attachment_dir: &Path) -> Blobs {
        Blobs { dir: attachment_dir.join("blobs") }
    }

    /// Read the blob `reference` points at. `integrity` is the object that
    /// carries `byteLength`/`sha256` (beside the ref); pass None when the
    /// payload gives none.
    pub fn read(&self, reference: &Value, integrity: Option<&Value>, notices: &mut Vec<Notice>) -> Option<Vec<u8>> {
        let key = blob_key(reference)?;
        // Keys are UUIDs; anything that could leave the blobs dir is refused.
        if key.is_empty()
            || key.starts_with('.')
            || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            notices.push(warn(RecordNotice::BlobKeyInvalid { key: key.to_string(), dir: self.dir.clone() }));
            return None;
        }
        let path = self.dir.join(key);
        if let Err(why) = super::confine::inside(&path) {
            notices.push(warn(RecordNotice::Unread(Unread::Outside { why })));
            return None;
        }
        let bytes = match super::regular_file::read(&path, super::regular_file::RecordFile::Blob) {
            Ok(b) => b,
            Err(super::regular_file::NotRead::Missing(e)) => {
                notices.push(warn(RecordNotice::BlobUnreadable { path, io: crate::load::input::io_message(&e) }));
                return None;
            }
            Err(super::regular_file::NotRead::Refused(why)) => {
                notices.push(warn(RecordNotice::Unread(Unread::Refused { why })));
                return None;
            }
        };
        if let Some(meta) = integrity {
            if let Some(len) = meta.get("byteLength").and_then(Value::as_u64)
                && len != bytes.len() as u64
            {
                notices.push(warn(RecordNotice::BlobLengthDiffers { path, bytes: bytes.len(), declared: len }));
                return None;
            }
            if let Some(want) = meta.get("sha256").and_then(Value::as_str) {
                let got = hex(&Sha256::digest(&bytes));
                if !got.eq_ignore_ascii_case(want) {
                    notices.push(warn(RecordNotice::BlobHashDiffers { path, declared: want.to_string(), actual: got }));
                    return None;
                }
            }
        }
        Some(bytes)
    }

    /// As [`Blobs::read`], decoded as UTF-8 (invalid sequences replaced, with a notice).
    pub fn text(&self, reference: &Value, integrity: Option<&Value>, notices: &mut Vec<Notice>) -> Option<String> {
        let bytes = self.read(reference, integrity, notices)?;
        match String::from_utf8(bytes) {
            Ok(s) => Some(s),
            Err(e) => {
                let path = self.dir.join(blob_key(reference).unwrap_or_default());
                notices.push(warn(RecordNotice::BlobNotUtf8 { path }));
                Some(String::from_utf8_lossy(e.as_bytes()).into_owned())
            }
        }
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn warn(fact: RecordNotice) -> Notice {
    Notice::new(NoticeLevel::Warning, fact)
}
