//! Work over independent items on every core, results in the items' order
//! (measuring the parts of a long timeline; making the tables ahead of
//! their drawing; digesting the outputs of a long turn for the lint).

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many threads to use for work of `items` independent pieces.
pub fn threads_for(items: usize) -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(8).min(items).max(1)
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
}
