//! The viewer's own words around the content: panel titles with their
//! counts, what an empty list means, the loading line, the scope, the marks
//! legend and the key hints. Decided here like every other word.

use super::format::{count, megabytes};
use super::intent::Intent;
use super::keys::key_for;
use super::text::clean;

/// " Timeline · 37 rows · 8 turns · merged " (rows below the turns' headers).
pub fn timeline_title(rows: usize, turns: usize, merged: bool) -> String {
    let counts = super::format::timeline_counts(rows, turns);
    format!(" Timeline · {counts} · {} ", if merged { "merged" } else { "raw events" })
}

/// " Tools · 8 occurrences · 1 orphan finish · filter all · sort position ",
/// with " · /read" when a text filter is on (the counts: [`super::tools::ToolCounts::text`]).
pub fn tools_title(counts: super::tools::ToolCounts, filter: &str, by_name: bool, text: Option<String>) -> String {
    format!(
        " Tools · {} · filter {filter}{} · sort {} ",
        counts.text(),
        text.map(|t| format!(" {t}")).unwrap_or_default(),
        if by_name { "name" } else { "position" }
    )
}

/// " HITL · 3 requests · 1 waiting ".
pub fn hitl_title(requests: usize, waiting: usize) -> String {
    format!(" HITL · {} · {waiting} waiting ", count(requests, "request", "requests"))
}

pub const USAGE_TITLE: &str = " Usage · absent is —, never 0 · tokens = input + output ";

/// " Assertions · 4 assertions · 2 failing ", or that none were recorded.
pub fn assertions_title(recorded: Option<(usize, usize)>) -> String {
    match recorded {
        Some((n, failing)) => format!(" Assertions · {} · {failing} failing ", count(n, "assertion", "assertions")),
        None => " Assertions · not recorded ".into(),
    }
}

/// " Diagnostics · 1 error · 2 warnings · 3 recorded diagnostics " (the
/// recorded part only when the file records any; "not checked" when the
/// lint did not read the events).
pub fn diagnostics_title(errors: usize, warnings: usize, recorded: usize, checked: bool) -> String {
    let recorded = match recorded {
        0 => String::new(),
        n => format!(" · {}", count(n, "recorded diagnostic", "recorded diagnostics")),
    };
    format!(" Diagnostics · {}{recorded} ", super::format::finding_tally(errors, warnings, checked))
}

/// " Changes · 3 files · complete ", or that none were recorded.
pub fn changes_title(files: Option<(usize, String)>) -> String {
    match files {
        Some((n, state)) => format!(" Changes · {} · {state} ", count(n, "file", "files")),
        None => " Changes · not recorded ".into(),
    }
}

/// " Timing · 9.0s · 34 nodes · ✗ 4 failed " (the waterfall's title facts).
pub fn timing_title(meta: &str) -> String {
    format!(" Timing · {meta} ")
}

/// The Assertions list's first row when the attempt has a fix prompt.
pub const FIX_PROMPT_ROW: &str = "⧉ Fix prompt for a coding agent · y copies it";

/// " Attempts · 3 of 12 " (several attempts) or " Sessions & turns ".
pub fn navigator_title(shown: usize, total: usize) -> String {
    if total > 1 { format!(" Attempts · {shown} of {total} ") } else { " Sessions & turns ".into() }
}

/// What an empty Tools list means: the status filter (`f`), the text
/// filter (`/`, Esc clears it), or nothing there.
pub fn no_tools(filter: Option<&str>, text: Option<String>) -> String {
    let (change, clear) = (key_for(Intent::CycleFilter), key_for(Intent::Back));
    match (filter, text) {
        (Some(f), Some(t)) => {
            format!("no tool calls match the filter \"{f}\" and {t} ({change} changes it, {clear} clears {t})")
        }
        (Some(f), None) => format!("no tool calls match the filter \"{f}\" ({change} changes it)"),
        (None, Some(t)) => format!("no tool calls match {t} ({clear} clears it)"),
        (None, None) => "no tool calls in this scope".into(),
    }
}

pub const NO_REQUESTS: &str = "no input requests in this scope";
/// The Translation tab (9) or `t` on an input that records no native lines.
pub const NO_NATIVE_LINES: &str =
    "no native lines: this input is not a native agent log or a capture with recorded converter calls";
