//! The core's threads: work over independent items on every core, results
//! in the items' order (measuring the parts of a long timeline; making the
//! tables ahead of their drawing; digesting the outputs of a long turn for
//! the lint; parsing a large file's pieces and lines), and two pieces of
//! work side by side. Every other module of the core is sequential.

use crate::model::spread::Spread;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The cores this process may use, at most `most`.
pub fn cores(most: usize) -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(most)
}

/// How many threads to use for work of `items` independent pieces.
pub fn threads_for(items: usize) -> usize {
    cores(8).min(items).max(1)
}

/// The model's and the view's [`Spread`]: their pieces on every core.
pub const SPREAD: Spread = Spread(spread);

fn spread(count: usize, work: &(dyn Fn(usize) + Sync)) {
    let indices: Vec<usize> = (0..count).collect();
    parallel_map(&indices, |&k| work(k));
}

/// `here` on this thread and `there` on another, side by side; a panic of
/// either is raised here.
pub fn both<A: Send, B: Send>(here: impl FnOnce() -> A + Send, there: impl FnOnce() -> B + Send) -> (A, B) {
    std::thread::scope(|s| {
        let other = s.spawn(there);
        let a = here();
        (a, other.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    })
}

/// `main` on this thread while `helpers` threads run `helper`; also the
/// number of helpers that panicked (the caller decides what that costs).
pub fn alongside<M>(helpers: usize, helper: impl Fn() + Sync, main: impl FnOnce() -> M) -> (M, usize) {
    std::thread::scope(|s| {
        let started: Vec<_> = (0..helpers).map(|_| s.spawn(&helper)).collect();
        let done = main();
        let panicked = started.into_iter().filter_map(|h| h.join().err()).count();
        (done, panicked)
    })
}

/// `f` of every item, each on a thread of its own; `None` where that thread
/// panicked (the caller may do the item again, or give up).
pub fn each_on_its_own_thread<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    let f = &f;
    std::thread::scope(|s| {
        let started: Vec<_> = items.iter().map(|item| s.spawn(move || f(item))).collect();
        started.into_iter().map(|h| h.join().ok()).collect()
    })
}

/// `f(k)` for every `k` in `0..count`, handed out one at a time to `threads`
/// threads; `None` for the items of a thread that panicked.
pub fn map_settled<R: Send>(threads: usize, count: usize, f: impl Fn(usize) -> R + Sync) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let (f, next) = (&f, &next);
    let done: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let started: Vec<_> = (0..threads.min(count))
            .map(|_| {
                s.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= count {
                            return mine;
                        }
                        mine.push((k, f(k)));
                    }
                })
            })
            .collect();
        started.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    let mut out: Vec<Option<R>> = (0..count).map(|_| None).collect();
    for (k, r) in done.into_iter().flatten() {
        out[k] = Some(r);
    }
    out
}

/// `0..len` in consecutive stretches of at most `each` (none when `len` is 0).
pub fn stretches(len: usize, each: usize) -> Vec<std::ops::Range<usize>> {
    (0..len).step_by(each.max(1)).map(|from| from..(from + each.max(1)).min(len)).collect()
}

/// `f` of every item, in order; items are handed out one at a time, so a
/// slow item does not hold back the others' thread.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads_for(items.len());
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { return done };
            done.push((i, f(item)));
        }
    };
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut done = work();
        for h in helpers {
            // A helper that panicked re-raises here: the same as doing its items on this thread.
            done.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        done
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Hand back to the system the heap pages that work on other threads
/// freed. Threads allocate in their own allocator arenas, where glibc
/// keeps freed pages resident and the main thread never reuses them: after
/// a large load (the parsing threads' batches: about 32 MB after a
/// million-event file; trimmed, the viewer's peak on that file fell from
/// 212,000 to 190,000 KiB, BENCHMARKS.md) and after the lint's findings
/// are merged (each turn's list was made on the thread that linted it).
/// Elsewhere a no-op.
pub fn return_freed_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_the_items_order() {
        let items: Vec<u64> = (0..1000).collect();
        let squares = parallel_map(&items, |n| {
            if n % 7 == 0 {
                std::thread::yield_now();
            }
            n * n
        });
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
        assert!(parallel_map(&[] as &[u64], |n| *n).is_empty());
        assert_eq!(parallel_map(&[3u64], |n| n + 1), vec![4]);
        assert_eq!(stretches(5, 2), vec![0..2, 2..4, 4..5]);
        assert_eq!(stretches(4, 2), vec![0..2, 2..4]);
        assert!(stretches(0, 2).is_empty());
    }

    #[test]
    fn a_panicked_thread_leaves_its_items_missing_and_no_more() {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let settled = map_settled(3, 50, |k| if k == 7 { panic!("item 7") } else { k * 2 });
        let each = each_on_its_own_thread(&[1u32, 2, 3], |n| if *n == 2 { panic!("two") } else { n + 10 });
        let (main, panicked) = alongside(2, || panic!("helper"), || 5);
        std::panic::set_hook(quiet);
        // The thread that took item 7 loses what it had done; the others' items are all there and right.
        assert_eq!((settled.len(), settled[7]), (50, None));
        assert!(settled.iter().enumerate().all(|(k, r)| r.is_none_or(|r| r == k * 2)));
        assert_eq!(each, vec![Some(11), None, Some(13)]);
        assert_eq!((main, panicked), (5, 2));
        assert_eq!(both(|| 1, || "b"), (1, "b"));
        assert_eq!(map_settled(4, 10, |k| k), (0..10).map(Some).collect::<Vec<_>>());
    }
}
