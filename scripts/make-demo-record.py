#!/usr/bin/env python3
"""Write assets/demo/record/: a small NiceEval Record (the durable store) with one
failed attempt and one passed attempt, so failed-eval review can be tried with
`niceeval view assets/demo/record`. Written for this project; the shapes follow
NiceEval's Record format (record.json, runs/<id>/{run.json,members,attempts,complete})."""
import json, hashlib, os, shutil
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(HERE, '..', 'assets', 'demo', 'record')
shutil.rmtree(REC, ignore_errors=True)

def w(path, obj, raw=False):
    p = os.path.join(REC, path); os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb') as f:
        f.write(obj if raw else json.dumps(obj, separators=(',', ':'), sort_keys=True, ensure_ascii=False).encode())
def sha(b): return hashlib.sha256(b).hexdigest()
def blob(d, key, data):
    w(os.path.join(d, 'blobs', key), data, raw=True)
    return {"$niceeval.record.blob": key}
def env(d, family, v): w(os.path.join(d, 'attachment.json'), {"family": family, "schemaVersion": v})
def fv(x):
    if isinstance(x, dict): return {"kind": "fields", "fields": [{"label": k, "value": fv(v)} for k, v in x.items()]}
    if isinstance(x, list): return {"kind": "list", "items": [fv(i) for i in x]}
    return {"kind": "value", "value": x}
COMPLETE = {"state": "complete", "limitations": []}
RUN = '5d1a2c3e-7f40-4b1a-9c2d-0e6f8a9b1c2d'
A_FAIL = '0b9f6c1e-3d2a-4e5f-8a7b-6c5d4e3f2a10'
A_PASS = '7c2e9a4b-1f3d-4b6a-9e8c-2d1f0a9b8c71'
def slot(n): return 'slot-' + sha(f'demo-slot-{n}'.encode())
w('record.json', {"format": "niceeval.record", "recordId": "3e1f2a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b"})
w(f'runs/{RUN}/run.json', {"runId": RUN, "experimentId": "csv-export", "startedAt": 1796000000000, "completedAt": 1796000042000,
    "context": {"experimentId": "csv-export", "execution": {"agentId": "coding-agent", "model": "claude-sonnet-4-5", "reasoningEffort": None, "flags": {}}, "labels": {}},
    "expectedSlots": [{"slotId": slot(1), "evalId": "export/keeps-last-row", "attemptOrdinal": 0, "executionIdentityDigest": sha(b'1')},
                      {"slotId": slot(2), "evalId": "export/smoke", "attemptOrdinal": 0, "executionIdentityDigest": sha(b'2')}]})
w(f'runs/{RUN}/complete', b'', raw=True)
for n, aid in [(1, A_FAIL), (2, A_PASS)]:
    w(f'runs/{RUN}/members/{slot(n)}.json', {"slotId": slot(n), "action": "executed", "attempt": {"originRunId": RUN, "attemptId": aid}})

# The eval source, stored once per run.
src_dir = f'runs/{RUN}/attachments/niceeval.sources'
env(src_dir, 'niceeval.sources', 1)
src = '''import { defineEval, equals, toolMatch } from "niceeval";

export default defineEval({
  id: "export/keeps-last-row",
  async test(t) {
    const turn = await t.send("Export the three rows to CSV and report the row count.");
    t.check(turn.data, equals({ rows: 3, header: true }));
    turn.calledTool(toolMatch("shell", { status: "completed" }), { count: 2 });
    turn.succeeded();
    t.judge(turn.message, "mentions the row count").atLeast(0.7).optional();
  },
});
'''.encode()
SRC_ID = 'src_demo000000000001'
w(f'{src_dir}/payload.json', {"items-data": [{"sourceItemId": SRC_ID, "path": "evals/export.eval.ts", "byteLength": len(src), "sha256": sha(src), "content": blob(src_dir, 'b1000000-0000-4000-8000-000000000001', src)}]})
w(f'runs/{RUN}/attachments/niceeval.observability/payload.json', {"owner-kind": "run", "timing-data": {"collection": COMPLETE, "intervals": []}, "diagnostics-data": {"collection": COMPLETE, "diagnostics": []}})
env(f'runs/{RUN}/attachments/niceeval.observability', 'niceeval.observability', 2)

def entry(eid, label, crit, result, gate, reason=None, req="required", cond=None, source=None, observed=None, expl=None):
    return {"entryId": eid, "display": {"label": label, "groupPath": ["export"]},
            "criterion": {"state": "available", "value": crit},
            "materials": {"source": source if source is not None else {"kind": "unavailable"}, "evidence": [], "coverage": {"state": "complete"}, "limitations": []},
            "evaluation": {"observed": observed or fv({"kind": "boolean", "outcome": result})},
            "decision": {"result": result, "reason": reason, "gate": gate},
            "policy": {"requirement": {"state": "available", "value": req}, "condition": {"state": "available", "value": cond or {"kind": "boolean", "expected": True}}},
            "contribution": {"state": "not-scored"},
            "explanationRetention": {"state": "retained", "value": expl} if expl else {"state": "retained", "value": {"kind": "unavailable", "reason": "not-declared"}}}

