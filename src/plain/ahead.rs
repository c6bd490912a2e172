//! The deferred row tables of a report made one ahead of their drawing, on
//! another thread: making a table (reading its rows' events) and laying out
//! the one before it then overlap. Tables come in the order the blocks
//! hold them, which is the order they are drawn in.

use crate::view::blocks::{Block, Table, TurnRows};
use crate::view::parallel::threads_for;
use std::cell::Cell;
use std::sync::mpsc::sync_channel;

/// Run `draw` with a maker of `blocks`' row tables that has each one ready
/// before it is asked for. A table asked for out of that order is made
/// where it is asked, so the output never depends on the order.
pub fn with_tables_ahead<R>(
    blocks: &[Block],
    make: &(dyn Fn(&TurnRows) -> Table + Sync),
    draw: impl FnOnce(&dyn Fn(&TurnRows) -> Table) -> R,
) -> R {
    let mut in_order = Vec::new();
    turn_rows_in(blocks, &mut in_order);
    let wanted: &[&TurnRows] = &in_order;
    if wanted.len() < 2 || threads_for(2) < 2 {
        return draw(make);
    }
    std::thread::scope(|s| {
        // One table waits while the next is made: two parts in memory at most.
        let (tx, rx) = sync_channel::<Table>(1);
        s.spawn(move || {
            for rows in wanted {
                if tx.send(make(rows)).is_err() {
                    return; // the drawing ended early (a closed output)
                }
            }
        });
        let next = Cell::new(0usize);
        let tables = move |rows: &TurnRows| {
            let i = next.get();
            if wanted.get(i).is_some_and(|w| std::ptr::eq(*w, rows)) {
                next.set(i + 1);
                if let Ok(table) = rx.recv() {
                    return table;
                }
            }
            make(rows)
        };
        let result = draw(&tables);
        // Dropping the receiver ends the maker at its next table.
        drop(tables);
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
