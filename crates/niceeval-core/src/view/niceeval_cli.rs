//! Words about NiceEval's own CLI: the commands this binary hands to it,
//! and the Record it looks for as NiceEval does when no path is given.

use std::path::Path;

/// Where a project's NiceEval CLI is installed, looked for from the working
/// directory upward (npm, pnpm and yarn all link package bins there).
pub const NICEEVAL_BIN: &str = "node_modules/.bin/niceeval";

/// The Record root NiceEval's `show` reads when none is named (its
/// `--record` default), looked for from the working directory upward as
/// NiceEval finds `.niceeval`.
pub const DEFAULT_RECORD: &str = ".niceeval/record";

/// One line: `command` is not this viewer's, and NiceEval's CLI was not
/// found where it was looked for. `skipped` names a `node_modules/.bin/niceeval`
/// that was this binary itself (handing to it would loop).
pub fn no_niceeval_cli(command: &str, start: &Path, skipped: Option<&Path>) -> String {
    let skipped = match skipped {
        Some(path) => format!(" (only {}, which is this viewer)", super::clean(&path.display().to_string())),
        None => String::new(),
    };
    format!(
        "`{}` is not a command of this viewer, and NiceEval's own CLI, which may have it, was not found: no {NICEEVAL_BIN} in {} or any folder above it{skipped}. Install NiceEval in the project (npm install --save-dev niceeval), or run `niceeval --help` for this viewer's commands.",
        super::clean(command),
        super::clean(&start.display().to_string()),
    )
}

/// One line, in NiceEval's words (`No .niceeval directory found from … upward`),
/// for `show` with no path where no Record is found.
pub fn no_record(start: &Path) -> String {
    format!(
        "No {DEFAULT_RECORD} found from {} upward. Run this inside the project, or pass --record <record-root> (or a path) to point at it.",
        super::clean(&start.display().to_string())
    )
}

/// One line for a `show` flag that only NiceEval's Report takes (`--page`,
/// `--report`): this viewer draws its own views, and says whose flag it is.
pub fn browser_only(flag: &str) -> String {
    format!(
        "{flag} selects a page or module of NiceEval's Report, which this viewer does not render; run NiceEval's own CLI for it ({NICEEVAL_BIN} show … {flag} …, or npx niceeval show … {flag} …)"
    )
}

/// NiceEval's words when two of `--source`, `--execution`, `--timing` and `--diff` are given.
pub const ONE_EVIDENCE: &str = "niceeval show chooses one evidence Report at a time.";
/// NiceEval's words for `--grep` beside `--source`, `--timing` or `--diff`.
pub const GREP_ONLY_EXECUTION: &str = "--grep only combines with --execution.";
/// NiceEval's words for an evidence flag with `--run` or `--experiment`.
pub const EVIDENCE_NEEDS_ONE_ATTEMPT: &str = "Evidence slicing requires exactly one Attempt locator.";

/// Whether `id` can be a Run id: NiceEval's portable file-name segment
/// (ASCII, no path separator, not `.` or `..`), so a `--run` value never
/// names a path outside the Record's `runs/`.
pub fn portable_segment(id: &str) -> bool {
    !id.is_empty() && id != "." && id != ".." && id.bytes().all(|b| b.is_ascii_graphic() && b != b'/' && b != b'\\')
}

/// `--run` was given with a path that is not a Record root.
pub fn not_a_record_root(path: &Path) -> String {
    format!(
        "{}: --run selects runs of a Record root (a folder holding record.json), and this is not one",
        super::clean(&path.display().to_string())
    )
}

/// `--run ID` names no published run of the Record.
pub fn no_run(id: &str, root: &Path) -> String {
    format!(
        "{}: --run {}: no run with that id (no runs/{}/run.json)",
        super::clean(&root.display().to_string()),
        super::clean(id),
        super::clean(id)
    )
}

/// `--experiment ID` names no experiment of the input; `known` are its own.
pub fn no_experiment(sources: &[String], unknown: &[String], known: &[String]) -> String {
    let list = |ids: &[String]| ids.iter().map(|i| super::clean(i)).collect::<Vec<_>>().join(", ");
    let known = if known.is_empty() { "none".to_string() } else { list(known) };
    format!(
        "{}: --experiment {}: no attempt or slot of that experiment (experiments here: {known})",
        super::clean(&sources.join(", ")),
        list(unknown)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_not_found_line_names_the_command_what_was_searched_and_where() {
        let line = no_niceeval_cli("exp", Path::new("/tmp/p"), None);
        assert!(line.contains("`exp`"), "{line}");
        assert!(line.contains("no node_modules/.bin/niceeval in /tmp/p or any folder above it"), "{line}");
        assert!(!line.contains('\n'), "{line}");
        let line = no_niceeval_cli("exp\x1b[2J", Path::new("/a"), Some(Path::new("/a/node_modules/.bin/niceeval")));
        assert!(!line.contains('\x1b'), "{line:?}");
        assert!(line.contains("only /a/node_modules/.bin/niceeval, which is this viewer"), "{line}");
    }

    #[test]
    fn a_run_id_is_one_portable_segment() {
        assert!(portable_segment("a0000000-0000-4000-8000-00000000000a"));
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", "a b", "é"] {
            assert!(!portable_segment(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_no_record_line_is_niceevals_and_names_the_start() {
        let line = no_record(Path::new("/w/sub"));
        assert_eq!(
            line,
            "No .niceeval/record found from /w/sub upward. Run this inside the project, or pass --record <record-root> (or a path) to point at it."
        );
    }
}