/// `t` on a row no native line made (the input row, a turn header).
pub const ROW_HAS_NO_LINE: &str = "this row came from no native line (it is no adapter event)";
/// Enter on a native line whose event is not in the timeline.
pub const NOT_IN_TIMELINE: &str = "that event is not in the timeline";

/// Enter on a native line that became no event.
pub fn dropped_line(why: &str) -> String {
    format!("this line became no event: {why}")
}

/// " Translation · 16 lines · 15 events · 1 dropped " (" Translation · none " without lines).
pub fn translation_title(counts: Option<&str>) -> String {
    format!(" Translation · {} ", counts.unwrap_or("none"))
}
/// What `--follow` says when lines it read could not be: "+2 events · line 5
/// skipped: an input-line-skipped error (Diagnostics, 6) — the JSON ends
/// early…". `added` events came with them; the reason, last, may be cut.
pub fn follow_skipped(added: usize, skipped: &[&crate::model::diagnostics::InputLoss]) -> String {
    let Some(first) = skipped.first() else { return String::new() };
    let added = if added > 0 { format!("+{} · ", count(added, "event", "events")) } else { String::new() };
    let why = clean(&first.why);
    let tab = super::keys::panel_key(super::panel::Panel::Diagnostics);
    if skipped.len() == 1 {
        return format!("{added}line {} skipped: an input-line-skipped error (Diagnostics, {tab}) — {why}", first.line);
    }
    let lines: Vec<String> = skipped.iter().take(5).map(|l| l.line.to_string()).collect();
    let more = if skipped.len() > 5 { ", …" } else { "" };
    format!(
        "{added}{} skipped ({}{more}): input-line-skipped errors (Diagnostics, {tab}) — line {}: {why}",
        count(skipped.len(), "line", "lines"),
        lines.join(", "),
        first.line
    )
}

pub const NO_FINDINGS: &str = "no findings: the event stream follows the contract";

/// The empty Diagnostics list: a clean stream, or why its events were not checked.
pub fn no_findings(unchecked: Option<&str>) -> String {
    match unchecked {
        None => NO_FINDINGS.into(),
        Some(reason) => format!("not checked: {reason}"),
    }
}
pub const NO_EVENTS: &str = "no events in this scope";

/// What an empty timeline says: nothing in scope, or (a session only
/// listed from a folder) that its log is not read yet.
pub fn timeline_empty(attempt: &crate::model::document::Attempt) -> String {
    if attempt.listed_only { super::summary::not_read_yet() } else { NO_EVENTS.into() }
}

/// The timeline of an input with no attempt: its notices (a followed file
/// that is awaited says so), or that there is nothing.
pub fn no_attempts(doc: &crate::model::document::Document) -> Vec<super::Text> {
    let mut out: Vec<super::Text> =
        doc.notices.iter().map(|n| super::Text::toned(clean(&super::notice::words(n)), super::Tone::Soft)).collect();
    if out.is_empty() {
        out.push(super::Text::toned("no attempts, sessions or turns in this input", super::Tone::Soft));
    }
    out
}

/// What an empty Assertions list means.
pub fn no_assertions(recorded: bool) -> &'static str {
    if recorded {
        "no assertions"
    } else {
        "assertions not recorded in this input (open a Record, InvocationSummary or show --json)"
    }
}

/// How far the background load of a large file has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LoadProgress {
    pub preview_bytes: u64,
    pub total_bytes: u64,
    pub parsed_bytes: u64,
    pub parsed_lines: u64,
    pub building: bool,
    pub elapsed_ms: u64,
}

/// `⟳ preview of the first 4.2 MB · loading 312.4 of 1000.0 MB, 53,210 events · 2.3 s`.
pub fn loading_text(l: &LoadProgress) -> String {
    let events = |n: u64| count(n as usize, "event", "events");
    let step = if l.building && l.parsed_lines > 0 {
        format!("building the views of {}", events(l.parsed_lines))
    } else if l.building {
        "building the views".to_string()
    } else if l.parsed_bytes > 0 {
        // JSONL counts its lines (events) as it goes; a JSON document only bytes.
        let so_far = if l.parsed_lines > 0 { format!(", {}", events(l.parsed_lines)) } else { String::new() };
        format!("loading {} of {}{so_far}", megabytes(l.parsed_bytes).trim_end_matches(" MB"), megabytes(l.total_bytes))
    } else {
        format!("loading {}", megabytes(l.total_bytes))
    };
    format!("⟳ preview of the first {} · {step} · {:.1} s", megabytes(l.preview_bytes), l.elapsed_ms as f64 / 1000.0)
}

