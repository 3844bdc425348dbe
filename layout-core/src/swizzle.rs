//! Swizzles and swizzled layouts (CuTe's `Swizzle<B,M,S>` and `ComposedLayout`).
//!
//! `Sw<B,M,S>` XORs the B bits starting at bit `M + max(0,S)` (the "yyy" mask) into the B bits
//! S places lower (the "zzz" mask; a negative S moves them up): `x ^ ((x & yyy) >> S)`. It is
//! an involution. A swizzled layout `Sw o off o L` is the function `c ↦ Sw(off + L(c))`:
//! L fixes the domain (shape, size, slicing) and the swizzle acts on the offsets, which is how
//! CUTLASS lays out shared memory without bank conflicts. CuTe prints it `Sw<3,4,3> o _0 o
//! (8,64):(64,1)`; the canonical form here drops a zero offset: `Sw<3,4,3> o (8,64):(64,1)`.

use std::fmt;

use crate::checked;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::inverse::{left_inverse, right_inverse};
use crate::layout::Layout;
use crate::operation::Operation;
use crate::semimodule::is_pow2;
use crate::slice::{SliceCoord, slice};
use crate::tiler::Tiler;

/// CuTe's `Swizzle<B,M,S>`: `x ↦ x ^ ((x & yyy_msk) >> S)` with
/// `yyy_msk = ((1 << B) - 1) << (M + max(0,S))` (a negative S shifts left).
///
/// ```
/// use layout_core::Swizzle;
///
/// let sw = Swizzle::new(3, 4, 3)?;                 // bits 7-9 XORed into bits 4-6
/// assert_eq!(sw.to_string(), "Sw<3,4,3>");
/// assert_eq!(sw.apply(128), 128 ^ 16);
/// assert_eq!(sw.apply(sw.apply(300)), 300);        // an involution
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: u32,
    base: u32,
    shift: i32,
}

impl Swizzle {
    /// `Sw<B,M,S>`. Requires B ≥ 0, M ≥ 0 and |S| ≥ B (CuTe's static assertions: the two
    /// masks must not overlap), and B + M + |S| ≤ 62 so that the masks fit in 63 bits.
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let err = |reason| LayoutError::SwizzleParams { bits, base, shift, reason };
        if bits < 0 {
            return Err(err("the number of bits B must be non-negative"));
        }
        if base < 0 {
            return Err(err("the base M must be non-negative"));
        }
        if shift.unsigned_abs() < bits.unsigned_abs() {
            return Err(err("the shift |S| must be at least the number of bits B, or the masks overlap"));
        }
        let width = bits.checked_add(base).and_then(|w| w.checked_add(shift.checked_abs()?));
        if width.is_none_or(|w| w > 62) {
            return Err(err("B + M + |S| must be at most 62 for the masks to fit in 63 bits"));
        }
        let narrow = |v: i64| u32::try_from(v.unsigned_abs()).unwrap_or(u32::MAX);
        Ok(Swizzle { bits: narrow(bits), base: narrow(base), shift: i32::try_from(shift).unwrap_or(0) })
    }

    /// The identity swizzle `Sw<0,0,0>`.
    pub fn identity() -> Swizzle {
        Swizzle { bits: 0, base: 0, shift: 0 }
    }

    /// B, the number of bits XORed.
    pub fn bits(&self) -> i64 {
        i64::from(self.bits)
    }

    /// M, the number of low bits left alone.
    pub fn base(&self) -> i64 {
        i64::from(self.base)
    }

    /// S, the distance from the yyy bits to the zzz bits (positive: zzz below yyy).
    pub fn shift(&self) -> i64 {
        i64::from(self.shift)
    }

    /// Whether this swizzle is the identity (B = 0).
    pub fn is_identity(&self) -> bool {
        self.bits == 0
    }

    /// The bits read: `((1 << B) - 1) << (M + max(0,S))`.
    pub fn yyy_mask(&self) -> i64 {
        self.low_mask() << (self.base + self.shift.max(0).unsigned_abs())
    }

    /// The bits flipped: `((1 << B) - 1) << (M - min(0,S))`.
    pub fn zzz_mask(&self) -> i64 {
        self.low_mask() << (self.base + self.shift.min(0).unsigned_abs())
    }

    fn low_mask(&self) -> i64 {
        (1i64 << self.bits) - 1
    }

    /// `Sw(x) = x ^ shiftr(x & yyy_msk, S)`. Defined on every integer (two's complement);
    /// an involution: `Sw(Sw(x)) = x`.
    pub fn apply(&self, x: i64) -> i64 {
        let y = x & self.yyy_mask();
        let moved = if self.shift >= 0 { y >> self.shift } else { y << self.shift.unsigned_abs() };
        x ^ moved
    }

    /// `2^(B+M+|S|)`: the swizzle permutes every aligned block of this many integers (CuTe's
    /// `size` and `cosize` of a swizzle).
    pub fn size(&self) -> i64 {
        1i64 << (self.bits + self.base + self.shift.unsigned_abs())
    }

    /// The pairs `(yyy bit, zzz bit)` the swizzle couples, low to high.
    fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let y0 = self.base + self.shift.max(0).unsigned_abs();
        let z0 = self.base + self.shift.min(0).unsigned_abs();
        (0..self.bits).map(move |i| (y0 + i, z0 + i))
    }
}

