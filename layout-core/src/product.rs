//! Products (paper §3.5.1): `A ⊗ B = (A, A* ∘ B)`, every element of B replaced by a shifted
//! copy of A; and CuTe C++'s zipped / tiled / flat / blocked / raked arrangements.

use crate::checked;
use std::collections::HashMap;

use crate::complement::{complement_for_product, complement_weak_at};
use crate::composition::composition;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::operation::Operation;
use crate::tiler::{Tiler, apply_by_mode};
use crate::trace;
use crate::unzip::{flat_unpack, hier_unzip, tiled_unpack};

/// `logical_product(A, B) = (A, complement(A, |A|·cosize(B)) ∘ B)`: mode 0 is A, mode 1 is
/// compatible with B. Requires A's complement to exist (A's modes do not overlap) and the
/// composition with B to be admissible. A weak complement (docs/algebra.md §3.9) is accepted
/// when the copies of A, one per value of B, are pairwise disjoint: always when B's image
/// stays inside the complement's domain (the paper's H2,
/// `(4,8):(20,2) ⊗ (3,2):(2,1) = ((4,8),(3,2)):((20,2),(80,1))`); otherwise checked, and a
/// collision is an error that names it (`(3,2):(6,2) ⊗ 2:2`: the second copy would start at
/// offset 2, inside the first).
///
/// ```
/// use layout_core::{logical_product, parse_layout};
/// // Three copies of the 2x2 block A, one after the other.
/// let r = logical_product(&parse_layout("(2,2):(1,2)")?, &parse_layout("3:1")?)?;
/// assert_eq!(r.to_string(), "((2,2),3):((1,2),4)");
/// // Copies that would collide are an error naming the collision.
/// assert!(logical_product(&parse_layout("(3,2):(6,2)")?, &parse_layout("2:2")?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn logical_product(a: &Layout, b: &Layout) -> Result<Layout> {
    trace::operation(Operation::LogicalProduct, &[("A", a), ("B", b)], || {
        b.require_non_negative(Operation::LogicalProduct, true)?;
        let cotarget = checked::mul(a.size(), b.cosize()?)?;
        trace::note(|| format!("A* = complement(A, |A|·cosize(B) = {cotarget}); A ⊗ B = (A, A* ∘ B)"));
        let c = complement_for_product(a, cotarget)?;
        let copies = composition(&c, b)?;
        if let Some((stride, extent)) = complement_weak_at(a)
            && b.cosize()? > c.size()
        {
            trace::note(|| {
                format!("A* is weak and B's image leaves its {} elements: the copies of A must be disjoint", c.size())
            });
            check_disjoint_copies(a, b, &c, &copies, stride, extent)?;
        }
        Layout::concat([a.clone(), copies])
    })
}

/// The most offsets a weak product's disjointness check visits.
pub const DISJOINT_CHECK_LIMIT: i64 = 1 << 18;

/// The copies `A + copies(j)`, one per distinct value `B(j)`, are pairwise disjoint: two
/// values of B that share an origin are a collision too.
fn check_disjoint_copies(a: &Layout, b: &Layout, c: &Layout, copies: &Layout, stride: i64, extent: i64) -> Result<()> {
    let why = format!(
        "A's complement `{c}` is weak (A's stride {stride} is not a multiple of the extent {extent} below it) and B's \
         image leaves its domain"
    );
    let err = |detail: String| LayoutError::ProductCopiesOverlap { lhs: a.to_string(), rhs: b.to_string(), detail };
    let work = a.size().saturating_mul(copies.size());
    if work > DISJOINT_CHECK_LIMIT {
        return Err(err(format!(
            "{why}, and checking that the copies of A are disjoint would visit {work} offsets (at most \
             {DISJOINT_CHECK_LIMIT})"
        )));
    }
    let offsets = a.table()?;
    let mut seen: HashMap<i64, (i64, i64)> = HashMap::new();
    let mut values: HashMap<i64, i64> = HashMap::new();
    for j in 0..copies.size() {
        let origin = copies.eval(j)?;
        if values.insert(b.eval(j)?, j).is_some() {
            continue; // the same copy again (B is not injective), as with an exact complement
        }
        for (i, &o) in offsets.iter().enumerate() {
            let at = checked::add(o, origin)?;
            if let Some(&(k, ik)) = seen.get(&at)
                && k != j
            {
                return Err(err(format!(
                    "{why}: the copy for B's index {j} starts at offset {origin}, and its element {i} lands on \
                     offset {at}, already taken by element {ik} of the copy for index {k}"
                )));
            }
            seen.insert(at, (j, i as i64));
        }
    }
    Ok(())
}

