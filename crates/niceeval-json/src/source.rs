//! The bytes raw JSON is read from: a mapped file or a buffer.

use std::sync::Arc;

/// The bytes raw events are read from (a mapped file or a buffer). One
/// pointer wide: every raw event and payload holds one.
#[derive(Clone)]
pub struct Source(Arc<Box<dyn Bytes>>);

/// What a [`Source`] reads from.
pub trait Bytes: Send + Sync {
    fn bytes(&self) -> &[u8];
    /// Whoever has read `start..end` will not need it again soon: a mapped
    /// file may drop those pages from memory (they are read again from the
    /// file when asked for). Nothing to do for bytes in memory.
    fn release(&self, _start: usize, _end: usize) {}
}

impl Source {
    pub fn new(bytes: impl Bytes + 'static) -> Source {
        Source(Arc::new(Box::new(bytes)))
    }

    /// The bytes behind `shared`, which the source keeps alive.
    pub fn shared<T: AsRef<[u8]> + Send + Sync + 'static>(shared: Arc<T>) -> Source {
        Source::new(Shared(shared))
    }

    pub fn bytes(&self) -> &[u8] {
        self.0.bytes()
    }

    pub fn release(&self, start: usize, end: usize) {
        self.0.release(start, end)
    }

    /// Whether both read the same bytes (one file's mapping).
    pub fn same(&self, other: &Source) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

struct Shared<T>(Arc<T>);

impl<T: AsRef<[u8]> + Send + Sync> Bytes for Shared<T> {
    fn bytes(&self) -> &[u8] {
        (*self.0).as_ref()
    }
}
