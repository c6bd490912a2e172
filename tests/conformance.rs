//! Runs every case in ../shared/conformance (random/, samples/, corners/; computed by NiceEval's own
//! derivation code) through `niceeval derive`, the library, and the library
//! over a lazy load (what large files get), when that folder exists; the
//! estimate must also be NiceEval's with the built-in table (no --prices). Prints
//! `conformance: N passed, M failed`.

mod common;

use common::{bin, json_diff, shared_dir};
use niceeval::model::command::normalize_logical_command;
use niceeval::model::usage::{PriceTable, builtin_prices};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for sub in ["random", "samples", "corners"] {
        if let Ok(rd) = std::fs::read_dir(dir.join(sub)) {
            files.extend(rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")));
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn conformance_cases_agree_with_niceeval() {
    let Some(shared) = shared_dir() else {
        common::report("conformance: skipped (../shared/conformance not found)");
        return;
    };
    let dir = shared.join("conformance");
    let prices_path = dir.join("prices.json");
    let prices = PriceTable::from_value(&read(&prices_path), "prices.json").unwrap();
    let builtin = builtin_prices();
    let tmp = std::env::temp_dir().join(format!("niceeval-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut report = Vec::new();
    for case_path in cases(&dir) {
        let case = read(&case_path);
        let name = case["case"].as_str().unwrap_or("?").to_string();
        let model = case["model"].as_str();
        let expected = &case["expected"];
        let input_bytes = serde_json::to_vec(&case["input"]).unwrap();

        // Library path.
        let doc = niceeval::load::load_bytes(&name, &input_bytes).expect("case input loads");
        let attempt = &doc.attempts[0];
        let lib = niceeval::model::derive_attempt(attempt, model, &prices).to_json(attempt);

        // Without --prices: the built-in table is NiceEval's, so the estimate is NiceEval's.
        let builtin_estimate = niceeval::model::derive_attempt(attempt, model, &builtin).to_json(attempt);
        let builtin_estimate = &builtin_estimate["attempt"]["estimatedCostUSD"];

        // Raw path: what a large file gets (every event kept as its text in
        // the file), and deriving must not need any of them parsed whole.
        let lazy_doc = niceeval::load::load_bytes_lazy(&name, input_bytes.clone(), usize::MAX).expect("raw load");
        let lazy_attempt = &lazy_doc.attempts[0];
        let lazy_derived = niceeval::model::derive_attempt(lazy_attempt, model, &prices);
        let parsed_whole = lazy_attempt
            .sessions
            .iter()
            .flat_map(|s| &s.turns)
            .flat_map(|t| &t.turn.events)
            .filter(|e| e.parsed_whole())
            .count();
        // (The JSON itself shows the payloads: that parses them.)
        let lazy = lazy_derived.to_json(lazy_attempt);

        // CLI path: the contract in the conformance README.
        let input_file = tmp.join(format!("{name}.json"));
        std::fs::write(&input_file, &input_bytes).unwrap();
        let mut cmd = Command::new(bin());
        cmd.arg("derive").arg(&input_file).arg("--prices").arg(&prices_path);
        if let Some(m) = model {
            cmd.arg("--model").arg(m);
        }
        let output = cmd.output().expect("run niceeval derive");
        let cli: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);

        let mut diffs = Vec::new();
        json_diff(expected, &lib, "$", &mut diffs);
        let mut cli_diffs = Vec::new();
        json_diff(expected, &cli, "$", &mut cli_diffs);
        let mut lazy_diffs = Vec::new();
        json_diff(expected, &lazy, "$", &mut lazy_diffs);
        json_diff(
            &expected["attempt"]["estimatedCostUSD"],
            builtin_estimate,
            "(built-in table) $.attempt.estimatedCostUSD",
            &mut lazy_diffs,
        );
        if parsed_whole > 0 {
            lazy_diffs.push(format!("deriving parsed {parsed_whole} lazy event(s) whole"));
        }
        if diffs.is_empty() && cli_diffs.is_empty() && lazy_diffs.is_empty() && output.status.success() {
            passed += 1;
        } else {
            failed += 1;
            let mut lines: Vec<String> = diffs.into_iter().take(8).collect();
            if lines.is_empty() {
                lines = lazy_diffs.into_iter().take(8).map(|d| format!("(lazy) {d}")).collect();
            }
            if lines.is_empty() {
                lines = cli_diffs.into_iter().take(8).map(|d| format!("(cli) {d}")).collect();
                lines.push(format!(
                    "(cli) exit {:?}: {}",
                    output.status.code(),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            report.push(format!("{name}:\n  {}", lines.join("\n  ")));
        }
    }

    // The normalizer table.
    for (i, entry) in read(&dir.join("logical-command-v1.json")).as_array().unwrap().iter().enumerate() {
        let got = normalize_logical_command(&entry["original"]);
        let mut diffs = Vec::new();
        json_diff(&entry["logical"], &got, "$", &mut diffs);
        if diffs.is_empty() {
            passed += 1;
        } else {
            failed += 1;
            report.push(format!("logical-command-v1[{i}] {}:\n  {}", entry["original"], diffs.join("\n  ")));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    common::report(&format!("conformance: {passed} passed, {failed} failed"));
    assert!(passed > 0, "no conformance case ran");
    assert!(report.is_empty(), "conformance mismatches:\n{}", report.join("\n"));
}

/// The built-in table is NiceEval's vendored `prices.json`, as shipped.
#[test]
fn builtin_price_table_is_niceevals_prices_json() {
    let Some(shared) = shared_dir() else {
        common::report("builtin prices: skipped (../shared/conformance not found)");
        return;
    };
    let shipped = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/prices/niceeval-prices.json"));
    let vendored = std::fs::read(shared.join("conformance/prices.json")).unwrap();
    assert!(shipped.unwrap() == vendored, "assets/prices/niceeval-prices.json differs from NiceEval's prices.json");
}