/// The line on stderr while a file loads before the viewer draws (or a
/// command prints): `niceeval: loading big.jsonl: 31.2 MB of 100.0 MB, 53210 events (1.4 s)`.
/// `total` is the file's size when known; `label` is already drawable.
pub fn stderr_loading_line(label: &str, l: &LoadProgress, total: Option<u64>) -> String {
    let (bytes, lines) = (l.parsed_bytes, l.parsed_lines);
    let what = match (l.building, total) {
        (true, _) if lines > 0 => format!("{lines} lines parsed, building the views"),
        (true, _) => "building the views".to_string(),
        (false, Some(t)) if bytes > 0 && lines > 0 => {
            format!("{} of {}, {lines} events", megabytes(bytes), megabytes(t))
        }
        (false, Some(t)) if bytes > 0 => format!("{} of {}", megabytes(bytes), megabytes(t)),
        (false, Some(t)) => format!("parsing {}", megabytes(t)),
        (false, None) => "reading".to_string(),
    };
    format!("niceeval: loading {label}: {what} ({:.1} s)", l.elapsed_ms as f64 / 1000.0)
}

/// The header's word once the whole of a large file could not be read:
/// `⚠ preview only: the first 4.2 MB of 40.1 MB (the whole file could not be read: Diagnostics)`.
pub fn preview_only_text(l: &LoadProgress) -> String {
    format!(
        "⚠ preview only: the first {} of {} (the whole file could not be read: Diagnostics)",
        megabytes(l.preview_bytes),
        megabytes(l.total_bytes)
    )
}

/// "loaded all 48.0 MB: 120,001 events in 3.2 s".
pub fn loaded_text(total_bytes: u64, events: usize, seconds: f64) -> String {
    format!("loaded all {}: {} in {seconds:.1} s", megabytes(total_bytes), count(events, "event", "events"))
}

/// "scope: whole attempt", "scope: session-2", "scope: turn 6 · session2/turn1".
pub fn scope_text(session: Option<String>, turn_title: Option<String>) -> String {
    match (session, turn_title) {
        (_, Some(t)) => format!("scope: {}", clean(&t)),
        (Some(s), None) => format!("scope: {s}"),
        (None, None) => "scope: whole attempt".into(),
    }
}

/// What each mark means, for the help overlay.
pub fn marks() -> Vec<(&'static str, String)> {
    let folded = format!(
        "a folded turn: {} unfolds it, {} unfolds every turn",
        key_for(Intent::ToggleFold),
        key_for(Intent::UnfoldAll)
    );
    let mut out: Vec<(&str, String)> = MARKS.iter().map(|(m, w)| (*m, w.to_string())).collect();
    out.push(("▸", folded));
    out
}

/// The marks whose meaning names no key.
const MARKS: [(&str, &str); 13] = [
    ("✓", "completed / answered / passed"),
    ("✗", "failed"),
    ("!", "errored, or a request never answered"),
    ("⊘", "rejected (a human or policy said no)"),
    ("…", "pending: started, never finished"),
    ("?", "ambiguous id, orphan finish, unavailable, or an answer not recorded"),
    ("⏸", "waiting for human input"),
    ("–", "skipped, not applicable"),
    ("—", "not reported (missing is not zero)"),
    ("▲", "warning finding"),
    ("⚑", "a diagnostic finding points here"),
    ("◆N", "N assertions point at this row"),
    ("▌", "a turn's first row: status, events, tool calls, tokens"),
];

/// The lead of a turn's header row in the timeline.
pub fn turn_lead(folded: bool) -> &'static str {
    if folded { "▸ " } else { "▌ " }
}

pub use super::hints::{HintsFor, hints};

/// What a terminal below the minimum size shows.
pub fn too_small(width: u16, height: u16) -> String {
    let quit = key_for(Intent::Quit);
    format!("terminal too small: {width}×{height} (needs 60×15); make it larger or press {quit}")
}

/// [`too_small`] on a screen `width` wide: wrapped at words, or cut on one
/// line where no word would fit.
pub fn too_small_lines(text: &super::Text, width: usize) -> Vec<super::Text> {
    if width < 8 { vec![text.truncate(width)] } else { text.wrap(width) }
}

