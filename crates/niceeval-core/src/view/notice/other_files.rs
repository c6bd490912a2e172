//! What a file that holds no conversation is, and where a viewable file
//! comes from.

use crate::model::notice::{NotAConversation, OverviewPage};

/// `: a, b, c` (at most eight, then `…`), or nothing for an empty list.
fn listed(items: &[String]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut shown: Vec<&str> = items.iter().take(8).map(String::as_str).collect();
    if items.len() > 8 {
        shown.push("…");
    }
    format!(": {}", shown.join(", "))
}

pub fn not_a_conversation(n: &NotAConversation) -> String {
    match n {
        NotAConversation::ShowOverview { page, kind, experiments } => {
            let page = match page {
                OverviewPage::Project => "the project overview page",
                OverviewPage::Experiment => "an experiment's page",
            };
            format!(
                "this is {page} of `niceeval show --json` (`{kind}`{}): comparison rows, not attempts. Open one attempt's `niceeval show @<locator> --json`, one run's `niceeval show --run <id> --json`, or the Record (`.niceeval/record`)",
                listed(experiments)
            )
        }
        NotAConversation::TraceSpans { spans, traces } => format!(
            "this is an OTel trace ({spans} TraceSpans in {traces} trace(s)), not a conversation. Spans are shown next to the turns when you open the InvocationSummary (results[].trace, joined to turns by agent.turn traceId), the Record that holds this otel-trace.json artifact, or a legacy run directory (trace.json next to events.json)"
        ),
        NotAConversation::RawFrames { frames } => format!(
            "this is an sdk-converter raw-frames file ({frames} upstream protocol frames and converter calls), not a conversation. Open the Turns the converter produced instead: the matching `*.capture.json` or `turns/*.json` files"
        ),
        NotAConversation::Otlp { spans } => format!(
            "this is a raw OTLP/JSON ExportTraceServiceRequest ({spans} spans), not a conversation. NiceEval normalises it into TraceSpans during a run; open that run's InvocationSummary, Record or legacy run directory to see the spans next to the turns"
        ),
        NotAConversation::StatusIndex { format, sessions } => format!(
            "this is a NiceEval invocation status index (`{format}`, {sessions} invocation session(s)), not a conversation. Open the Record (`.niceeval/record`) or `niceeval show @<locator> --json` output to see turns"
        ),
        NotAConversation::ExperimentList { ids } => format!(
            "this is `niceeval exp list --json` (`niceeval.experiments`: {} experiment(s){}), the experiments the project can run, with no conversation data. Run one (`niceeval exp <id>`) and open its Record (`.niceeval/record`, or one run directory `runs/<runId>`) or an attempt's `niceeval show @<locator> --json` output",
            ids.len(),
            listed(ids)
        ),
        NotAConversation::Plan { format, counts } => {
            let counts = match counts {
                Some((total, reused)) => format!("{total} planned, {reused} reused; "),
                None => String::new(),
            };
            format!(
                "this is a `niceeval exp --dry --json` plan (`{format}`: {counts}no conversation data). Run the experiment without --dry and open its Record (`.niceeval/record`) or an attempt's `niceeval show @<locator> --json` output"
            )
        }
        NotAConversation::InvocationSession { status, runs } => format!(
            "this is a NiceEval invocation session record (`.niceeval/sessions/s_<uuid>.json`, status {}, runs [{}]), not a conversation. Open the Record (`.niceeval/record`) that holds those runs",
            status.as_deref().unwrap_or("unknown"),
            runs.join(", ")
        ),
    }
}
