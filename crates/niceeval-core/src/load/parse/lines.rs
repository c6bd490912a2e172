//! The JSONL line machinery: lines parsed one by one (a bad line is an
//! error with its line and column, and the good lines around it still
//! parse), large inputs on every core in line-aligned chunks, a file read
//! in blocks ([`Blocks`]), a mapped stream with its events kept raw
//! ([`parse_raw_lines`]), and the [`LineFollower`] a `--follow` reader feeds
//! with appended bytes. What the lines are (events, Turns, capture entries)
//! is `load::format::jsonl`'s to decide.

use super::lazy::LazyLoad;
use crate::load::error::LoadError;
use serde_json::Value;
use std::io::Read;

/// One line that could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct LineError {
    /// 1-based line number in the whole input.
    pub line: usize,
    /// 1-based column, for JSON syntax errors.
    pub column: Option<usize>,
    /// Why the line could not be read.
    pub why: String,
    /// The file's last line, with no newline after it.
    pub last_line: bool,
}

impl LineError {
    fn new(line: usize, column: Option<usize>, why: String) -> LineError {
        LineError { line, column, why, last_line: false }
    }

    /// Why, and that the line was skipped: "…; line skipped".
    pub fn message(&self) -> String {
        match (self.last_line, self.column) {
            (true, Some(_)) => format!("{}; line skipped (last line, no newline at end)", self.why),
            _ => format!("{}; line skipped", self.why),
        }
    }

    /// The line as a notice keeps it (the view words it as [`LineError::describe`] does).
    pub fn skipped(&self) -> crate::model::notice::SkippedLine {
        crate::model::notice::SkippedLine {
            line: self.line,
            column: self.column,
            why: self.why.clone(),
            last_line: self.last_line,
        }
    }

    /// `path:line[:column]: message`, the same form as [`LoadError`].
    pub fn describe(&self, path: &str) -> String {
        match self.column {
            Some(c) => LoadError::at(path, self.line, c, self.message()).to_string(),
            None => {
                use crate::model::text::{Lines, sanitize};
                format!("{}:{}: {}", sanitize(path, Lines::Single), self.line, sanitize(&self.message(), Lines::Single))
            }
        }
    }
}

/// What [`parse_complete_lines`] read from one chunk.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChunkParse {
    /// `(line number, value)` for every line that parsed.
    pub values: Vec<(usize, Value)>,
    /// Bytes up to and including the last newline; feed the rest again later.
    pub consumed_bytes: usize,
    /// Line number of the first line not consumed (for the next call).
    pub next_line_no: usize,
    pub errors: Vec<LineError>,
}

fn parse_line(line: &[u8], line_no: usize, lazy: Option<&LazyLoad>) -> Result<Option<Value>, LineError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = if line_no == 1 { crate::load::input::strip_bom(line) } else { line };
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    // A raw load's event line that is not kept raw (see `LazyLoad::raw`) is
    // parsed as it is, below, with its errors.
    if let Some(load) = lazy
        && let Some(event) = raw_line(load, line)
    {
        return Ok(Some(load.run(vec![event])));
    }
    // The parser validates UTF-8 itself; the byte offset is only looked for
    // when a line fails.
    super::compact::from_slice(line).map(Some).map_err(|e| {
        if let Err(u) = std::str::from_utf8(line) {
            let why = format!("line is not valid UTF-8 (bad byte at offset {} of the line)", u.valid_up_to());
            return LineError::new(line_no, None, why);
        }
        let err = LoadError::json("", &e, 0);
        LineError::new(line_no, Some(e.column().max(1)), err.message)
    })
}

/// Parse every complete (newline-terminated) line of `bytes`. `first_line_no`
/// is the 1-based number of the first line in `bytes` (1 at the start of a
/// file; a UTF-8 BOM is skipped only there). Stops after the last `\n`: the
/// bytes after it are not consumed, so a follower can feed them again with
/// whatever is appended later. Blank lines are skipped; CRLF is accepted.
pub fn parse_complete_lines(bytes: &[u8], first_line_no: usize) -> ChunkParse {
    parse_complete_lines_with(bytes, first_line_no, None)
}

/// The raw event a line holds, surrounded by nothing but whitespace.
fn raw_line(load: &LazyLoad, line: &[u8]) -> Option<crate::model::event::Event> {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let start = line.iter().position(|b| !ws(b))?;
    let end = line.iter().rposition(|b| !ws(b))? + 1;
    // `raw` checks that the line is one event and nothing more.
    load.raw(&line[start..end])
}

