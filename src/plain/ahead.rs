//! The deferred row tables of a report made ahead of their drawing, on
//! other threads, one maker a core: making tables (reading their rows'
//! events) and laying out the one before them then overlap, and the makers
//! share the making. Tables are lent in the order the blocks hold them,
//! which is the order they are drawn in. A drawn table goes back to the
//! thread that made it to be freed: freeing another thread's many small
//! strings contends for its allocator's lock on every one.

use super::layout::TurnRowsFn;
use crate::model::parallel::threads_for;
use crate::view::blocks::{Block, Table, TurnRows};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Condvar, Mutex};

/// How many tables may be made beyond the one being drawn: each maker has
/// one in hand and one waiting, so the drawing never waits on a slow part
/// while the next is ready.
const AHEAD_PER_MAKER: usize = 2;

/// How far the drawing has come, for the makers to keep within reach of it.
struct Progress {
    /// Tables lent so far (`usize::MAX` once the drawing has ended).
    drawn: Mutex<usize>,
    moved: Condvar,
}

impl Progress {
    /// Wait until table `i` may be made; `false` if the drawing has ended.
    fn wait_for_room(&self, i: usize, ahead: usize) -> bool {
        let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
        while *drawn != usize::MAX && i >= *drawn + ahead {
            drawn = self.moved.wait(drawn).unwrap_or_else(|e| e.into_inner());
        }
        *drawn != usize::MAX
    }

    fn set(&self, drawn: usize) {
        *self.drawn.lock().unwrap_or_else(|e| e.into_inner()) = drawn;
        self.moved.notify_all();
    }
}

/// Run `draw` with a lender of `blocks`' row tables that has each one ready
/// before it is asked for. A table asked for out of that order is made
/// where it is asked, so the output never depends on the order.
pub fn with_tables_ahead<R>(
    blocks: &[Block],
    make: &(dyn Fn(&TurnRows) -> Table + Sync),
    draw: impl FnOnce(TurnRowsFn) -> R,
) -> R {
    let mut in_order = Vec::new();
    turn_rows_in(blocks, &mut in_order);
    let wanted: &[&TurnRows] = &in_order;
    let makers = threads_for(wanted.len());
    if wanted.len() < 2 || threads_for(2) < 2 {
        return draw(&|rows, lend| lend(&make(rows)));
    }
    let next = AtomicUsize::new(0);
    let progress = Progress { drawn: Mutex::new(0), moved: Condvar::new() };
    let ahead = AHEAD_PER_MAKER * makers;
    std::thread::scope(|s| {
        let (made_tx, made_rx) = channel::<(usize, usize, Table)>();
        let mut give_back: Vec<Sender<Table>> = Vec::new();
        for maker in 0..makers {
            let (back_tx, back_rx) = channel::<Table>();
            give_back.push(back_tx);
            let (made_tx, next, progress) = (made_tx.clone(), &next, &progress);
            s.spawn(move || {
                loop {
                    back_rx.try_iter().for_each(drop);
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(rows) = wanted.get(i) else { break };
                    if !progress.wait_for_room(i, ahead) || made_tx.send((i, maker, make(rows))).is_err() {
                        break; // the drawing ended early (a closed output)
                    }
                }
                drop(made_tx);
                // Free the rest as they are drawn, until the drawing ends.
                back_rx.iter().for_each(drop);
            });
        }
        drop(made_tx);
        let lent = Cell::new(0usize);
        let waiting = RefCell::new(BTreeMap::<usize, (usize, Table)>::new());
        let tables = |rows: &TurnRows, lend: &mut dyn FnMut(&Table)| {
            let i = lent.get();
            if wanted.get(i).is_some_and(|w| std::ptr::eq(*w, rows)) {
                let early = waiting.borrow_mut().remove(&i);
                let ready = early.or_else(|| {
                    loop {
                        match made_rx.recv() {
                            Ok((j, maker, table)) if j == i => break Some((maker, table)),
                            Ok((j, maker, table)) => drop(waiting.borrow_mut().insert(j, (maker, table))),
                            Err(_) => break None, // every maker has ended
                        }
                    }
                });
                if let Some((maker, table)) = ready {
                    lent.set(i + 1);
                    progress.set(i + 1);
                    lend(&table);
                    // The maker may have ended early; then the table is freed here.
                    let _ = give_back[maker].send(table);
                    return;
                }
            }
            lend(&make(rows))
        };
        let result = draw(&tables);
        // The makers end at their next table; tables made and not drawn go back to them.
        progress.set(usize::MAX);
        for (_, (maker, table)) in std::mem::take(&mut *waiting.borrow_mut()) {
            let _ = give_back[maker].send(table);
        }
        drop(give_back);
        drop(made_rx);
        result
    })
}

/// Every [`Block::TurnRows`] in `blocks`, depth first (the drawing order).
fn turn_rows_in<'b>(blocks: &'b [Block], out: &mut Vec<&'b TurnRows>) {
    for block in blocks {
        match block {
            Block::TurnRows(rows) => out.push(rows),
            Block::Section(s) => turn_rows_in(&s.body, out),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::blocks::Section;
    use crate::view::text::Text;

    fn part(rows: std::ops::Range<usize>) -> Block {
        Block::TurnRows(TurnRows { attempt: 0, rows, first: true, last: true, floor: Vec::new() })
    }

    /// A table saying which rows it was made for; the first is slow to make,
    /// so the next ones are ready before it.
    fn make(rows: &TurnRows) -> Table {
        if rows.rows.start == 0 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Table { columns: Vec::new(), rows: vec![vec![Text::plain(format!("{:?}", rows.rows))]], floor: Vec::new() }
    }

    fn said(table: &Table) -> String {
        table.rows[0][0].as_plain()
    }

    #[test]
    fn each_table_is_the_one_asked_for_in_any_order() {
        let blocks = vec![
            part(0..2),
            Block::Section(Section::new("turn", Text::new(), vec![part(2..5), part(5..9)])),
            part(9..10),
        ];
        let mut order = Vec::new();
        turn_rows_in(&blocks, &mut order);
        let borrow = |tables: TurnRowsFn, rows: &TurnRows| {
            let mut seen = String::new();
            tables(rows, &mut |t| seen = said(t));
            seen
        };
        let in_order: Vec<String> =
            with_tables_ahead(&blocks, &make, |tables| order.iter().map(|r| borrow(tables, r)).collect());
        assert_eq!(in_order, ["0..2", "2..5", "5..9", "9..10"]);
        // Out of order (and one left out): made where asked, still the right one.
        let shuffled: Vec<String> =
            with_tables_ahead(&blocks, &make, |tables| [3, 0, 2].iter().map(|&i| borrow(tables, order[i])).collect());
        assert_eq!(shuffled, ["9..10", "0..2", "5..9"]);
        // Drawing that stops early ends the maker too (the scope returns).
        let first: String = with_tables_ahead(&blocks, &make, |tables| borrow(tables, order[0]));
        assert_eq!(first, "0..2");
    }
}
