//! What the moving keys (j/k, the pages, top and bottom) mean as a distance,
//! for every list that moves by them.

use super::Intent;

/// How many lines a moving key moves, on a list of `page` lines (`None`:
/// the key does not move). Top and Bottom go as far as there is.
pub fn movement(intent: Intent, page: isize) -> Option<isize> {
    Some(match intent {
        Intent::Down => 1,
        Intent::Up => -1,
        Intent::PageDown => page,
        Intent::PageUp => -page,
        Intent::HalfPageDown => (page / 2).max(1),
        Intent::HalfPageUp => -(page / 2).max(1),
        Intent::Top => isize::MIN / 2,
        Intent::Bottom => isize::MAX / 2,
        _ => return None,
    })
}