fn parse_complete_lines_with(bytes: &[u8], first_line_no: usize, lazy: Option<&LazyLoad>) -> ChunkParse {
    let mut out = ChunkParse { next_line_no: first_line_no, ..Default::default() };
    let mut start = 0;
    let mut reported = (0usize, 0usize);
    // Raw events of consecutive lines, and the line of the first: one placeholder for them all.
    let mut run: Vec<crate::model::event::Event> = Vec::new();
    let mut run_line = 0;
    while let Some(rel) = memchr::memchr(b'\n', &bytes[start..]) {
        if out.next_line_no - first_line_no - reported.1 >= 4096 {
            crate::load::progress::add(
                (start - reported.0) as u64,
                (out.next_line_no - first_line_no - reported.1) as u64,
            );
            reported = (start, out.next_line_no - first_line_no);
        }
        let end = start + rel;
        let line_no = out.next_line_no;
        let line = &bytes[start..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = if line_no == 1 { crate::load::input::strip_bom(line) } else { line };
        if let Some(load) = lazy
            && let Some(event) = raw_line(load, line)
        {
            if run.is_empty() {
                run_line = line_no;
            }
            run.push(event);
            start = end + 1;
            out.next_line_no += 1;
            out.consumed_bytes = start;
            continue;
        }
        if let Some(load) = lazy.filter(|_| !run.is_empty()) {
            out.values.push((run_line, load.run(std::mem::take(&mut run))));
        }
        match parse_line(&bytes[start..end], line_no, None) {
            Ok(Some(v)) => out.values.push((line_no, v)),
            Ok(None) => {}
            Err(e) => out.errors.push(e),
        }
        start = end + 1;
        out.next_line_no += 1;
        out.consumed_bytes = start;
    }
    if let Some(load) = lazy.filter(|_| !run.is_empty()) {
        out.values.push((run_line, load.run(run)));
    }
    crate::load::progress::add((start - reported.0) as u64, (out.next_line_no - first_line_no - reported.1) as u64);
    out
}

/// State for `--follow`: feed appended bytes as they arrive; complete lines
/// come back parsed, a trailing partial line waits for the next feed.
#[derive(Debug, Clone, Default)]
pub struct LineFollower {
    pending: Vec<u8>,
    next_line_no: usize,
}

impl LineFollower {
    pub fn new() -> LineFollower {
        LineFollower { pending: Vec::new(), next_line_no: 1 }
    }

    /// Parse the complete lines of what was appended (plus any earlier partial line).
    pub fn feed(&mut self, appended: &[u8]) -> ChunkParse {
        self.pending.extend_from_slice(appended);
        let chunk = parse_complete_lines(&self.pending, self.next_line_no.max(1));
        self.pending.drain(..chunk.consumed_bytes);
        self.next_line_no = chunk.next_line_no;
        chunk
    }

    /// Bytes of an unfinished last line, waiting for more.
    pub fn pending(&self) -> &[u8] {
        &self.pending
    }

    /// The input ended: read the last line, reporting it when incomplete.
    pub fn finish(&mut self) -> Result<Option<(usize, Value)>, LineError> {
        let rest = std::mem::take(&mut self.pending);
        let line = self.next_line_no.max(1);
        if rest.is_empty() {
            return Ok(None);
        }
        self.next_line_no = line + 1;
        parse_final_line(&rest, line).map(|v| v.map(|v| (line, v)))
    }
}

/// What to do with the bytes after the last newline once the input has
/// ended: a complete JSON value is a normal last line; anything else is an
/// incomplete line, reported (never guessed at).
pub fn parse_final_line(rest: &[u8], line_no: usize) -> Result<Option<Value>, LineError> {
    parse_final_line_with(rest, line_no, None)
}

fn parse_final_line_with(rest: &[u8], line_no: usize, lazy: Option<&LazyLoad>) -> Result<Option<Value>, LineError> {
    match parse_line(rest, line_no, lazy) {
        Ok(v) => Ok(v),
        Err(mut e) => {
            if e.column.is_some() {
                let eof = super::compact::from_slice(rest.strip_suffix(b"\r").unwrap_or(rest))
                    .err()
                    .is_some_and(|x| x.classify() == serde_json::error::Category::Eof);
                if eof {
                    e.why =
                        "the last line is incomplete (no newline, JSON ends early; the writer may still be running)"
                            .into();
                } else {
                    e.last_line = true;
                }
            }
            Err(e)
        }
    }
}

/// Inputs at least this large are parsed on several threads (a block of a
/// large file is one such input).
const PARALLEL_AT_LEAST: usize = 2 << 20;

/// [`parse_complete_lines`] from line 1, over line-aligned chunks on one
/// thread per core for large inputs. Same result as the sequential parse.
pub fn parse_complete_lines_parallel(bytes: &[u8]) -> ChunkParse {
    parse_complete_lines_parallel_from(bytes, 1)
}

/// [`parse_complete_lines_parallel`] for bytes whose first line is `first_line_no`.
fn parse_complete_lines_parallel_from(bytes: &[u8], first_line_no: usize) -> ChunkParse {
    parse_lines_parallel(bytes, first_line_no, None)
}

fn parse_lines_parallel(bytes: &[u8], first_line_no: usize, lazy: Option<&LazyLoad>) -> ChunkParse {
    let threads = crate::analysis::parallel::cores(16);
    parse_in_chunks(bytes, if bytes.len() < PARALLEL_AT_LEAST { 1 } else { threads }, first_line_no, lazy)
}

fn parse_in_chunks(bytes: &[u8], threads: usize, first_line_no: usize, lazy: Option<&LazyLoad>) -> ChunkParse {
    if threads < 2 {
        return parse_complete_lines_with(bytes, first_line_no, lazy);
    }
    // Chunk starts: 0, then just after a newline near each k/threads point.
    let mut starts = vec![0usize];
    for k in 1..threads {
        let target = (bytes.len() / threads * k).max(*starts.last().unwrap_or(&0));
        match bytes.get(target..).and_then(|rest| memchr::memchr(b'\n', rest)) {
            Some(p) if target + p + 1 < bytes.len() => starts.push(target + p + 1),
            _ => break,
        }
    }
    starts.dedup();
    let ranges: Vec<(usize, usize)> =
        starts.iter().enumerate().map(|(i, &a)| (a, starts.get(i + 1).copied().unwrap_or(bytes.len()))).collect();
    // Chunks after the first start at a placeholder line 2 (only line 1 may
    // carry a BOM); their numbers are shifted once the earlier counts are known.
    let parse = |&(a, b): &(usize, usize)| {
        parse_complete_lines_with(&bytes[a..b], if a == 0 { first_line_no } else { 2 }, lazy)
    };
    // A chunk whose thread panicked is parsed again here (and panics here if it must).
    let parts: Vec<ChunkParse> = crate::analysis::parallel::each_on_its_own_thread(&ranges, parse)
        .into_iter()
        .zip(&ranges)
        .map(|(done, range)| done.unwrap_or_else(|| parse(range)))
        .collect();
    merge_parts(first_line_no, &ranges, parts)
}

/// The parses of consecutive line-aligned `ranges` of one input (each after
/// the first numbered from a placeholder line 2) as one parse from
/// `first_line_no`: their numbers shifted once the earlier counts are known.
fn merge_parts(first_line_no: usize, ranges: &[(usize, usize)], parts: Vec<ChunkParse>) -> ChunkParse {
    let mut out = ChunkParse { next_line_no: first_line_no, ..Default::default() };
    for (&(a, _), mut part) in ranges.iter().zip(parts) {
        let shift = if a == 0 { 0 } else { out.next_line_no - 2 };
        if out.values.is_empty() {
            out.values = std::mem::take(&mut part.values);
            out.values.iter_mut().for_each(|(l, _)| *l += shift);
        } else {
            out.values.extend(part.values.into_iter().map(|(l, v)| (l + shift, v)));
        }
        out.errors.extend(part.errors.into_iter().map(|mut e| {
            e.line += shift;
            e
        }));
        if part.consumed_bytes > 0 {
            out.consumed_bytes = a + part.consumed_bytes;
        }
        out.next_line_no = part.next_line_no + shift;
    }
    out
}

/// Every line of a whole input: complete lines plus the final one.
pub fn parse_all(bytes: &[u8]) -> ChunkParse {
    let mut chunk = parse_complete_lines_parallel(bytes);
    let rest = &bytes[chunk.consumed_bytes..];
    if !rest.is_empty() {
        match parse_final_line(rest, chunk.next_line_no) {
            Ok(Some(v)) => chunk.values.push((chunk.next_line_no, v)),
            Ok(None) => {}
            Err(e) => chunk.errors.push(e),
        }
        chunk.consumed_bytes = bytes.len();
        chunk.next_line_no += 1;
    }
    chunk
}

/// Non-blank lines of a buffer (without CR), at most `limit`.
pub fn first_lines(bytes: &[u8], limit: usize) -> Vec<&[u8]> {
    // memchr: a one-line document of 1 GB is scanned for its newline here.
    let mut rest = crate::load::input::strip_bom(bytes);
    let mut lines = Vec::new();
    while lines.len() < limit && !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().all(u8::is_ascii_whitespace) {
            lines.push(line);
        }
        rest = next;
    }
    lines
}

