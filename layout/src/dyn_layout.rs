//! Layouts with run-time extents: the trait both kinds of generated layouts implement
//! ([`LayoutFn`], methods on values), and the run-time support of the constructors that
//! `layout!` emits for items with symbols (`pub Mat = (M,N):(1,LD);` and `Mat::new(m, n, ld)`).

use crate::{DynamicError, Layout, Offset, StaticLayout};

/// A layout as a value: what static layouts (unit structs, every method a constant
/// function of the type) and dynamic layouts (structs of run-time integers built by `new`)
/// have in common. Generic code over both takes `L: LayoutFn`.
///
/// ```
/// use cute_layout::{LayoutFn, layout};
///
/// layout! {
///     pub Tile = (8,8):(1,8);
///     pub Mat = (M,N):(1,LD);
/// }
///
/// fn offsets<L: LayoutFn<Offset = usize>>(l: &L) -> Vec<usize> {
///     (0..l.size()).map(|i| l.offset(i)).collect()
/// }
/// assert_eq!(offsets(&Tile)[9], 9);
/// let m = Mat::new(4, 3, 10).unwrap();
/// assert_eq!(offsets(&m), [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]);
/// ```
pub trait LayoutFn {
    /// `usize`, or `isize` when some stride is negative.
    type Offset: Offset;
    /// The natural coordinate: nested tuples of `usize` shaped like the layout.
    type Coord: Copy;
    /// `size(L)`.
    fn size(&self) -> usize;
    /// The offset of an index.
    fn offset(&self, index: usize) -> Self::Offset;
    /// The offset of a natural coordinate.
    fn offset_of(&self, coord: Self::Coord) -> Self::Offset;
    /// The natural coordinate of an index.
    fn coord(&self, index: usize) -> Self::Coord;
    /// Visits the offset of every index in order.
    fn for_each_offset<F: FnMut(Self::Offset)>(&self, f: F);
    /// The smallest offset of the domain.
    fn min_offset(&self) -> isize;
    /// The largest offset of the domain.
    fn max_offset(&self) -> isize;
    /// The layout-core layout.
    fn to_layout(&self) -> Layout;
}

impl<L: StaticLayout> LayoutFn for L {
    type Offset = L::Offset;
    type Coord = L::Coord;
    #[inline]
    fn size(&self) -> usize {
        L::SIZE
    }
    #[inline]
    fn offset(&self, index: usize) -> L::Offset {
        <L as crate::GeneratedLayout>::offset(index)
    }
    #[inline]
    fn offset_of(&self, coord: L::Coord) -> L::Offset {
        <L as crate::GeneratedLayout>::offset_of(coord)
    }
    #[inline]
    fn coord(&self, index: usize) -> L::Coord {
        <L as crate::GeneratedLayout>::coord(index)
    }
    #[inline]
    fn for_each_offset<F: FnMut(L::Offset)>(&self, f: F) {
        <L as crate::GeneratedLayout>::for_each_offset(f)
    }
    #[inline]
    fn min_offset(&self) -> isize {
        L::MIN_OFFSET
    }
    #[inline]
    fn max_offset(&self) -> isize {
        L::MAX_OFFSET
    }
    fn to_layout(&self) -> Layout {
        <L as StaticLayout>::to_layout()
    }
}

/// The run-time support of generated constructors. Not a public API.
#[doc(hidden)]
pub mod support {
    use super::*;

    /// A monomial's value as a fraction `(num, den)`, `den > 0`; `None` on overflow.
    #[inline]
    pub fn mono(num: i128, den: i128, up: &[usize], down: &[usize]) -> Option<(i128, i128)> {
        // In 64 bits while the numbers fit (a checked i128 multiplication is a library call).
        if let (Ok(mut n), Ok(mut d)) = (i64::try_from(num), i64::try_from(den)) {
            let fast = up.iter().try_for_each(|&u| {
                n = n.checked_mul(i64::try_from(u).ok()?)?;
                Some(())
            });
            let fast = fast.and_then(|()| {
                down.iter().try_for_each(|&v| {
                    d = d.checked_mul(i64::try_from(v).ok()?)?;
                    Some(())
                })
            });
            if fast.is_some() {
                return Some((i128::from(n), i128::from(d)));
            }
        }
        let mut n = num;
        let mut d = den;
        for &u in up {
            n = n.checked_mul(u as i128)?;
        }
        for &v in down {
            d = d.checked_mul(v as i128)?;
        }
        Some((n, d))
    }

