//! A boxed slice behind one thin pointer ([`ThinSlots`]): the inboxes and reset outboxes
//! most wired routers leave empty cost 8 bytes in each instead of 16.

use std::ops::{Deref, DerefMut};

/// A fixed number of slots on the heap, or none without allocating; reads and writes as
/// a slice.
pub(crate) struct ThinSlots<T>(Option<Box<Box<[T]>>>);

impl<T: Clone> ThinSlots<T> {
    /// `n` slots holding `value` (nothing allocated for 0).
    pub fn filled(value: T, n: usize) -> ThinSlots<T> {
        ThinSlots((n > 0).then(|| Box::new(vec![value; n].into_boxed_slice())))
    }
}

impl<T> Deref for ThinSlots<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        self.0.as_deref().map_or(&[], |s| s)
    }
}

impl<T> DerefMut for ThinSlots<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        self.0.as_deref_mut().map_or(&mut [], |s| s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_read_and_write_as_a_slice_and_none_takes_one_pointer() {
        assert_eq!(std::mem::size_of::<ThinSlots<Option<u64>>>(), 8);
        let mut none = ThinSlots::filled(Some(1u64), 0);
        assert!(none.is_empty() && none.iter_mut().next().is_none());
        let mut s = ThinSlots::filled(None, 3);
        s[1] = Some(7u64);
        assert_eq!(&*s, &[None, Some(7), None]);
        assert_eq!(s.iter_mut().filter_map(|x| x.take()).sum::<u64>(), 7);
        assert_eq!(s.len(), 3);
    }
}