/// Whether a line is one whole JSON object.
pub fn is_json_object_line(line: &[u8]) -> bool {
    serde_json::from_slice::<Value>(line).is_ok_and(|v| v.is_object())
}

/// True when the buffer has exactly one non-blank line.
pub fn single_line(bytes: &[u8]) -> bool {
    first_lines(bytes, 2).len() == 1
}

/// [`single_line`] for a mapped file: the text is searched a few megabytes
/// at a time and each part searched is handed to `searched(start, end)` (to
/// be dropped from memory: a one-line document is searched to its end).
pub fn single_line_by_parts(bytes: &[u8], searched: &dyn Fn(usize, usize)) -> bool {
    const PART: usize = 4 << 20;
    let start = bytes.len() - crate::load::input::strip_bom(bytes).len();
    let (mut line_start, mut pos, mut dropped_to, mut lines) = (start, start, start, 0);
    let mut count = |line: &[u8]| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().all(u8::is_ascii_whitespace) {
            lines += 1;
        }
        lines
    };
    loop {
        let end = (pos + PART).min(bytes.len());
        match memchr::memchr(b'\n', &bytes[pos..end]) {
            Some(k) => {
                if count(&bytes[line_start..pos + k]) == 2 {
                    return false;
                }
                line_start = pos + k + 1;
                pos = line_start;
            }
            None if end == bytes.len() => return count(&bytes[line_start..]) == 1,
            None => pos = end,
        }
        if pos - dropped_to >= PART {
            searched(dropped_to, pos);
            dropped_to = pos;
        }
    }
}

