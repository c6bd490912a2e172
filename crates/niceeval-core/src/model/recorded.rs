//! What a Record holds that NiceEval's own figures read (see
//! [`super::measure`]): its usage collection, and the slots its runs
//! expected that hold no attempt.

use serde_json::Value;

/// What a Record's usage collection holds, as NiceEval's token figure reads it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RecordedUsage {
    /// The collection's state is `complete`.
    pub complete: bool,
    /// Token-bucket observations of any bucket.
    pub token_buckets: usize,
    /// Sums of the `input` and `output` buckets, when any was observed.
    pub input: Option<f64>,
    pub output: Option<f64>,
}

impl RecordedUsage {
    /// A Record / `show --json` usage collection `{collection, observations}`:
    /// its state and its `input` and `output` token buckets.
    pub fn from_collection(u: &Value) -> RecordedUsage {
        let mut r = RecordedUsage {
            complete: u.get("collection").and_then(|c| c.get("state")).and_then(Value::as_str) == Some("complete"),
            ..Default::default()
        };
        let observations = u.get("observations").and_then(Value::as_array).into_iter().flatten();
        for o in observations.filter(|o| o.get("kind").and_then(Value::as_str) == Some("token-bucket")) {
            r.token_buckets += 1;
            let t = o.get("tokens").and_then(Value::as_f64).unwrap_or(0.0);
            match o.get("bucket").and_then(Value::as_str) {
                Some("input") => r.input = Some(r.input.unwrap_or(0.0) + t),
                Some("output") => r.output = Some(r.output.unwrap_or(0.0) + t),
                _ => {}
            }
        }
        r
    }
}

/// A slot a run expected that holds no attempt: never dispatched (a
/// fail-fast or budget stop), interrupted, or with no member document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlotNotRecorded {
    pub run_id: String,
    pub experiment_id: Option<String>,
    pub eval_id: Option<String>,
    /// 1-based.
    pub attempt_number: Option<u64>,
    /// The member's action (`not-dispatched`, `interrupted`); `None` when
    /// the run wrote no member for the slot.
    pub action: Option<String>,
}
