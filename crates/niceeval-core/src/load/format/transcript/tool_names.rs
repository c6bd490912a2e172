//! NiceEval's tool-name canonicalisation (`o11y/tool-names.ts`
//! `normalizeToolName` with each parser's aliases): the lower-cased name
//! looked up in the agent's table, then the shared base table, else
//! `unknown`. The tables are plain JS objects, so a name such as
//! `constructor` finds `Object.prototype`'s member ([`js::lookup`]).

use super::js::{self, Lookup};
use serde_json::Value;

/// The shared base: aliases no application's own tool would collide with.
const BASE: &[(&str, &str)] = &[
    ("read_file", "file_read"),
    ("write_file", "file_write"),
    ("create_file", "file_write"),
    ("delete_file", "file_write"),
    ("edit_file", "file_edit"),
    ("patch_file", "file_edit"),
    ("apply_patch", "file_edit"),
    ("str_replace_editor", "file_edit"),
    ("shell", "shell"),
    ("bash", "shell"),
    ("command_execution", "shell"),
    ("local_shell", "shell"),
    ("execute_command", "shell"),
    ("run_command", "shell"),
    ("web_fetch", "web_fetch"),
    ("fetch_url", "web_fetch"),
    ("http_request", "web_fetch"),
    ("web_search", "web_search"),
    ("glob", "glob"),
    ("find_files", "glob"),
    ("list_files", "glob"),
    ("grep", "grep"),
    ("search_files", "grep"),
    ("ripgrep", "grep"),
    ("list_dir", "list_dir"),
    ("list_directory", "list_dir"),
];

/// `CLAUDE_TOOL_ALIASES`.
pub const CLAUDE: &[(&str, &str)] = &[
    ("read", "file_read"),
    ("readfile", "file_read"),
    ("write", "file_write"),
    ("writefile", "file_write"),
    ("write_to_file", "file_write"),
    ("edit", "file_edit"),
    ("multiedit", "file_edit"),
    ("editfile", "file_edit"),
    ("strreplace", "file_edit"),
    ("notebookedit", "file_edit"),
    ("bashoutput", "shell"),
    ("webfetch", "web_fetch"),
    ("mcp__fetch__fetch", "web_fetch"),
    ("websearch", "web_search"),
    ("ls", "list_dir"),
    ("listdir", "list_dir"),
    ("task", "agent_task"),
];

/// `CODEX_TOOL_ALIASES`: the bare verbs (`GENERIC_VERB_ALIASES`) and two of its own.
pub const CODEX: &[(&str, &str)] = &[
    ("exec", "shell"),
    ("execute", "shell"),
    ("run", "shell"),
    ("terminal", "shell"),
    ("fetch", "web_fetch"),
    ("curl", "web_fetch"),
    ("search", "web_search"),
    ("ls", "list_dir"),
    ("dir", "list_dir"),
    ("task", "agent_task"),
    ("file_change", "file_edit"),
    ("update_plan", "agent_task"),
];

/// The canonical name of `name`, as the `tool` member is written: `None`
/// when NiceEval's lookup finds a function (which `JSON.stringify` drops).
pub fn canonical(name: &str, overrides: &[(&str, &'static str)]) -> Option<Value> {
    let key = name.to_lowercase();
    // `overrides?.[key] ?? BASE_TOOL_ALIASES[key] ?? "unknown"`: a
    // prototype member is not nullish, so it stops the chain.
    for table in [overrides, BASE] {
        match js::lookup(table, &key) {
            Lookup::Own(tool) => return Some(tool.into()),
            Lookup::Function => return None,
            Lookup::Prototype => return Some(Value::Object(Default::default())),
            Lookup::Missing => {}
        }
    }
    Some("unknown".into())
}
