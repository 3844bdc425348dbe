//! The run-time support of the dynamic items `layout!` emits for layouts with symbols
//! (`pub Mat = (M,N):(1,LD);` and `Mat::new(m, n, ld)`): the checks of the constructors, and
//! [`Numbers`](support::Numbers), the type with private fields their numbers live in.

use crate::{DynamicError, Layout};

/// The run-time support of generated constructors. Not a public API.
#[doc(hidden)]
pub mod support {
    use super::*;
    use crate::IntTuple;
    use std::marker::PhantomData;

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

    /// The value of a sum `Σ c·Π v` (the terms' coefficients and symbol values), `None` on
    /// overflow.
    #[inline]
    pub fn sum(terms: &[(i128, &[usize])]) -> Option<i128> {
        let mut acc: i128 = 0;
        for &(c, vs) in terms {
            let mut t = c;
            for &v in vs {
                t = t.checked_mul(i128::try_from(v).ok()?)?;
            }
            acc = acc.checked_add(t)?;
        }
        Some(acc)
    }

    /// A monomial whose factors include sums: [`mono`] times the sums `up` over the sums
    /// `down`, as a fraction `(num, den)` with `den > 0`; `None` on overflow, when a sum is
    /// `None` or when a sum it divides by is 0.
    #[inline]
    pub fn mono_sums(
        num: i128,
        den: i128,
        up: &[usize],
        down: &[usize],
        sums_up: &[Option<i128>],
        sums_down: &[Option<i128>],
    ) -> Option<(i128, i128)> {
        let (mut n, mut d) = mono(num, den, up, down)?;
        for s in sums_up {
            n = n.checked_mul((*s)?)?;
        }
        for s in sums_down {
            d = d.checked_mul((*s)?)?;
        }
        if d == 0 {
            return None;
        }
        if d < 0 { Some((n.checked_neg()?, d.checked_neg()?)) } else { Some((n, d)) }
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
    /// modes, if every offset and the size fit in `isize` (a mode of extent 1 adds nothing,
    /// whatever its stride).
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
        isize::try_from(size).ok()?;
        Some((0isize.checked_sub_unsigned(lo)?, isize::try_from(hi).ok()?, size))
    }

    /// The numbers of a dynamic item `L`: its symbols and derived values (in the order the
    /// item's index functions read them), its size and the smallest and largest offsets of
    /// its domain. The fields are private and only [`Numbers::new_unchecked`] makes one, so
    /// an item's numbers are always the ones its `new` checked (or a copy of another value
    /// of the same item).
    pub struct Numbers<L, const N: usize> {
        values: [usize; N],
        size: usize,
        min_offset: isize,
        max_offset: isize,
        item: PhantomData<fn() -> L>,
    }

    impl<L, const N: usize> Numbers<L, N> {
        /// The numbers of an item.
        ///
        /// # Safety
        ///
        /// `size`, `min_offset` and `max_offset` are those of `L`'s index functions over
        /// `values`: every offset `L` computes from `values` for an index below `size` lies
        /// in `min_offset..=max_offset`, and `min_offset <= 0`.
        #[inline]
        pub const unsafe fn new_unchecked(
            values: [usize; N],
            size: usize,
            min_offset: isize,
            max_offset: isize,
        ) -> Self {
            Numbers { values, size, min_offset, max_offset, item: PhantomData }
        }

        /// Value `k` (a symbol or a derived value).
        #[inline(always)]
        pub const fn get(&self, k: usize) -> usize {
            self.values[k]
        }

        /// The size.
        #[inline(always)]
        pub const fn size(&self) -> usize {
            self.size
        }

        /// The smallest offset of the domain.
        #[inline(always)]
        pub const fn min_offset(&self) -> isize {
            self.min_offset
        }

        /// The largest offset of the domain.
        #[inline(always)]
        pub const fn max_offset(&self) -> isize {
            self.max_offset
        }
    }

    impl<L, const N: usize> Clone for Numbers<L, N> {
        #[inline]
        fn clone(&self) -> Self {
            *self
        }
    }

    impl<L, const N: usize> Copy for Numbers<L, N> {}

    impl<L, const N: usize> PartialEq for Numbers<L, N> {
        #[inline]
        fn eq(&self, other: &Self) -> bool {
            self.values == other.values
        }
    }

    impl<L, const N: usize> Eq for Numbers<L, N> {}

    impl<L, const N: usize> std::hash::Hash for Numbers<L, N> {
        fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
            self.values.hash(h)
        }
    }

    impl<L, const N: usize> std::fmt::Debug for Numbers<L, N> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_list().entries(self.values).finish()
        }
    }

    /// Whether the leaves `(extent, |stride|, negative)` are injective (see
    /// `TrustedLayout::is_injective`).
    pub fn injective(leaves: &[(usize, usize, bool)]) -> bool {
        let modes: Vec<(usize, isize)> = leaves
            .iter()
            .map(|&(e, d, neg)| {
                let d = isize::try_from(d).unwrap_or(isize::MAX);
                (e, if neg { -d } else { d })
            })
            .collect();
        crate::layout_fn::modes_injective(&modes)
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

    /// The layout-core layout of a dynamic layout with the numbers in: the shape of the
    /// symbolic `notation` with its leaves `(extent, |stride|, negative)` in order (a leaf of
    /// extent 1 whose stride does not fit in `i64` gets stride 0, which is the same function;
    /// the constructor checked that the other numbers fit).
    pub fn to_layout(notation: &str, leaves: &[(usize, usize, bool)]) -> Layout {
        let shape = layout_core::evaluate_dynamic(notation).map(|l| l.shape.clone());
        let leaf = |k: usize| -> Option<(i64, i64)> {
            let &(e, d, neg) = leaves.get(k)?;
            let d = match i64::try_from(d) {
                Ok(d) => d,
                Err(_) if e <= 1 => 0,
                Err(_) => return None,
            };
            Some((i64::try_from(e).ok()?, if neg { -d } else { d }))
        };
        fn build(
            t: &layout_core::dynamic::SymTuple,
            next: &mut usize,
            leaf: &dyn Fn(usize) -> Option<(i64, i64)>,
        ) -> Option<(IntTuple, IntTuple)> {
            match t {
                layout_core::dynamic::SymTuple::Leaf(_) => {
                    let (e, d) = leaf(*next)?;
                    *next += 1;
                    Some((IntTuple::Int(e), IntTuple::Int(d)))
                }
                layout_core::dynamic::SymTuple::Tuple(c) => {
                    let (s, d): (Vec<_>, Vec<_>) =
                        c.iter().map(|c| build(c, next, leaf)).collect::<Option<Vec<_>>>()?.into_iter().unzip();
                    Some((IntTuple::Tuple(s), IntTuple::Tuple(d)))
                }
            }
        }
        shape
            .ok()
            .and_then(|s| build(&s, &mut 0, &leaf))
            .and_then(|(s, d)| Layout::new(s, d).ok())
            .unwrap_or_else(|| Layout::scalar(1, 0).expect("`1:0` is a layout"))
    }
}