/// For a buffer that did not parse as one JSON document: do most of its
/// first lines hold a JSON object each (a JSONL file with bad lines)?
pub fn mostly_object_lines(bytes: &[u8]) -> bool {
    let lines = first_lines(bytes, 50);
    if lines.len() < 2 {
        return false;
    }
    let good = lines.iter().filter(|l| is_json_object_line(l)).count();
    good * 2 > lines.len()
}

/// Blocks a large JSONL file is read and parsed in (a block and its parsed
/// lines are what is resident beside the lines parsed before).
pub const BLOCK: usize = 4 << 20;
/// A first line longer than this is taken for a one-line document.
const FIRST_LINE_AT_MOST: usize = 16 << 20;
/// A file whose first two lines are not within this many bytes is loaded as
/// one document (mapped), as any small file would be.
pub const DETECT_AT_MOST: usize = 64 << 20;

/// A stream read block by block, so that at most one block of its text is
/// in memory beside the lines parsed from it (a mapping of the whole file
/// would keep all of it resident while it is parsed).
pub struct Blocks<R> {
    reader: R,
    block: Vec<u8>,
    block_size: usize,
}

impl<R: Read> Blocks<R> {
    /// Read until two whole lines are in (the format is decided by them). A
    /// first block without a newline is a one-line document (or a stream
    /// with a giant first line): the caller maps it, as it maps any document.
    pub fn start(mut reader: R, block_size: usize) -> std::io::Result<Blocks<R>> {
        let mut block = Vec::with_capacity(block_size);
        loop {
            let before = block.len();
            (&mut reader).take(block_size as u64).read_to_end(&mut block)?;
            let complete = memchr::memrchr(b'\n', &block).map_or(0, |i| i + 1);
            if block.len() == before
                || (complete == 0 && block.len() >= FIRST_LINE_AT_MOST)
                || block.len() >= DETECT_AT_MOST
                || first_lines(&block[..complete], 2).len() == 2
            {
                break;
            }
        }
        Ok(Blocks { reader, block, block_size })
    }