/// The inspector's mode tabs beside its title: " [Preview] │ Raw (r) ".
pub fn inspector_modes(raw: bool) -> String {
    let key = key_for(Intent::ToggleRaw);
    if raw { format!(" Preview │ [Raw] ({key}) ") } else { format!(" [Preview] │ Raw ({key}) ") }
}

pub const INSPECTOR_TITLE: &str = "Inspector";
pub const NOTHING_SELECTED: &str = "nothing selected";
pub const NOTHING_TO_SHOW: &str = "nothing to show";
/// Enter on a diagnostic NiceEval recorded (they name no event of the transcript).
pub const RECORDED_DIAGNOSTIC_HAS_NO_ROW: &str =
    "a diagnostic NiceEval recorded points at no row; its text is in the inspector";

/// The last line of a panel with more below: "↓ 8 more lines (j/k to scroll)",
/// with how to reach the panel when the keyboard is elsewhere.
pub fn more_below(lines: usize, focused: bool) -> String {
    let more = count(lines, "more line", "more lines");
    let scroll = format!("{}/{}", key_for(Intent::Down), key_for(Intent::Up));
    if focused {
        format!("↓ {more} ({scroll} to scroll)")
    } else {
        format!("↓ {more} ({} to focus, {scroll} to scroll)", key_for(Intent::FocusNext))
    }
}

/// The last line of the help overlay when more is below.
pub fn more_help(lines: usize) -> String {
    let keys = [Intent::Down, Intent::Up, Intent::PageDown, Intent::Bottom].map(key_for);
    format!("↓ {} ({}/{}, {}, {})", count(lines, "more line", "more lines"), keys[0], keys[1], keys[2], keys[3])
}

/// After a long value cut on screen: how much is left and where to read it.
pub fn more_characters(chars: usize) -> String {
    let pager = key_for(Intent::OpenPager);
    format!("… ({}; {pager} opens the whole value in $PAGER)", count(chars, "more character", "more characters"))
}

/// After JSON too long to highlight: where highlighting stopped.
pub fn highlight_stopped(after: usize, plain: usize) -> String {
    format!(
        "(highlighting stopped after {}; {} shown plain)",
        count(after, "line", "lines"),
        count(plain, "line", "lines")
    )
}

/// The help overlay's title: " Help · Esc or ? to close ".
pub fn help_title() -> String {
    format!(" Help · {} or {} to close ", key_for(Intent::Back), key_for(Intent::Help))
}

/// The headings of the help overlay's parts.
pub const HELP_KEYS: &str = "Keys (generated from the key table)";
pub const HELP_SEARCH: &str = "In the search prompt";
pub const HELP_MARKS: &str = "Marks";

/// The footer's mark while `F` (follow) sticks to the bottom.
pub const FOLLOWING: &str = "FOLLOW ";

/// The search prompt's lead: "/" for text, "regex /" for a regular expression.
pub fn search_lead(regex: bool) -> &'static str {
    if regex { "regex /" } else { "/" }
}

/// What the tab bar's scope reads when there is no attempt.
pub const SCOPE_EMPTY: &str = "scope: empty";

/// Below a table too wide for its width: "(2 more columns not shown)".
pub fn columns_not_shown(n: usize) -> String {
    format!("({} not shown)", count(n, "more column", "more columns"))
}

/// Why the pager did not show a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PagerFailure {
    /// No such program (or a shell's "command not found", status 127).
    NotFound,
    /// It ran and ended with this status.
    Status(i32),
    /// It was stopped by a signal.
    Signal,
    /// It could not be started, for the system's reason.
    Other(String),
}

/// The flash when `o` could not show a value: the pager named by `$PAGER`
/// (or the default `less`) did not start, or ended with a failure.
pub fn pager_failed(program: &str, why: &PagerFailure) -> String {
    let why = match why {
        PagerFailure::NotFound => "not found".to_string(),
        PagerFailure::Status(code) => format!("it exited with status {code}"),
        PagerFailure::Signal => "it was stopped by a signal".to_string(),
        PagerFailure::Other(e) => super::text::clean(e),
    };
    format!("cannot open the pager {}: {why} (set $PAGER to a pager that exists)", super::text::clean(program))
}

/// The flash of `F`: following a growing input, or why a file read once is not followed.
pub fn follow_flash(live: bool) -> &'static str {
    if live {
        "following: sticking to the newest event"
    } else {
        "at the last row; not following: this file was read once (open it with --follow or --watch to follow it)"
    }
}