def attempt(aid, n, eval_id, items, turns, entries, sites, nav, usage, intervals, files=None, commands=None):
    ad = f'runs/{RUN}/attempts/{aid}'
    w(f'{ad}/attempt.json', {"attemptId": aid, "originRunId": RUN, "slotId": slot(n), "evalId": eval_id, "executionIdentityDigest": sha(str(n).encode()), "outcome": "completed"})
    env(f'{ad}/attachments/niceeval.observability', 'niceeval.observability', 2)
    w(f'{ad}/attachments/niceeval.observability/payload.json', {"owner-kind": "attempt",
        "conversation-data": {"collection": {"state": "partial", "limitations": [{"code": "unsupported-input", "omittedAtLeast": 1, "target": "conversation"}]}, "turns": turns, "items": items},
        "commands-data": {"collection": COMPLETE, "commands": commands or []},
        "usage-data": {"collection": COMPLETE, "observations": usage},
        "timing-data": {"collection": COMPLETE, "intervals": intervals},
        "diagnostics-data": {"collection": COMPLETE, "diagnostics": []}})
    env(f'{ad}/attachments/niceeval.source-navigation', 'niceeval.source-navigation', 1)
    w(f'{ad}/attachments/niceeval.source-navigation/payload.json', {"collection-data": COMPLETE, "rows-data": nav})
    env(f'{ad}/attachments/niceeval.assertions', 'niceeval.assertions', 2)
    w(f'{ad}/attachments/niceeval.assertions/payload.json', {"entries-data": entries, "source-sites-data": sites})
    if files:
        fc = f'{ad}/attachments/niceeval.file-changes'
        env(fc, 'niceeval.file-changes', 1)
        def rev(key, data): return {"kind": "text", "sha256": sha(data), "byteLength": len(data), "content": {"state": "available", "ref": blob(fc, key, data)}}
        changes = []
        for i, (path, kind, before, after) in enumerate(files):
            b = {"state": "absent"} if before is None else {"state": "present", "revision": rev(f'b2000000-0000-4000-8000-00000000{n}{i}0a', before)}
            a = {"state": "absent"} if after is None else {"state": "present", "revision": rev(f'b2000000-0000-4000-8000-00000000{n}{i}0b', after)}
            changes.append({"changeId": f"fc_demo{n}{i}", "path": path, "kind": kind, "before": b, "after": a})
        w(f'{fc}/payload.json', {"attribution-data": {"kind": "agent-send-window-endpoints"}, "collection-data": COMPLETE, "windows-data": [{"windowId": "turn1", "sequence": 1, "changes": changes}]})