    /// What [`Blocks::start`] read: the first lines, and the start of the next.
    pub fn head(&self) -> &[u8] {
        &self.block
    }

    /// Every line of the stream from the first, a block at a time.
    pub fn parse_all(mut self) -> std::io::Result<ChunkParse> {
        let mut all = ChunkParse { next_line_no: 1, ..Default::default() };
        loop {
            let chunk = parse_complete_lines_parallel_from(&self.block, all.next_line_no);
            all.values.extend(chunk.values);
            all.errors.extend(chunk.errors);
            all.next_line_no = chunk.next_line_no;
            // Keep the partial last line for the next block.
            self.block.drain(..chunk.consumed_bytes);
            let before = self.block.len();
            (&mut self.reader).take(self.block_size as u64).read_to_end(&mut self.block)?;
            if self.block.len() == before {
                break;
            }
        }
        if !self.block.is_empty() {
            match parse_final_line(&self.block, all.next_line_no) {
                Ok(Some(v)) => all.values.push((all.next_line_no, v)),
                Ok(None) => {}
                Err(e) => all.errors.push(e),
            }
            all.next_line_no += 1;
        }
        Ok(all)
    }
}

/// Every line of a mapped stream of StreamEvents, each event kept raw where
/// it can be (see `LazyLoad::raw`): pieces of whole lines on every core,
/// each piece handed to `searched` once parsed (to be dropped from memory,
/// like the pages of any mapped input).
pub fn parse_raw_lines(bytes: &[u8], load: &LazyLoad, searched: &(dyn Fn(usize, usize) + Sync)) -> ChunkParse {
    // Handed out one at a time to threads made once: a pair of threads per
    // block, joined before the next block, spent about as long being made
    // and waiting for the slower half as parsing.
    let ranges = line_pieces(bytes, PIECE);
    let parts = crate::analysis::parallel::parallel_map(&ranges, |&(a, b)| {
        let part = parse_complete_lines_with(&bytes[a..b], if a == 0 { 1 } else { 2 }, Some(load));
        searched(a, b);
        part
    });
    let mut all = merge_parts(1, &ranges, parts);
    let rest = &bytes[all.consumed_bytes..];
    if !rest.is_empty() {
        match parse_final_line_with(rest, all.next_line_no, Some(load)) {
            Ok(Some(v)) => all.values.push((all.next_line_no, v)),
            Ok(None) => {}
            Err(e) => all.errors.push(e),
        }
        all.next_line_no += 1;
    }
    all
}

/// What [`parse_raw_lines`] hands out at a time.
const PIECE: usize = 1 << 20;