impl fmt::Display for Swizzle {
    /// `Sw<B,M,S>`, as CuTe C++ prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// A swizzled layout `Sw o off o L` (CuTe's `ComposedLayout<Swizzle, Offset, Layout>`): the
/// function `c ↦ Sw(off + L(c))`. L fixes the domain; most operations act on L and keep the
/// swizzle and the offset outside.
///
/// ```
/// use layout_core::{Swizzle, SwizzledLayout, parse_layout};
///
/// let smem = SwizzledLayout::new(Swizzle::new(3, 4, 3)?, 0, parse_layout("(8,64):(64,1)")?);
/// assert_eq!(smem.to_string(), "Sw<3,4,3> o (8,64):(64,1)");
/// assert_eq!(smem.eval(2)?, 144);                  // row 2: 128, swizzled to 128 ^ 16
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledLayout {
    swizzle: Swizzle,
    offset: i64,
    layout: Layout,
}

impl SwizzledLayout {
    /// `Sw o off o L`.
    pub fn new(swizzle: Swizzle, offset: i64, layout: Layout) -> SwizzledLayout {
        SwizzledLayout { swizzle, offset, layout }
    }

    /// The swizzle `Sw<B,M,S>`.
    pub fn swizzle(&self) -> Swizzle {
        self.swizzle
    }

    /// The offset added between L and the swizzle (`Sw o off o L`).
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The inner layout L.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The same swizzle and offset around another inner layout.
    pub(crate) fn with(&self, layout: Layout) -> SwizzledLayout {
        SwizzledLayout { layout, ..self.clone() }
    }

    /// L's shape: the swizzle does not change the domain.
    pub fn shape(&self) -> &IntTuple {
        self.layout.shape()
    }

    /// `|L|`: the swizzle does not change the domain.
    pub fn size(&self) -> i64 {
        self.layout.size()
    }

    /// The number of top-level modes of L.
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// The nesting depth of L's shape.
    pub fn depth(&self) -> usize {
        self.layout.depth()
    }

    /// `Sw(off + L(i))` at an integer index (past the size, L's last mode is unbounded).
    pub fn eval(&self, i: i64) -> Result<i64> {
        Ok(self.swizzle.apply(checked::add(self.offset, self.layout.eval(i)?)?))
    }

    /// `Sw(off + L(c))` at a coordinate weakly congruent to the shape.
    pub fn eval_coord(&self, crd: &IntTuple) -> Result<i64> {
        Ok(self.swizzle.apply(checked::add(self.offset, self.layout.eval_coord(crd)?)?))
    }

    /// The values at indices `0..|L|`, for at most [`Layout::TABLE_LIMIT`] elements.
    pub fn table(&self) -> Result<Vec<i64>> {
        self.layout.table()?.into_iter().map(|v| Ok(self.swizzle.apply(checked::add(self.offset, v)?))).collect()
    }

    /// The largest value plus one, over the domain (docs/algebra.md §3.1: a layout is its function;
    /// found by enumeration, so at most [`Layout::TABLE_LIMIT`] elements). For the CUTLASS
    /// shared-memory swizzles this is the cosize of L, which is what CuTe C++ returns.
    pub fn cosize(&self) -> Result<i64> {
        let max = self.table()?.into_iter().max().unwrap_or(0);
        checked::add(max, 1)
    }

