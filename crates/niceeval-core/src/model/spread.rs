//! How independent pieces of work are spread over threads. The model and
//! the view are sequential: they are handed a [`Spread`], which runs every
//! piece on this thread unless its caller (`analysis`, the one place with
//! threads) gives it more.

use std::sync::OnceLock;

/// Runs `work(k)` for every `k` in `0..count`, in any order, on any thread,
/// each once; a panic of a piece is raised to the caller.
#[derive(Clone, Copy)]
pub struct Spread(pub fn(count: usize, work: &(dyn Fn(usize) + Sync)));

impl Spread {
    /// Every piece on this thread, in order.
    pub const SEQUENTIAL: Spread = Spread(|count, work| (0..count).for_each(work));

    /// `f` of every item, in the items' order.
    pub fn map<T: Sync, R: Send + Sync>(self, items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
        let slots: Vec<OnceLock<R>> = items.iter().map(|_| OnceLock::new()).collect();
        (self.0)(items.len(), &|k| {
            let _ = slots[k].set(f(&items[k]));
        });
        slots.into_iter().map(|slot| slot.into_inner().expect("a Spread ran every piece")).collect()
    }
}

impl Default for Spread {
    fn default() -> Self {
        Spread::SEQUENTIAL
    }
}

impl std::fmt::Debug for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spread")
    }
}

#[cfg(test)]
mod tests {
    use super::Spread;

    #[test]
    fn results_come_in_the_items_order_whatever_order_pieces_run_in() {
        let backwards = Spread(|count, work| (0..count).rev().for_each(work));
        let items: Vec<u32> = (0..100).collect();
        for spread in [Spread::SEQUENTIAL, backwards] {
            assert_eq!(spread.map(&items, |n| n * 3), items.iter().map(|n| n * 3).collect::<Vec<_>>());
        }
        assert!(Spread::SEQUENTIAL.map(&[] as &[u32], |n| *n).is_empty());
    }
}