/// `bytes` in consecutive pieces of whole lines, each up to the last newline
/// of the next `each` bytes (or of a line longer than that); the last piece
/// runs to the end.
fn line_pieces(bytes: &[u8], each: usize) -> Vec<(usize, usize)> {
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let cut = (start + each).min(bytes.len());
        let end = match memchr::memrchr(b'\n', &bytes[start..cut]) {
            _ if cut == bytes.len() => cut,
            Some(i) => start + i + 1,
            None => memchr::memchr(b'\n', &bytes[cut..]).map_or(bytes.len(), |i| cut + i + 1),
        };
        pieces.push((start, end));
        start = end;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_line_by_parts_agrees_with_single_line() {
        let cases: [&[u8]; 12] = [
            b"",
            b"\n",
            b"{}",
            b"{}\n",
            b"\n\n{}\n  \n",
            b"{}\n{}",
            b"{}\r\n{}\r\n",
            b"  \n{}\n\t\n",
            b"\xEF\xBB\xBF{}",
            b"\xEF\xBB\xBF{}\n{}",
            b"a\n\nb",
            b"\r\n",
        ];
        for bytes in cases {
            assert_eq!(super::single_line_by_parts(bytes, &|_, _| {}), super::single_line(bytes), "{bytes:?}");
        }
        let big = [vec![b'x'; 9 << 20], b"\n  \n".to_vec()].concat();
        let parts = std::cell::RefCell::new(Vec::new());
        assert!(super::single_line_by_parts(&big, &|s, e| parts.borrow_mut().push((s, e))));
        assert_eq!(
            parts.into_inner(),
            vec![(0, 4 << 20), (4 << 20, 8 << 20)],
            "searched parts are handed back in order"
        );
    }

    #[test]
    fn chunked_parse_matches_the_sequential_parse() {
        let mut bytes = b"\xEF\xBB\xBF{\"a\":1}\r\n\n".to_vec();
        for i in 0..200 {
            match i % 7 {
                0 => bytes.extend_from_slice(b"{\"bad\": tru}\n"),
                1 => bytes.extend_from_slice(b"\n"),
                2 => bytes.extend_from_slice(b"\xFF\n"),
                _ => bytes.extend_from_slice(format!("{{\"n\":{i},\"x\":1.50}}\n").as_bytes()),
            }
        }
        bytes.extend_from_slice(b"{\"tail\":");
        let one = parse_complete_lines(&bytes, 1);
        for threads in [2, 3, 5, 16, 300] {
            assert_eq!(parse_in_chunks(&bytes, threads, 1, None), one, "{threads} threads");
        }
        // A later block: numbering continues from its first line.
        let later = parse_complete_lines(&bytes[3..], 40);
        for threads in [2, 5] {
            assert_eq!(parse_in_chunks(&bytes[3..], threads, 40, None), later, "{threads} threads from line 40");
        }
        assert_eq!(parse_in_chunks(b"", 4, 1, None), parse_complete_lines(b"", 1));
        assert_eq!(parse_in_chunks(b"{}", 4, 1, None), parse_complete_lines(b"{}", 1));
        assert_eq!(parse_in_chunks(b"\n\n\n", 4, 1, None), parse_complete_lines(b"\n\n\n", 1));
    }

    #[test]
    fn stops_at_the_last_complete_line() {
        let bytes = b"{\"a\":1}\r\n\n{\"b\":2}\n{\"c\":";
        let chunk = parse_complete_lines(bytes, 1);
        assert_eq!(chunk.values.len(), 2);
        assert_eq!(chunk.values[1].0, 3);
        assert_eq!(chunk.consumed_bytes, bytes.len() - 5);
        assert_eq!(chunk.next_line_no, 4);
        assert!(chunk.errors.is_empty());
        // The follower feeds the rest plus what was appended.
        let mut rest = bytes[chunk.consumed_bytes..].to_vec();
        rest.extend_from_slice(b"3}\n");
        let more = parse_complete_lines(&rest, chunk.next_line_no);
        assert_eq!(more.values, vec![(4, serde_json::json!({"c": 3}))]);
        assert_eq!(more.consumed_bytes, rest.len());
    }

    #[test]
    fn follower_keeps_partial_lines_until_they_complete() {
        let mut f = LineFollower::new();
        let a = f.feed(b"\xEF\xBB\xBF{\"a\":1}\n{\"b\"");
        assert_eq!(a.values, vec![(1, serde_json::json!({"a": 1}))]);
        assert_eq!(f.pending(), b"{\"b\"");
        let b = f.feed(b":2}\n\n{\"c\":");
        assert_eq!(b.values, vec![(2, serde_json::json!({"b": 2}))]);
        let end = f.finish();
        assert!(matches!(end, Err(LineError { line: 4, .. })), "{end:?}");
        assert!(f.pending().is_empty());
    }

    #[test]
    fn bad_lines_are_reported_with_position() {
        let bytes = b"\xEF\xBB\xBF{\"a\":1}\n{\"a\": tru}\n\xFF\xFE\n{\"b\":2}\n{\"c\"";
        let all = parse_all(bytes);
        assert_eq!(all.values.iter().map(|(l, _)| *l).collect::<Vec<_>>(), vec![1, 4]);
        assert_eq!(all.errors.len(), 3);
        assert_eq!((all.errors[0].line, all.errors[0].column), (2, Some(10)));
        assert_eq!(all.errors[1].line, 3);
        assert!(all.errors[1].message().contains("UTF-8"));
        assert_eq!(all.errors[2].line, 5);
        assert!(all.errors[2].message().contains("incomplete"), "{}", all.errors[2].message());
        assert_eq!(all.errors[0].describe("f.jsonl"), format!("f.jsonl:2:10: {}", all.errors[0].message()));
        assert_eq!(all.errors[1].describe("f.jsonl"), format!("f.jsonl:3: {}", all.errors[1].message()));
    }
}
