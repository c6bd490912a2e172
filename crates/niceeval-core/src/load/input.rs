//! Reading an input once, read-only: `-` (stdin), a regular file (read, or
//! mapped when large), or whatever else a path names (a FIFO, a pipe such as
//! `<(cmd)` or `/dev/stdin`, a character device), which is read as a stream.
//!
//! A stream's size is not known in advance, so it is bounded: it is refused
//! as soon as its start shows binary (`cat /dev/zero`), and at most
//! [`max_stream`] bytes of it are kept; one that goes on longer is an error.

use super::error::LoadError;
use std::io::Read;
use std::path::Path;

/// What a path holds, read.
pub(crate) enum Input {
    /// A directory: the caller looks for a Record or a results run in it.
    Dir,
    /// A large regular file, mapped.
    Mapped(Mapped),
    /// A small regular file, or the whole of a stream.
    Bytes(Vec<u8>),
}

/// How a path is shown in messages and headers: as given, any bytes that
/// are not UTF-8 shown as U+FFFD (the file itself is opened by its real name).
pub fn display_name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Files at least this large are memory-mapped instead of read.
pub(crate) const MAP_AT_LEAST: u64 = 4 << 20;

/// Streams longer than this are refused unless the program says otherwise
/// ([`set_max_stream`]; the binary takes `NICEEVAL_MAX_STREAM`).
pub const DEFAULT_MAX_STREAM: u64 = 1_000_000_000;

static MAX_STREAM: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(DEFAULT_MAX_STREAM);

/// The most bytes kept from a stream.
pub fn max_stream() -> u64 {
    MAX_STREAM.load(std::sync::atomic::Ordering::Relaxed)
}

/// Set once by the program at its start (the core reads no environment).
pub fn set_max_stream(bytes: u64) {
    MAX_STREAM.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

/// Open `path` once and read it (see the module docs).
pub(crate) fn open(path: &Path) -> Result<Input, LoadError> {
    let name = display_name(path);
    if path.as_os_str() == "-" {
        return read_stream(std::io::stdin().lock(), &name).map(Input::Bytes);
    }
    let meta = std::fs::metadata(path).map_err(|e| LoadError::new(&name, io_message(&e)))?;
    if meta.is_dir() {
        return Ok(Input::Dir);
    }
    // Opened once: a FIFO's writer meets one reader, and all it sends is read.
    let file = std::fs::File::open(path).map_err(|e| LoadError::new(&name, io_message(&e)))?;
    let meta = file.metadata().map_err(|e| LoadError::new(&name, io_message(&e)))?;
    // A regular file that says it is empty may still have content (procfs).
    if !meta.is_file() || meta.len() == 0 {
        return read_stream(file, &name).map(Input::Bytes);
    }
    if meta.len() >= MAP_AT_LEAST
        && let Some(map) = map_file(&file, &name)
    {
        return Ok(Input::Mapped(map));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    (&file).read_to_end(&mut bytes).map_err(|e| LoadError::new(&name, io_message(&e)))?;
    Ok(Input::Bytes(bytes))
}

/// Read a whole input (a path, or `-` for stdin) as bytes, read-only.
pub fn read_input(path: impl AsRef<Path>) -> Result<Vec<u8>, LoadError> {
    let path = path.as_ref();
    match open(path)? {
        Input::Dir => Err(LoadError::new(display_name(path), "is a directory, expected a file")),
        Input::Mapped(map) => Ok(map.to_vec()),
        Input::Bytes(bytes) => Ok(bytes),
    }
}

/// Read a stream to its end: refused as binary as soon as its start shows
/// it, and refused once it passes [`max_stream`] bytes.
pub(crate) fn read_stream(reader: impl Read, name: &str) -> Result<Vec<u8>, LoadError> {
    read_stream_at_most(reader, name, max_stream())
}

fn read_stream_at_most(mut reader: impl Read, name: &str, limit: u64) -> Result<Vec<u8>, LoadError> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut text = false;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(LoadError::new(name, io_message(&e))),
        };
        if bytes.len() as u64 + n as u64 > limit {
            let what = if name == "-" { "stdin" } else { "the stream" };
            return Err(LoadError::new(
                name,
                format!(
                    "{what} has not ended after {} (a pipe, FIFO or device is read whole, and at most that much of it; set NICEEVAL_MAX_STREAM to more bytes, or save it to a file and open the file)",
                    size(limit)
                ),
            ));
        }
        bytes.extend_from_slice(&chunk[..n]);
        if !text {
            match binary_start(&bytes) {
                Some(true) => return Err(binary(name)),
                Some(false) => text = true,
                None => {}
            }
        }
    }
    Ok(bytes)
}

