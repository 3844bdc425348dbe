//! Checked integer arithmetic: overflow is an error, never a wrap-around.

use crate::error::{LayoutError, Result};

/// `a·b`, or [`LayoutError::Overflow`].
pub fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or(LayoutError::Overflow { a, op: '*', b })
}

/// `a+b`, or [`LayoutError::Overflow`].
pub fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).ok_or(LayoutError::Overflow { a, op: '+', b })
}

/// Ceiling division of non-negative `a` by positive `b`.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + i64::from(a % b != 0)
}