T = 'turn_demo_fail_01'
items = [
    {"itemId": "i01", "turnId": T, "sequence": 1, "kind": "message", "role": "user", "text": "Export the three rows to CSV and report the row count."},
    {"itemId": "i02", "turnId": T, "sequence": 2, "kind": "message", "role": "assistant", "text": "Running the exporter on the fixture."},
    {"itemId": "i03", "turnId": T, "sequence": 3, "kind": "tool-call", "callId": "call_demo_1", "tool": "shell", "inputSummary": "{\"command\":\"node export.js fixtures/three-rows.json\"}"},
    {"itemId": "i04", "turnId": T, "sequence": 4, "kind": "tool-result", "callId": "call_demo_1", "outcome": "failed", "outputSummary": "{\"exit_code\":1,\"stdout\":\"id,name\\n1,ada\\n2,grace\\n\",\"stderr\":\"warning: 1 row dropped at index 2\"}"},
    {"itemId": "i05", "turnId": T, "sequence": 5, "kind": "tool-call", "callId": "call_demo_2", "tool": "Edit", "inputSummary": "{\"file_path\":\"src/export.js\",\"old_string\":\"i < rows.length - 1\",\"new_string\":\"i <= rows.length - 1\"}"},
    {"itemId": "i06", "turnId": T, "sequence": 6, "kind": "tool-result", "callId": "call_demo_2", "outcome": "completed", "outputSummary": "\"updated src/export.js\""},
    {"itemId": "i07", "turnId": T, "sequence": 7, "kind": "message", "role": "assistant", "text": "Exported 2 rows (the exporter skipped one); I patched the loop bound but did not re-run it."},
]
occ = '["niceeval.logical-tool-occurrence/1","session-1","turn-1",1,2]'
entries = [
    entry('ae_demo0000000000001', 'structured result is {rows: 3, header: true}',
          {"kind": "builtin", "id": "value-match/v1", "data": {"subject": "explicit-value", "matcher": {"name": "equals({ rows: 3, header: true })", "state": "declared"}}},
          'mismatched', 'failed', reason='condition-not-met', source={"kind": "snapshot", "value": {"rows": 2, "header": True, "note": "1 row dropped"}},
          observed=fv({"rows": 2, "header": True, "note": "1 row dropped"}),
          expl=fv({"code": "equals-mismatch", "message": "rows: expected 3, received 2", "path": ["rows"],
                   "expected": "{\n  \"rows\": 3,\n  \"header\": true\n}", "received": "{\n  \"rows\": 2,\n  \"header\": true,\n  \"note\": \"1 row dropped\"\n}",
                   "locator": {"kind": "json-pointer", "pointer": "/rows"}})),
    entry('ae_demo0000000000002', 'two completed shell calls',
          {"kind": "builtin", "id": "occurrence/v1", "data": {"assertion": "present", "matcher": "toolMatch(\"shell\", {status: \"completed\"})", "occurrence": "tool", "quantifier": {"kind": "exact", "count": 2}, "scope": "turn"}},
          'mismatched', 'failed', reason='condition-not-met', source={"kind": "snapshot", "value": {"candidateCount": 1}},
          expl=fv({"code": "tool-count-mismatch", "message": "calledTool(toolMatch(\"shell\", {status: \"completed\"})) expected exactly 2", "path": [],
                   "expected": "exactly 2 × toolMatch(\"shell\", {status: \"completed\"})", "received": "0 definite matches",
                   "children": [{"index": 0, "state": "mismatched", "label": "candidate " + occ,
                                 "diagnostic": {"code": "tool-status-mismatch", "message": "status failed ≠ completed", "path": ["status"], "expected": "completed", "received": "failed",
                                                "locator": {"kind": "tool-occurrence", "id": occ}}}]})),
    entry('ae_demo0000000000003', 'turn succeeded', {"kind": "builtin", "id": "scope-status/v1", "data": {"assertion": "succeeded", "scope": "turn"}},
          'matched', 'satisfied', source={"kind": "snapshot", "value": {"scope": "turn", "status": "completed"}}),
    entry('ae_demo0000000000004', 'reply mentions the row count', {"kind": "builtin", "id": "judge-measurement/v1", "data": {"recipe": "closed-qa", "scale": "unit-interval"}},
          'unavailable', 'not-gate', reason='source-unavailable', req='optional', cond={"kind": "at-least", "threshold": 0.7},
          observed=fv({"kind": "measurement", "state": "unavailable"}),
          expl=fv({"failureDetail": "judge-model-unresolved", "failureEvidence": {"state": "unavailable", "reason": "not-recorded"}})),
]
sites = [{"entryId": e["entryId"], "sourceOrder": i + 2, "role": "declaration", "sourceItemId": SRC_ID, "sha256": sha(src), "start": {"line": line, "column": 5}, "end": {"line": line, "column": 5}}
         for i, (e, line) in enumerate(zip(entries, [7, 8, 9, 10]))]
nav = [{"turnId": T, "sourceOrder": 1, "source": {"state": "mapped", "sourceItemId": SRC_ID, "sha256": sha(src), "start": {"line": 6, "column": 24}, "end": {"line": 6, "column": 24}}, "timing": {"state": "linked", "intervalId": "iv_send_1"}}]
usage = [{"kind": "token-bucket", "provider": "coding-agent", "bucket": b, "tokens": t} for b, t in [("input", 2410), ("output", 388), ("cache-read", 12288), ("cache-write", 2048)]] + \
        [{"kind": "request", "provider": "coding-agent", "requestKind": "model"}] * 3 + [{"kind": "provider-cost", "provider": "coding-agent", "amount": "0.0214", "currency": "USD"}]
intervals = [{"intervalId": "iv_setup", "phase": "attempt.setup", "label": "workspace.prepare", "startOffsetMs": 0, "durationMs": 1180, "parentIntervalId": None, "outcome": "completed"},
             {"intervalId": "iv_cmd_1", "phase": "sandbox.command", "label": "pnpm", "startOffsetMs": 10, "durationMs": 1160, "parentIntervalId": "iv_setup", "outcome": "completed"},
             {"intervalId": "iv_run", "phase": "eval.run", "label": "eval.run", "startOffsetMs": 1200, "durationMs": 9120, "parentIntervalId": None, "outcome": "completed"},
             {"intervalId": "iv_send_1", "phase": "agent.send", "label": "turn1", "startOffsetMs": 1240, "durationMs": 8800, "parentIntervalId": "iv_run", "outcome": "completed"},
             {"intervalId": "iv_cmd_2", "phase": "sandbox.command", "label": "pnpm", "startOffsetMs": 10060, "durationMs": 240, "parentIntervalId": "iv_run", "outcome": "failed"}]