    /// `a % b == 0` (a/b is an integer).
    #[inline]
    pub fn divides(a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> bool {
        let (Some((an, ad)), Some((bn, bd))) = (a, b) else { return false };
        match (an.checked_mul(bd), ad.checked_mul(bn)) {
            (Some(n), Some(d)) => d != 0 && n % d == 0,
            _ => false,
        }
    }

    /// `a >= b`.
    #[inline]
    pub fn ge(a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> bool {
        let (Some((an, ad)), Some((bn, bd))) = (a, b) else { return false };
        matches!((an.checked_mul(bd), bn.checked_mul(ad)), (Some(x), Some(y)) if x >= y)
    }

    /// `a > b`.
    #[inline]
    pub fn gt(a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> bool {
        let (Some((an, ad)), Some((bn, bd))) = (a, b) else { return false };
        matches!((an.checked_mul(bd), bn.checked_mul(ad)), (Some(x), Some(y)) if x > y)
    }

    /// The integer value (the conditions made it one), if it fits.
    #[inline]
    pub fn int(v: Option<(i128, i128)>) -> Option<usize> {
        let (n, d) = v?;
        // Most derived values are products (d = 1): no i128 division (a library call).
        if d == 1 {
            return usize::try_from(n).ok();
        }
        if d == 0 || n % d != 0 {
            return None;
        }
        usize::try_from(n / d).ok()
    }

    /// The smallest and largest offsets and the size, for `(extent, |stride|, negative)`
    /// modes, if every offset fits in `isize` and the size in `usize`.
    #[inline]
    pub fn extremes(modes: &[(usize, usize, bool)]) -> Option<(isize, isize, usize)> {
        // The spans are non-negative and only accumulate, so a sum that leaves usize would
        // leave isize too: usize arithmetic decides the same as exact arithmetic.
        let (mut lo, mut hi, mut size) = (0usize, 0usize, 1usize);
        for &(s, d, neg) in modes {
            size = size.checked_mul(s)?;
            let span = s.checked_sub(1)?.checked_mul(d)?;
            if neg {
                lo = lo.checked_add(span)?;
            } else {
                hi = hi.checked_add(span)?;
            }
        }
        Some((-isize::try_from(lo).ok()?, isize::try_from(hi).ok()?, size))
    }

    fn shown(names: &[&str], values: &[usize]) -> String {
        names.iter().zip(values).map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ")
    }

    #[cold]
    pub fn not_positive(symbol: &'static str) -> DynamicError {
        DynamicError::NotPositive { symbol: symbol.into(), value: 0 }
    }

    #[cold]
    pub fn failed(
        layout: &'static str,
        condition: &'static str,
        why: &'static str,
        names: &[&str],
        values: &[usize],
    ) -> DynamicError {
        DynamicError::Condition {
            layout: layout.into(),
            condition: condition.into(),
            why: why.into(),
            values: shown(names, values),
        }
    }

    #[cold]
    pub fn overflow(layout: &'static str, names: &[&str], values: &[usize]) -> DynamicError {
        DynamicError::Overflow { layout: layout.into(), values: shown(names, values) }
    }

    /// The layout-core layout of a dynamic layout with the numbers in.
    pub fn to_layout(notation: &str, names: &[&str], values: &[usize]) -> Layout {
        let value = |s: &str| names.iter().position(|n| *n == s).map(|k| values[k] as i64);
        layout_core::evaluate_dynamic(notation)
            .ok()
            .and_then(|l| l.substitute(&value).ok())
            .unwrap_or_else(|| Layout::scalar(1, 0).expect("`1:0` is a layout"))
    }
}
