//! The words of what the viewer says of the document it shows: a preview
//! while a large file loads, a followed file that is awaited, a listing
//! that stopped.

use crate::model::notice::{PreviewPart, ViewerNotice, Waiting};

pub fn viewer(n: &ViewerNotice) -> String {
    match n {
        ViewerNotice::PreviewLoading(part) => format!("{}; the rest is loading", preview_head(part)),
        ViewerNotice::PreviewOnly { preview, why } => {
            format!("{}; {why}", preview.as_ref().map(preview_head).unwrap_or_default())
        }
        ViewerNotice::Waiting { name, why } => {
            let why = match why {
                Waiting::StreamStart => "following a stream; waiting for its first lines".to_string(),
                Waiting::ToBeWritten => "does not exist yet; waiting for it to be written".to_string(),
                Waiting::ForLines { change, empty } => super::super::note::waiting_for_lines(*change, *empty),
            };
            format!("{name}: {why}")
        }
        ViewerNotice::ListingCrashed { listed, files } => format!(
            "the folder's listing stopped after {listed} of {files} files: the scanner crashed (a bug; please report it)"
        ),
    }
}

/// "big.jsonl: preview of the first 4.2 MB of 1.0 GB".
fn preview_head(part: &PreviewPart) -> String {
    use super::super::format::megabytes;
    format!("{}: preview of the first {} of {}", part.path, megabytes(part.shown), megabytes(part.total))
}
