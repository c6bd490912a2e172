//! The deferred row tables of a report made one ahead of their drawing, on
//! another thread: making a table (reading its rows' events) and laying out
//! the one before it then overlap. Tables come in the order the blocks
//! hold them, which is the order they are drawn in. A drawn table goes back
//! to the thread that made it to be freed: freeing another thread's many
//! small strings contends for its allocator's lock on every one.

use super::layout::TurnRowsFn;
use crate::analysis::parallel::threads_for;
use crate::view::blocks::{Block, Table, TurnRows};
use std::cell::Cell;
use std::sync::mpsc::{channel, sync_channel};

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
    if wanted.len() < 2 || threads_for(2) < 2 {
        return draw(&|rows, lend| lend(&make(rows)));
    }
    std::thread::scope(|s| {
        // One table waits while the next is made: two parts in memory at most.
        let (tx, rx) = sync_channel::<Table>(1);
        let (drawn_tx, drawn_rx) = channel::<Table>();
        s.spawn(move || {
            for rows in wanted {
                drawn_rx.try_iter().for_each(drop);
                if tx.send(make(rows)).is_err() {
                    return; // the drawing ended early (a closed output)
                }
            }
            drop(tx);
            // Free the rest as they are drawn, until the drawing ends.
            drawn_rx.iter().for_each(drop);
        });
        let next = Cell::new(0usize);
        let tables = move |rows: &TurnRows, lend: &mut dyn FnMut(&Table)| {
            let i = next.get();
            if wanted.get(i).is_some_and(|w| std::ptr::eq(*w, rows)) {
                next.set(i + 1);
                if let Ok(table) = rx.recv() {
                    lend(&table);
                    // The maker may have ended early; then the table is freed here.
                    let _ = drawn_tx.send(table);
                    return;
                }
            }
            lend(&make(rows))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::blocks::Section;
    use crate::view::text::Text;

    fn part(rows: std::ops::Range<usize>) -> Block {
        Block::TurnRows(TurnRows { attempt: 0, rows, first: true, last: true, floor: Vec::new() })
    }

    /// A table saying which rows it was made for.
    fn make(rows: &TurnRows) -> Table {
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