def stream(text):
    b = text.encode()
    return {"retainedBytes": len(b), "sha256": sha(b), "storage": {"kind": "inline", "text": text}, "totalSafeUtf8Bytes": len(b)}
def command(cid, phase, line, code, stdout, stderr):
    return {"commandId": cid, "manifest": {"invocation": {"command": line, "kind": "shell"}, "phase": phase, "workingDirectory": {"kind": "sandbox-default"}},
            "result": {"outcome": {"exitCode": code, "kind": "exited"}, "stdout": stream(stdout), "stderr": stream(stderr)}}
passing = "".join(f" ✓ test/format.test.js > formats cell {i}\n" for i in range(1, 25))
test_out = (" RUN  v2.1.4 /workspace\n\n" + passing +
            " ✗ test/export.test.js > toCsv > keeps the last row\n"
            "   → expected 2 to be 3 // Object.is equality\n\n"
            " Test Files  1 failed | 1 passed (2)\n"
            "      Tests  1 failed | 24 passed (25)\n"
            "   Duration  212ms\n")
commands = [
    command("command_demo_1", "attempt.setup", "pnpm install --frozen-lockfile", 0,
            "Lockfile is up to date, resolution step is skipped\nAlready up to date\n\nDone in 1.1s\n", ""),
    command("command_demo_2", "eval.run", "pnpm vitest run test/", 1, test_out,
            "AssertionError: expected 2 to be 3 // Object.is equality\n ❯ test/export.test.js:14:25\n"),
]
before = b"export function toCsv(rows) {\n  const out = [header(rows[0])];\n  for (let i = 0; i < rows.length - 1; i++) {\n    out.push(line(rows[i]));\n  }\n  return out.join('\\n');\n}\n"
after = before.replace(b"i < rows.length - 1", b"i <= rows.length - 1")
attempt(A_FAIL, 1, 'export/keeps-last-row', items, [{"turnId": T, "sequence": 1, "outcome": "completed"}], entries, sites, nav, usage, intervals,
        files=[("src/export.js", "modified", before, after), ("out/rows.csv", "created", None, b"id,name\n1,ada\n2,grace\n")],
        commands=commands)

T2 = 'turn_demo_pass_01'
items2 = [
    {"itemId": "j01", "turnId": T2, "sequence": 1, "kind": "message", "role": "user", "text": "Print the exporter version."},
    {"itemId": "j02", "turnId": T2, "sequence": 2, "kind": "tool-call", "callId": "call_demo_3", "tool": "shell", "inputSummary": "{\"command\":\"node export.js --version\"}"},
    {"itemId": "j03", "turnId": T2, "sequence": 3, "kind": "tool-result", "callId": "call_demo_3", "outcome": "completed", "outputSummary": "{\"exit_code\":0,\"stdout\":\"4.2.1\\n\",\"stderr\":\"\"}"},
    {"itemId": "j04", "turnId": T2, "sequence": 4, "kind": "message", "role": "assistant", "text": "The exporter is version 4.2.1."},
]
entries2 = [entry('ae_demo0000000000005', 'reply names the version', {"kind": "builtin", "id": "value-match/v1", "data": {"subject": "explicit-value", "matcher": {"name": "includes(\"4.2.1\")", "state": "declared"}}},
                  'matched', 'satisfied', source={"kind": "snapshot", "value": "The exporter is version 4.2.1."})]
attempt(A_PASS, 2, 'export/smoke', items2, [{"turnId": T2, "sequence": 1, "outcome": "completed"}], entries2, [],
        [{"turnId": T2, "sourceOrder": 1, "source": {"state": "unmapped", "reason": "location-not-captured"}, "timing": {"state": "linked", "intervalId": "iv_send_2"}}],
        [{"kind": "token-bucket", "provider": "coding-agent", "bucket": "input", "tokens": 310}, {"kind": "token-bucket", "provider": "coding-agent", "bucket": "output", "tokens": 22},
         {"kind": "request", "provider": "coding-agent", "requestKind": "model"}],
        [{"intervalId": "iv_run2", "phase": "eval.run", "label": "eval.run", "startOffsetMs": 0, "durationMs": 1410, "parentIntervalId": None, "outcome": "completed"},
         {"intervalId": "iv_send_2", "phase": "agent.send", "label": "turn1", "startOffsetMs": 20, "durationMs": 1300, "parentIntervalId": "iv_run2", "outcome": "completed"}])
print(os.path.relpath(REC))
