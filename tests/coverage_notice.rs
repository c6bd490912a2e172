//! An assertion's checked material that is not complete says so, as
//! NiceEval's viewer does ("Input evidence partial · truncated · 1 byte
//! omitted"), in `show` and `show --json`, with the figures NiceEval's own
//! `show --json` pages give for the same assertions.

mod common;

use serde_json::Value;

/// (entry id, state, reason, omitted bytes) of every assertion a NiceEval
/// `show --json` page lists with a coverage that is not complete.
fn niceevals(page: &Value) -> Vec<(String, String, Option<String>, Option<u64>)> {
    let entries = page["data"]["evidence"]["entries"].as_array().cloned().unwrap_or_default();
    let mut out = Vec::new();
    for e in entries.iter().flat_map(|e| e["detail"]["entries"].as_array().cloned().unwrap_or_default()) {
        let source = &e["source"];
        let Some(state) = source["coverage"]["state"].as_str() else { continue };
        if state == "complete" {
            continue;
        }
        let omitted: Vec<u64> = source["limitations"]
            .as_array()
            .map(|l| l.iter().filter_map(|x| x["omittedBytes"].as_u64()).collect())
            .unwrap_or_default();
        out.push((
            e["entryId"].as_str().unwrap_or_default().to_string(),
            state.to_string(),
            source["coverage"]["reason"].as_str().map(str::to_string),
            (!omitted.is_empty()).then(|| omitted.iter().sum()),
        ));
    }
    out
}

#[test]
fn partial_evidence_reads_as_niceevals_pages_say_in_show_and_show_json() {
    let Some(dir) = common::shared_path("samples/niceeval/realrun-sdk") else { return };
    let record = dir.join("record");
    let mut compared = 0;
    for page in std::fs::read_dir(dir.join("niceeval-show-json")).unwrap().flatten() {
        let page: Value = serde_json::from_slice(&std::fs::read(page.path()).unwrap()).unwrap();
        let Some(locator) =
            page["selection"]["locator"].as_str().or(page["page"]["locator"].as_str()).map(str::to_string)
        else {
            continue;
        };
        let expected = niceevals(&page);
        if expected.is_empty() {
            continue;
        }
        let json = common::run_plain(&["show", record.to_str().unwrap(), &locator, "--json"]);
        let ours: Value = serde_json::from_slice(&json.1).expect("show --json");
        let assertions: Vec<&Value> =
            ours["attempts"].as_array().unwrap().iter().flat_map(|a| a["assertions"].as_array().unwrap()).collect();
        let text = common::show_wide(&record, &[&locator, "--assertions"]);
        for (id, state, reason, omitted) in expected {
            let a = assertions.iter().find(|a| a["id"] == id.as_str()).unwrap_or_else(|| panic!("{locator}: no {id}"));
            assert_eq!(a["coverage"]["state"], state.as_str(), "{locator} {id}");
            assert_eq!(a["coverage"]["reason"].as_str(), reason.as_deref(), "{locator} {id}");
            assert_eq!(a["coverage"]["omittedBytes"].as_u64(), omitted, "{locator} {id}");
            let mut words = format!("Input evidence {state}");
            if let Some(r) = &reason {
                words.push_str(&format!(" · {r}"));
            }
            assert!(text.contains(&words), "{locator} {id}: show says no {words:?}");
            compared += 1;
        }
    }
    common::report(&format!("coverage notice: {compared} assertions read as NiceEval's pages say"));
    assert!(compared >= 2, "only {compared} partial assertions found in NiceEval's pages");
}