/// `logical_product(A, T)` for any tiler: by mode for `[T0, T1, …]`; `_` keeps a mode as it
/// is (the block, repeated once), as CuTe C++ does.
pub fn logical_product_tiler(a: &Layout, t: &Tiler) -> Result<Layout> {
    apply_by_mode(Operation::LogicalProduct, a, t, &logical_product)
}

/// `zipped_product(A, T)`: `((blocks…), (grids…, untiled modes…))`. A `_` entry keeps the
/// mode whole as its block with a grid of 1, as in [`crate::zipped_divide`]:
/// `zipped_product((4,3):(1,4), [2:1,_]) = ((4,3),(2,1)):((1,4),(4,0))`.
///
/// ```
/// use layout_core::{parse_layout, parse_tiler, zipped_product};
/// let r = zipped_product(&parse_layout("(2,2):(1,2)")?, &parse_tiler("[3:1,4:1]")?)?;
/// assert_eq!(r.to_string(), "((2,2),(3,(2,2))):((1,2),(2,(1,4)))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn zipped_product(a: &Layout, t: &Tiler) -> Result<Layout> {
    trace::with_tiler(Operation::ZippedProduct, a, t, || hier_unzip(a, t, &logical_product))
}

/// `tiled_product(A, T)`: `((blocks…), grid_0, grid_1, …)` (`_` as in [`zipped_product`]).
pub fn tiled_product(a: &Layout, t: &Tiler) -> Result<Layout> {
    trace::with_tiler(Operation::TiledProduct, a, t, || tiled_unpack(&zipped_product(a, t)?))
}

/// `flat_product(A, T)`: both modes of the zipped product unpacked (`_` as in
/// [`zipped_product`]).
pub fn flat_product(a: &Layout, t: &Tiler) -> Result<Layout> {
    trace::with_tiler(Operation::FlatProduct, a, t, || flat_unpack(&zipped_product(a, t)?))
}

/// `blocked_product(A, B)`: A and B padded with `1:0` to the same rank r, then mode i is
/// `(A_i, grid_i)` of their logical product: whole blocks of A, laid out by B.
///
/// ```
/// use layout_core::{blocked_product, parse_layout};
/// // A 3x4 grid of 2x2 blocks: a 6x8 layout whose blocks are contiguous.
/// let r = blocked_product(&parse_layout("(2,2):(1,2)")?, &parse_layout("(3,4)")?)?;
/// assert_eq!(r.to_string(), "((2,3),(2,4)):((1,4),(2,12))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    trace::operation(Operation::BlockedProduct, &[("A", a), ("B", b)], || zip_product(a, b, false))
}

/// `raked_product(A, B)`: as [`blocked_product`] with each mode `(grid_i, A_i)`: the copies
/// of A interleave.
///
/// ```
/// use layout_core::{parse_layout, raked_product};
/// let r = raked_product(&parse_layout("(2,2):(1,2)")?, &parse_layout("(3,4)")?)?;
/// assert_eq!(r.to_string(), "((3,2),(4,2)):((4,1),(12,2))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    trace::operation(Operation::RakedProduct, &[("A", a), ("B", b)], || zip_product(a, b, true))
}

fn zip_product(a: &Layout, b: &Layout, raked: bool) -> Result<Layout> {
    let r = a.rank().max(b.rank());
    let (ap, bp) = (pad(a, r)?, pad(b, r)?);
    trace::note(|| format!("both padded with 1:0 modes to rank {r}: {ap} and {bp}; mode i pairs A_i with its grid"));
    let p = logical_product(&ap, &bp)?;
    let (blocks, grids) = (p.mode(0)?, p.mode(1)?);
    // CuTe's zip, pairing by the operands' structure: a scalar operand is one mode (whatever
    // shape its part of the product took), a tuple operand pairs mode by mode.
    let parts = |part: Layout, operand: &Layout| if operand.shape().is_int() { vec![part] } else { part.modes() };
    let (blocks, grids) = (parts(blocks, &ap), parts(grids, &bp));
    let pairs = blocks.into_iter().zip(grids).map(|(x, g)| Layout::concat(if raked { [g, x] } else { [x, g] }));
    Layout::concat(pairs.collect::<Result<Vec<_>>>()?)
}

/// CuTe's `append<r>(L)`: pad with `1:0` modes up to rank r (a scalar becomes a tuple when r > 1).
pub(crate) fn pad(l: &Layout, r: usize) -> Result<Layout> {
    if l.rank() >= r {
        return Ok(l.clone());
    }
    let mut modes = l.modes();
    while modes.len() < r {
        modes.push(Layout::scalar(1, 0)?);
    }
    Layout::concat(modes)
}
