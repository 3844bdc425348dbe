//! `layout table`: the values at indices 0..size-1, written as they are computed, so that a
//! table of [`Layout::TABLE_LIMIT`] elements needs no more memory than a small one. Every
//! value is known to fit before the first is written, so the output is the whole line or
//! nothing (a `--batch` line is a table or an `error: …`).

use std::io::{self, Write};

use layout_core::notation::evaluate;
use layout_core::{AnyLayout, Layout, LayoutError};
use thiserror::Error;

use crate::{any_layout_of, describe, reject_kernel};

/// Why a table was not written.
#[derive(Debug, Error)]
pub enum TableError {
    /// The expression is rejected (or is not a layout, or is too large to enumerate).
    #[error("{0}")]
    Rejected(String),
    /// The output could not be written.
    #[error("cannot write the table: {0}")]
    Io(#[from] io::Error),
}

/// Writes the values of `text` at indices 0..size-1, space-separated, and a newline
/// (offsets, or coordinates for a coordinate layout).
pub fn write_table(text: &str, out: &mut dyn Write) -> Result<(), TableError> {
    reject_kernel(text).map_err(TableError::Rejected)?;
    let value = evaluate(text).map_err(|e| TableError::Rejected(describe(text, &e)))?;
    let layout = any_layout_of(value).map_err(TableError::Rejected)?;
    if layout.size() > Layout::TABLE_LIMIT {
        let e = LayoutError::TooLarge { size: layout.size(), limit: Layout::TABLE_LIMIT };
        return Err(TableError::Rejected(e.to_string()));
    }
    match &layout {
        AnyLayout::Int(l) => int_table(&l.flat_modes(), out),
        other => any_table(other, out),
    }
}

/// An integer layout: its offsets by an odometer over its flat modes (mode 0 fastest), each
/// offset the previous one plus a stride, or minus a mode's span where a mode wraps. Every
/// offset lies between the sum of the negative spans `(s-1)·d` and the sum of the positive
/// ones, so those two sums fitting in an `i64` is all the checking the walk needs.
fn int_table(modes: &[(i64, i64)], out: &mut dyn Write) -> Result<(), TableError> {
    let overflow = |a: i64, op: char, b: i64| TableError::Rejected(LayoutError::Overflow { a, op, b }.to_string());
    let (mut low, mut high) = (0i64, 0i64);
    let mut spans = Vec::with_capacity(modes.len());
    for &(s, d) in modes {
        let span = (s - 1).checked_mul(d).ok_or_else(|| overflow(s - 1, '*', d))?;
        let sum = if span < 0 { &mut low } else { &mut high };
        *sum = sum.checked_add(span).ok_or_else(|| overflow(*sum, '+', span))?;
        spans.push(span);
    }
    let mut coord = vec![0i64; modes.len()];
    let mut offset = 0i64;
    let size: i64 = modes.iter().map(|m| m.0).product();
    write!(out, "0")?;
    for _ in 1..size {
        // Within [low, high] by the bound above; checked all the same.
        let step = |o: i64, by: i64| o.checked_add(by).ok_or_else(|| overflow(o, '+', by));
        for (k, &(s, d)) in modes.iter().enumerate() {
            coord[k] += 1;
            if coord[k] < s {
                offset = step(offset, d)?;
                break;
            }
            coord[k] = 0;
            offset = offset.checked_sub(spans[k]).ok_or_else(|| overflow(offset, '-', spans[k]))?;
        }
        write!(out, " {offset}")?;
    }
    writeln!(out)?;
    Ok(())
}

/// Any other kind (swizzled, F2, composed, coordinate): each value by the layout's function,
/// once to check that every one exists and once to write it.
fn any_table(layout: &AnyLayout, out: &mut dyn Write) -> Result<(), TableError> {
    let value = |i: i64| layout.eval(i).map_err(|e| TableError::Rejected(e.to_string()));
    for i in 0..layout.size() {
        value(i)?;
    }
    for i in 0..layout.size() {
        if i > 0 {
            write!(out, " ")?;
        }
        write!(out, "{}", value(i)?)?;
    }
    writeln!(out)?;
    Ok(())
}
