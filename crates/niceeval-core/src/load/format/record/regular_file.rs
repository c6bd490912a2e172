//! Files inside a Record are read only when they are regular files of a
//! sane size: a FIFO, socket or device in place of a document would block
//! the load (or never end), and a multi-gigabyte (possibly sparse) payload
//! would be read whole before it could be parsed. Each is refused with its
//! path named, before any read that could block: the type is checked before
//! opening, the open does not wait for a FIFO's writer (`O_NONBLOCK`), and
//! the opened file is checked again (it may have been swapped in between).

use crate::model::text::megabytes;
use std::io::Read;
use std::path::Path;

/// What a Record file is, and so the most bytes it may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFile {
    /// `record.json`, `run.json`, a member, `attempt.json`, `attachment.json`: small metadata.
    Document,
    /// An attachment's `payload.json` (conversations, observability, sources).
    Payload,
    /// A blob an attachment refers to (file revisions, command streams, trace JSON).
    Blob,
}

impl RecordFile {
    /// The most bytes this kind of file may have (README, "Safety").
    pub fn limit(self) -> u64 {
        match self {
            RecordFile::Document => 64_000_000,
            RecordFile::Payload | RecordFile::Blob => 256_000_000,
        }
    }

    fn what(self) -> &'static str {
        match self {
            RecordFile::Document => "a Record document",
            RecordFile::Payload => "an attachment payload",
            RecordFile::Blob => "a blob",
        }
    }

    /// Documents and payloads are JSON objects or arrays; a blob is any bytes.
    fn is_json(self) -> bool {
        self != RecordFile::Blob
    }
}

/// Why a Record file was not read.
#[derive(Debug)]
pub enum NotRead {
    /// It is not there (or cannot be looked at): the caller says so as it always has.
    Missing(std::io::Error),
    /// It is there but refused: not a regular file, too large, or not JSON
    /// from its first byte. The message names the path.
    Refused(String),
}

impl NotRead {
    /// What a notice keeps of it: the path and the I/O error's words, or the refusal.
    pub fn unread(&self, path: &Path) -> crate::model::notice::Unread {
        use crate::model::notice::Unread;
        match self {
            NotRead::Missing(e) => Unread::Missing { path: path.to_path_buf(), io: crate::load::input::io_message(e) },
            NotRead::Refused(why) => Unread::Refused { why: why.clone() },
        }
    }

    /// The message for an error, naming `path`.
    pub fn message(&self, path: &Path) -> String {
        match self {
            NotRead::Missing(e) => format!("{}: {}", path.display(), crate::load::input::io_message(e)),
            NotRead::Refused(why) => why.clone(),
        }
    }
}

/// Read `path`, a Record file of kind `kind`, whole.
pub fn read(path: &Path, kind: RecordFile) -> Result<Vec<u8>, NotRead> {
    let meta = std::fs::metadata(path).map_err(NotRead::Missing)?;
    check_type_and_size(path, &meta, kind)?;
    let file = open_without_waiting(path).map_err(NotRead::Missing)?;
    let meta = file.metadata().map_err(NotRead::Missing)?;
    check_type_and_size(path, &meta, kind)?;
    let mut reader = file.take(kind.limit() + 1);
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    if kind.is_json() {
        read_until_content(&mut reader, &mut bytes).map_err(NotRead::Missing)?;
        check_json_start(path, &bytes)?;
    }
    reader.read_to_end(&mut bytes).map_err(NotRead::Missing)?;
    if bytes.len() as u64 > kind.limit() {
        return Err(NotRead::Refused(too_large(path, bytes.len() as u64, kind)));
    }
    Ok(bytes)
}

fn check_type_and_size(path: &Path, meta: &std::fs::Metadata, kind: RecordFile) -> Result<(), NotRead> {
    if !meta.is_file() {
        return Err(NotRead::Refused(format!(
            "{} is {}, not a regular file; not read",
            path.display(),
            type_words(&meta.file_type())
        )));
    }
    if meta.len() > kind.limit() {
        return Err(NotRead::Refused(too_large(path, meta.len(), kind)));
    }
    Ok(())
}

fn too_large(path: &Path, len: u64, kind: RecordFile) -> String {
    format!(
        "{} is {} ({len} bytes), above the {} limit for {}; not read",
        path.display(),
        megabytes(len),
        megabytes(kind.limit()),
        kind.what()
    )
}

fn type_words(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() { "a directory" } else { "not a regular file" }
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Read into `bytes` until it holds a byte that is not whitespace (after a BOM), or the file ends.
fn read_until_content(reader: &mut impl Read, bytes: &mut Vec<u8>) -> std::io::Result<()> {
    let mut chunk = [0u8; 4096];
    loop {
        if first_content_byte(bytes).is_some() {
            return Ok(());
        }
        let n = reader.read(&mut chunk)?;
        if n == 0 {
            return Ok(());
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

fn first_content_byte(bytes: &[u8]) -> Option<u8> {
    let bytes = crate::load::input::strip_bom(bytes);
    bytes.iter().copied().find(|b| !b.is_ascii_whitespace())
}

/// A JSON document of a Record is an object or an array: anything else is
/// refused from its first byte, before the rest is read.
fn check_json_start(path: &Path, head: &[u8]) -> Result<(), NotRead> {
    match first_content_byte(head) {
        None | Some(b'{' | b'[') => Ok(()),
        Some(b) => Err(NotRead::Refused(format!(
            "{} does not start as JSON (its first byte is {}, not `{{` or `[`); not read",
            path.display(),
            if b.is_ascii_graphic() { format!("`{}`", b as char) } else { format!("0x{b:02X}") }
        ))),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("niceeval-regular-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn regular_json_is_read_and_the_rest_refused_by_name() {
        let d = dir("kinds");
        std::fs::write(d.join("ok.json"), b"\xef\xbb\xbf \n{\"a\": 1}").unwrap();
        assert_eq!(read(&d.join("ok.json"), RecordFile::Document).unwrap().len(), 13);
        std::fs::write(d.join("text.json"), b"  hello").unwrap();
        let e = read(&d.join("text.json"), RecordFile::Payload).unwrap_err().message(&d.join("text.json"));
        assert!(e.contains("text.json") && e.contains("first byte is `h`"), "{e}");
        assert!(read(&d.join("text.json"), RecordFile::Blob).is_ok(), "a blob is any bytes");
        let fifo = d.join("fifo.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read(&fifo, RecordFile::Document).unwrap_err().message(&fifo);
        assert!(e.contains("fifo.json") && e.contains("FIFO"), "{e}");
        let e = read(&d, RecordFile::Document).unwrap_err().message(&d);
        assert!(e.contains("a directory"), "{e}");
        assert!(matches!(read(&d.join("none.json"), RecordFile::Document), Err(NotRead::Missing(_))));
        let big = d.join("big.json");
        std::fs::File::create(&big).unwrap().set_len(RecordFile::Document.limit() + 1).unwrap();
        let e = read(&big, RecordFile::Document).unwrap_err().message(&big);
        assert!(e.contains("64000001 bytes") && e.contains("64.0 MB limit"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
