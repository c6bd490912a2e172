//! The first screen of a large file: a document made from its first few
//! megabytes, shown while the whole file loads in the background.
//!
//! A JSONL prefix is cut at its last newline; a single JSON document is cut
//! after its last whole unit and closed (see [`close_prefix`]). The caller
//! labels the preview as partial until the full load replaces it.

use super::LoadError;
use super::parse::prefix::close_prefix;
use crate::model::document::{Document, Notice, NoticeLevel};
use crate::model::notice::{PreviewPart, ViewerNotice};
use std::io::Read;

/// Files smaller than this load whole before the first frame.
pub const PREVIEW_AT_LEAST: u64 = 32 << 20;
/// How much of a large file the first screen is made from: about ten
/// thousand dense events, pages more than a screen. The preview is held
/// beside the whole document until the latter is shown, so every megabyte
/// of it counts in the viewer's peak (at 4 MB it was 8 MB of the peak).
pub const PREVIEW_BYTES: usize = 1 << 20;

/// A document made from the start of a file.
#[derive(Debug)]
pub struct Preview {
    pub doc: Document,
    /// Bytes of the file the preview was made from.
    pub bytes: u64,
    /// Size of the whole file.
    pub total: u64,
}

/// A preview of `path` when it is a regular file of at least `at_least`
/// bytes whose first `budget` bytes make a document; `None` otherwise (the
/// caller loads the whole file first, as for any small file).
pub fn load_preview(path: impl AsRef<std::path::Path>, at_least: u64, budget: usize) -> Option<Preview> {
    let path = path.as_ref();
    // Looked at before it is opened: opening a FIFO here would take what its
    // writer sends away from the load that reads it whole.
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() < at_least {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    let path = &super::display_name(path);
    let mut head = Vec::with_capacity(budget);
    (&mut file).take(budget as u64).read_to_end(&mut head).ok()?;
    let (mut doc, bytes) = preview_document(path, &head)?;
    let part = PreviewPart { path: path.to_string(), shown: bytes as u64, total: meta.len() };
    doc.notices.insert(0, Notice::new(NoticeLevel::Info, ViewerNotice::PreviewLoading(part)));
    Some(Preview { doc, bytes: bytes as u64, total: meta.len() })
}

/// A document from the start of a file and how many of its bytes it used.
/// Its events are raw, as in the whole load: the preview is still held
/// while the whole file is derived, and parsed events cost several times
/// their text.
fn preview_document(path: &str, head: &[u8]) -> Option<(Document, usize)> {
    if super::format::jsonl::looks_like_jsonl(head) {
        let complete = head.iter().rposition(|&b| b == b'\n')? + 1;
        let lines = &head[..complete];
        let doc = super::load_jsonl_bytes_lazy(path, lines.to_vec())
            .unwrap_or_else(|| super::format::jsonl::load(path, lines))
            .ok()?;
        return Some((doc, complete));
    }
    let (closed, used) = close_prefix(head)?;
    let doc: Result<Document, LoadError> = super::load_bytes_lazy(path, closed, super::parse::split::SPLIT_AT_LEAST);
    Some((doc.ok()?, used))
}