/// `1.0 GB`, `2.0 MB`.
fn size(bytes: u64) -> String {
    if bytes >= 1_000_000_000 {
        format!("{:.1} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

/// The error for an input that is not text.
pub(crate) fn binary(name: &str) -> LoadError {
    LoadError::at(name, 1, 1, "this is a binary file, not UTF-8 text (expected JSON or JSONL)")
}

/// The text after a UTF-8 byte order mark, if it starts with one.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// How many bytes from the start [`looks_binary`] looks at.
const HEAD: usize = 4096;

/// Whether the start of a stream read so far is binary: `None` while too
/// little has come to tell (the whole input is looked at again at its end).
fn binary_start(bytes: &[u8]) -> Option<bool> {
    let head = &strip_bom(bytes)[..bytes.len().min(HEAD)];
    let line_end = memchr::memchr(b'\n', head);
    if head[..line_end.unwrap_or(head.len())].contains(&0) {
        return Some(true);
    }
    (head.len() >= HEAD).then(|| looks_binary(head))
}

/// Not a text file, from its start: a NUL byte on the first line, or
/// anywhere in a file that does not open like JSON (a JSONL file with a NUL
/// further down is text with a bad line), or mostly invalid UTF-8.
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(HEAD)];
    let first_line = &head[..memchr::memchr(b'\n', head).unwrap_or(head.len())];
    if first_line.contains(&0) {
        return true;
    }
    let opens_json = matches!(head.iter().find(|b| !b.is_ascii_whitespace()), Some(b'{' | b'['));
    if !opens_json && head.contains(&0) {
        return true;
    }
    let invalid = String::from_utf8_lossy(head).chars().filter(|c| *c == '\u{fffd}').count();
    invalid * 10 > head.len().max(1) && invalid >= 4
}

pub fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied (cannot read)".into(),
        _ => format!("cannot read: {e}"),
    }
}

/// A read-only mapping of a regular file, or `None` (the mapping failed:
/// the caller reads the file instead).
fn map_file(file: &std::fs::File, name: &str) -> Option<Mapped> {
    // SAFETY: the mapping is read-only and never outlives this load. A file
    // truncated by another process while it is read faults (SIGBUS); the
    // handler installed by `term::install_signal_handlers` then restores the
    // terminal and names the file (see `mapped_inputs`).
    let map = unsafe { memmap2::Mmap::map(file) }.ok()?;
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    let file = file.try_clone().ok()?;
    MAPPED.lock().unwrap_or_else(|e| e.into_inner()).push(name.to_string());
    Some(Mapped { map, path: name.to_string(), file })
}

/// Paths of the files mapped right now, for the SIGBUS message.
static MAPPED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The files mapped right now, joined with ", " (for a fatal-signal handler:
/// `None` rather than waiting when the list is being changed).
pub fn mapped_inputs() -> Option<String> {
    let list = MAPPED.try_lock().ok()?;
    (!list.is_empty()).then(|| list.join(", "))
}

/// A mapping that is listed in [`MAPPED`] while it lives.
pub(crate) struct Mapped {
    map: memmap2::Mmap,
    path: String,
    /// The file mapped, for loaders that read it in blocks instead.
    pub(crate) file: std::fs::File,
}

impl std::ops::Deref for Mapped {
    type Target = memmap2::Mmap;

    fn deref(&self) -> &memmap2::Mmap {
        &self.map
    }
}

impl Mapped {
    /// Drop from memory the pages from the one `start` is on up to the one
    /// `end` is on (spans that follow each other each drop their own pages;
    /// the page `end` is on is the next span's). The mapping is read-only:
    /// a dropped page that is read again is read again from the file.
    pub(crate) fn drop_pages(&self, start: usize, end: usize) {
        static PAGE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let page = *PAGE.get_or_init(page_size);
        let (start, end) = (start / page * page, (end / page * page).min(self.map.len()));
        if end > start {
            // SAFETY: a read-only file mapping: DONTNEED only drops pages
            // from memory, and later reads get the file's bytes again.
            let _ = unsafe { self.map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start) };
        }
    }
}

/// A mapped file as the source of raw events: pages a pass is done with go back to the file.
pub(crate) struct MappedBytes(pub std::sync::Arc<Mapped>);

impl crate::model::event::Bytes for MappedBytes {
    fn bytes(&self) -> &[u8] {
        &self.0.map
    }

    fn release(&self, start: usize, end: usize) {
        self.0.drop_pages(start, end);
    }
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        let mut list = MAPPED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = list.iter().position(|p| *p == self.path) {
            list.remove(i);
        }
    }
}

/// The system's page size (what `madvise` works in).
fn page_size() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads a system constant.
        let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if n > 0 {
            return n as usize;
        }
    }
    4096
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_refused_as_binary_from_its_first_line() {
        // An endless reader of NULs: refused after its first read.
        let zeros = std::io::repeat(0);
        let err = read_stream(zeros, "-").unwrap_err();
        assert!(err.message.contains("binary"), "{err}");
        // A NUL on a later line is a bad line of a text stream.
        let text = b"{\"a\":1}\n\0\0\n{\"b\":2}\n".repeat(1000);
        assert_eq!(read_stream(&text[..], "-").unwrap(), text);
        assert!(looks_binary(b"\0{}") && looks_binary(b"\x7fELF\x02\x01\x01\0\0\0"));
        assert!(looks_binary(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), "a NUL after a first line that is not JSON");
        assert!(!looks_binary(b"{}\n\0\n"));
    }

    #[test]
    fn a_stream_is_bounded() {
        let err = read_stream_at_most(std::io::repeat(b'{'), "-", 200_000).unwrap_err();
        assert!(err.message.contains("stdin has not ended after 0.2 MB"), "{err}");
        assert_eq!(size(DEFAULT_MAX_STREAM), "1.0 GB");
        assert_eq!(read_stream_at_most(&b"{}"[..], "-", 2).unwrap(), b"{}");
    }
}
