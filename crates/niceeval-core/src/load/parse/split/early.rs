//! Stretches of `events` arrays parsed while the structure scan goes on:
//! the scan hands each megabyte or so of stretches to the parsing threads as
//! soon as it has found them, instead of after it has read the whole text.

use super::super::lazy::LazyLoad;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

/// Stretches of one `events` array that follow each other, given to one
/// thread together (their text is released at once, behind them).
pub(super) struct Batch {
    /// The order of its first stretch among all the stretches of the scan.
    first: usize,
    stretches: Vec<(usize, usize)>,
}

/// The stretches found and not yet parsed, and what was parsed.
#[derive(Default)]
pub(super) struct Early {
    queue: Mutex<Queue>,
    ready: Condvar,
    parsed: Mutex<Vec<(usize, Vec<Value>)>>,
    failed: AtomicBool,
}

#[derive(Default)]
struct Queue {
    batches: VecDeque<Batch>,
    /// The scan has ended: no batch will follow.
    closed: bool,
}

/// The scan's side: the batch being gathered.
#[derive(Default)]
pub(super) struct Gather {
    batch: Vec<(usize, usize)>,
    /// Stretches handed over so far.
    handed: usize,
}

impl Gather {
    /// Note the stretch `start..end`; hand the batch over once it holds
    /// `at_least` bytes or `last` ends its array.
    pub fn stretch(&mut self, early: &Early, (start, end): (usize, usize), last: bool, at_least: usize) {
        self.batch.push((start, end));
        let from = self.batch[0].0;
        if last || end - from >= at_least {
            let stretches = std::mem::take(&mut self.batch);
            let first = self.handed;
            self.handed += stretches.len();
            let mut queue = early.queue.lock().unwrap_or_else(|e| e.into_inner());
            queue.batches.push_back(Batch { first, stretches });
            early.ready.notify_one();
        }
    }
}

/// Closes the queue when dropped, so that a scan that panics cannot leave
/// the parsing threads waiting (and the scope joining them, for ever).
pub(super) struct Closing<'a>(pub &'a Early);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Early {
    /// No batch will follow: the threads finish what is queued and return.
    pub fn close(&self) {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        self.ready.notify_all();
    }

    /// A parsing thread: parse batches as they come, until [`Early::close`].
    pub fn work(&self, bytes: &[u8], load: &LazyLoad, release: &(dyn Fn(usize, usize) + Sync)) {
        while let Some(batch) = self.next_batch() {
            let mut values = Vec::with_capacity(batch.stretches.len());
            for &(start, end) in &batch.stretches {
                match load.elements(&bytes[start..end]).filter(|_| !self.failed.load(Ordering::Relaxed)) {
                    Some(v) => values.push(v),
                    None => {
                        // The caller parses the whole text, which says where.
                        self.failed.store(true, Ordering::Relaxed);
                        return;
                    }
                }
            }
            if let (Some(first), Some(last)) = (batch.stretches.first(), batch.stretches.last()) {
                release(first.0, last.1);
            }
            self.parsed.lock().unwrap_or_else(|e| e.into_inner()).push((batch.first, values));
        }
    }

    fn next_batch(&self) -> Option<Batch> {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(batch) = queue.batches.pop_front() {
                return Some(batch);
            }
            if queue.closed {
                return None;
            }
            queue = self.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Note that a thread did not finish (it panicked): its batch is missing.
    pub fn fail(&self) {
        self.failed.store(true, Ordering::Relaxed);
    }

    /// Every stretch's elements, in the order the scan found them; `None`
    /// when one did not parse or is missing.
    pub fn take_values(&self, stretches: usize) -> Option<Vec<Value>> {
        if self.failed.load(Ordering::Relaxed) {
            return None;
        }
        let mut parsed = std::mem::take(&mut *self.parsed.lock().unwrap_or_else(|e| e.into_inner()));
        parsed.sort_unstable_by_key(|(first, _)| *first);
        let mut all = Vec::with_capacity(stretches);
        for (first, values) in parsed {
            if first != all.len() {
                return None;
            }
            all.extend(values);
        }
        (all.len() == stretches).then_some(all)
    }
}