    /// Mode i: `Sw o off o L_i`.
    pub fn mode(&self, i: usize) -> Result<SwizzledLayout> {
        Ok(self.with(self.layout.mode(i)?))
    }

    /// `Sw o off o flatten(L)`.
    pub fn flatten(&self) -> SwizzledLayout {
        self.with(self.layout.flatten())
    }

    /// Slicing (paper §2.5) at a coordinate with `_`: `Sw o (off + L(c')) o L|_`: the fixed
    /// part's offset folds into the composed offset (the swizzle is not linear, so it cannot
    /// be pulled out as CuTe does for plain layouts). Requires `c` weakly congruent to L's shape.
    pub fn slice(&self, c: &SliceCoord) -> Result<SwizzledLayout> {
        let (sub, off) = slice(&self.layout, c)?;
        Ok(SwizzledLayout { swizzle: self.swizzle, offset: checked::add(self.offset, off)?, layout: sub })
    }

    /// An operation of the algebra applied to L, keeping the swizzle and the offset outside,
    /// as CuTe C++ defines coalesce, composition with a layout or tiler on the right
    /// (`(Sw o off o L) ∘ B = Sw o off o (L ∘ B)`), the divides (logical, zipped, tiled, flat)
    /// and the products (logical, zipped, tiled, flat, blocked, raked) on composed layouts:
    /// `op(Sw o off o L, T) = Sw o off o op(L, T)`. Admissible exactly when `op(L, T)` is.
    pub fn map_inner(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<SwizzledLayout> {
        Ok(self.with(op(&self.layout)?))
    }

    /// Composition with a layout or tiler on the right: `Sw o off o (L ∘ T)` (see
    /// [`composition_tiler`](crate::composition_tiler) for when `L ∘ T` is admissible).
    pub fn compose(&self, t: &Tiler) -> Result<SwizzledLayout> {
        self.map_inner(|l| crate::composition_tiler(l, t))
    }

    /// Composition with a B that produces coordinates: `Sw o off o (L ∘ B)` (see
    /// [`compose_coordinates`](crate::compose_coordinates)).
    pub fn compose_coordinates(&self, b: &crate::CoordinateLayout) -> Result<SwizzledLayout> {
        self.map_inner(|l| crate::compose_coordinates(l, b))
    }

    /// Right inverse (paper §3.4) `(Sw o L)‡ = L‡ ∘ Sw`, since the swizzle is its own inverse:
    /// `Sw(L(L‡(Sw(k)))) = Sw(Sw(k)) = k`. The result is written `Sw' o L‡` with `Sw'` the
    /// swizzle `L‡` carries Sw's bits to (CuTe C++'s `composition(Layout, Swizzle)`), e.g.
    /// `right_inverse(Sw<2,0,2> o (4,(4,3)):(1,(4,16))) = Sw<2,0,2> o 48:1`.
    ///
    /// Requires the offset 0, Sw to map `[0, |L‡|)` onto itself, and `L‡ ∘ Sw = Sw' ∘ L‡` on
    /// `[0, |L‡|)` (checked at every point, so at most [`Layout::TABLE_LIMIT`] of them).
    pub fn right_inverse(&self) -> Result<SwizzledLayout> {
        self.inverse(Operation::RightInverse, right_inverse(&self.layout)?)
    }

    /// Left inverse `(Sw o L)† = L† ∘ Sw = Sw' o L†`: `L†(Sw(Sw(L(k)))) = L†(L(k)) = k`.
    /// Same conditions as [`SwizzledLayout::right_inverse`], on `[0, |L†|)`.
    pub fn left_inverse(&self) -> Result<SwizzledLayout> {
        self.inverse(Operation::LeftInverse, left_inverse(&self.layout)?)
    }

    fn inverse(&self, op: Operation, inv: Layout) -> Result<SwizzledLayout> {
        if self.offset != 0 {
            return Err(LayoutError::SwizzledOffset { op, layout: self.to_string(), offset: self.offset });
        }
        let swizzle = pull_through(self.swizzle, &inv).map_err(|reason| LayoutError::SwizzleNotCommuting {
            op,
            layout: self.to_string(),
            inner: inv.to_string(),
            reason,
        })?;
        Ok(SwizzledLayout { swizzle, offset: 0, layout: inv })
    }
}

/// The swizzle `Sw'` with `L ∘ Sw = Sw' ∘ L` on `[0, |L|)`, where Sw maps `[0, |L|)` onto
/// itself. A coupled pair of bits (y, z) of Sw whose y bit no index below |L| sets does
/// nothing there; the others must go to single bits `L(2^y)`, `L(2^z)` that again form a
/// swizzle. The identity is then checked at every index. `Err` says why not.
pub(crate) fn pull_through(sw: Swizzle, l: &Layout) -> std::result::Result<Swizzle, String> {
    let n = l.size();
    let reachable = |bit: u32| bit < 63 && (1i64 << bit) < n;
    let image = |bit: u32| -> std::result::Result<u32, String> {
        let v = l.eval(1i64 << bit).map_err(|e| e.to_string())?;
        if is_pow2(v) {
            Ok(v.trailing_zeros())
        } else {
            Err(format!("it maps bit {bit} (index {}) to {v}, which is not a single bit", 1i64 << bit))
        }
    };
    let mut moved = Vec::new();
    for (y, z) in sw.pairs() {
        match (reachable(y), reachable(z)) {
            (false, _) => {}
            (true, false) => {
                return Err(format!("the swizzle moves index {} outside [0, {n})", (1i64 << y) | (1i64 << z)));
            }
            (true, true) => moved.push((image(y)?, image(z)?)),
        }
    }
    moved.sort_by_key(|&(_, z)| z);
    let result = match moved.first() {
        None => Swizzle::identity(),
        Some(&(y0, z0)) => {
            let consecutive = moved.iter().enumerate().all(|(i, &(y, z))| {
                let i = u32::try_from(i).unwrap_or(u32::MAX);
                z == z0 + i && y == y0 + i
            });
            if !consecutive {
                return Err("the bits it moves to do not form a swizzle".into());
            }
            // The lower of the two masks starts at M, the other |S| bits higher.
            let bits = i64::try_from(moved.len()).unwrap_or(i64::MAX);
            let shift = i64::from(y0) - i64::from(z0);
            Swizzle::new(bits, i64::from(z0.min(y0)), shift).map_err(|e| e.to_string())?
        }
    };
    if n > Layout::TABLE_LIMIT {
        return Err(LayoutError::TooLarge { size: n, limit: Layout::TABLE_LIMIT }.to_string());
    }
    for x in 0..n {
        let sx = sw.apply(x);
        if sx < 0 || sx >= n {
            return Err(format!("the swizzle moves index {x} to {sx}, outside [0, {n})"));
        }
        let (lhs, rhs) = (l.eval(sx).map_err(|e| e.to_string())?, l.eval(x).map_err(|e| e.to_string())?);
        if lhs != result.apply(rhs) {
            return Err(format!(
                "at index {x}: L(Sw({x})) = {lhs} but {result}(L({x})) = {}; no swizzle commutes with it",
                result.apply(rhs)
            ));
        }
    }
    Ok(result)
}

impl fmt::Display for SwizzledLayout {
    /// `Sw<B,M,S> o L`, or `Sw<B,M,S> o OFF o L` with a non-zero offset (CuTe C++'s form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.offset == 0 {
            write!(f, "{} o {}", self.swizzle, self.layout)
        } else {
            write!(f, "{} o {} o {}", self.swizzle, self.offset, self.layout)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_follow_cute() {
        let sw = Swizzle::new(3, 4, 3).unwrap();
        assert_eq!((sw.yyy_mask(), sw.zzz_mask()), (0b11_1000_0000, 0b111_0000));
        let neg = Swizzle::new(2, 1, -3).unwrap();
        assert_eq!((neg.yyy_mask(), neg.zzz_mask()), (0b110, 0b110000));
        assert_eq!(neg.apply(0b110), 0b110110);
        assert_eq!(sw.size(), 1024);
        assert!(Swizzle::new(3, 4, 2).is_err());
        assert!(Swizzle::new(-1, 4, 2).is_err());
        assert!(Swizzle::new(1, -1, 2).is_err());
        assert!(Swizzle::new(30, 30, 30).is_err());
        assert!(Swizzle::new(0, 0, i64::MIN).is_err());
        assert!(Swizzle::new(0, 5, 0).unwrap().is_identity());
    }
}
