//! The GEMM plan (paper §4.2, Table 3): one generic GEMM
//! `C(m,n) = α·Σ_k A(m,k)·B(n,k) + β·C(m,n)` over three layouts, A `(M,K)`, B `(N,K)` and
//! C `(M,N)` (with an optional batch mode `L` last in all three). Each of the dimensions M, N,
//! K and L is the common refinement of the modes that carry it (A's and C's mode 0 for M, B's
//! mode 0 and C's mode 1 for N, A's and B's mode 1 for K): a list of joint leaves with one
//! stride per operand. Transposition variants are choices of strides; a tensor contraction
//! folds modes into M, N or K; a convolution is a GEMM over an im2col layout of its input.
//!
//! The kernel takes one leaf of each of M, N and K (the largest); the other leaves are loops
//! around it (K loops accumulate into C after the first step).

use std::fmt;

use crate::copy::injectivity_witness;
use layout_core::Layout;
use layout_core::checked;
use layout_core::coalesce;
use layout_core::{LayoutError, Result};

/// One joint leaf of a dimension: `extent` steps with the stride of each operand (0 for the
/// operand that does not carry the dimension).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmLeaf {
    /// The number of steps.
    pub extent: i64,
    /// A's stride along the leaf.
    pub a: i64,
    /// B's stride along the leaf.
    pub b: i64,
    /// C's stride along the leaf.
    pub c: i64,
}

impl fmt::Display for GemmLeaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:(a {},b {},c {})", self.extent, self.a, self.b, self.c)
    }
}

/// The plan of `gemm(T, A, B, C)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemmPlan {
    /// A, `(M,K)` (and the batch mode last, if any).
    pub a: Layout,
    /// B, `(N,K)`.
    pub b: Layout,
    /// C, `(M,N)`.
    pub c: Layout,
    /// The extent of M.
    pub m: i64,
    /// The extent of N.
    pub n: i64,
    /// The extent of K.
    pub k: i64,
    /// The number of batches (1 without a batch mode).
    pub batch: i64,
    /// The joint leaves of each dimension, in index order.
    pub m_leaves: Vec<GemmLeaf>,
    /// The joint leaves of N.
    pub n_leaves: Vec<GemmLeaf>,
    /// The joint leaves of K.
    pub k_leaves: Vec<GemmLeaf>,
    /// The joint leaves of the batch mode.
    pub batch_leaves: Vec<GemmLeaf>,
}

/// Plans `gemm(A, B, C)`: ranks 2 (or 3 with a batch mode), equal extents of M, N, K (and L)
/// where two operands share them, a common refinement of every shared dimension, and an
/// injective C.
pub fn gemm_plan(a: &Layout, b: &Layout, c: &Layout) -> Result<GemmPlan> {
    let rank = c.rank();
    if !(2..=3).contains(&rank) || a.rank() != rank || b.rank() != rank {
        return Err(LayoutError::GemmRank { a: a.to_string(), b: b.to_string(), c: c.to_string() });
    }
    let mode = |l: &Layout, i: usize| l.mode(i).map(|m| coalesce(&m).flat_modes());
    let dims: [(&'static str, usize, usize, usize); 4] =
        [("M", 0, 3, 0), ("N", 3, 0, 1), ("K", 1, 1, 3), ("L", 2, 2, 2)];
    let mut leaves: Vec<Vec<GemmLeaf>> = Vec::new();
    let mut sizes = Vec::new();
    for &(dim, ia, ib, ic) in dims.iter().take(if rank == 3 { 4 } else { 3 }) {
        let get = |l: &Layout, i: usize| -> Result<Option<Vec<(i64, i64)>>> {
            if i == 3 { Ok(None) } else { mode(l, i).map(Some) }
        };
        let ops = [get(a, ia)?, get(b, ib)?, get(c, ic)?];
        let carried: Vec<(usize, &Vec<(i64, i64)>)> =
            ops.iter().enumerate().filter_map(|(k, o)| o.as_ref().map(|o| (k, o))).collect();
        let size = |m: &Vec<(i64, i64)>| m.iter().map(|&(n, _)| n).product::<i64>();
        let first = carried[0];
        if let Some(&(other, list)) = carried[1..].iter().find(|(_, l)| size(l) != size(first.1)) {
            let name = |k: usize| ["A", "B", "C"][k];
            return Err(LayoutError::GemmExtent {
                dim,
                lhs: name(first.0),
                lhs_size: size(first.1),
                rhs: name(other),
                rhs_size: size(list),
            });
        }
        let lists: Vec<Vec<(i64, i64)>> =
            ops.iter().map(|o| o.clone().unwrap_or_else(|| vec![(size(first.1), 0)])).collect();
        let joint = refine_many(&lists)?.ok_or_else(|| LayoutError::GemmRefinement {
            dim,
            a: a.to_string(),
            b: b.to_string(),
            c: c.to_string(),
        })?;
        sizes.push(size(first.1));
        leaves.push(joint.into_iter().map(|(extent, s)| GemmLeaf { extent, a: s[0], b: s[1], c: s[2] }).collect());
    }
    if let Some((i, j, offset)) = injectivity_witness(c)? {
        return Err(LayoutError::GemmNotInjective { c: c.to_string(), i, j, offset });
    }
    let mut it = leaves.into_iter();
    Ok(GemmPlan {
        a: a.clone(),
        b: b.clone(),
        c: c.clone(),
        m: sizes[0],
        n: sizes[1],
        k: sizes[2],
        batch: sizes.get(3).copied().unwrap_or(1),
        m_leaves: it.next().unwrap_or_default(),
        n_leaves: it.next().unwrap_or_default(),
        k_leaves: it.next().unwrap_or_default(),
        batch_leaves: it.next().unwrap_or_default(),
    })
}

/// A joint leaf: its extent and one stride per list.
type JointLeaf = (i64, Vec<i64>);

/// The common refinement of flat mode lists of equal size: joint leaves `(extent, strides)`
/// in index order (extent-1 leaves dropped), or `None` when a boundary of one list falls
/// inside a mode of another off-step.
fn refine_many(lists: &[Vec<(i64, i64)>]) -> Result<Option<Vec<JointLeaf>>> {
    let mut iters: Vec<_> = lists.iter().map(|l| l.iter().copied().filter(|&(n, _)| n > 1)).collect();
    let mut heads: Vec<Option<(i64, i64)>> = iters.iter_mut().map(Iterator::next).collect();
    let mut out = Vec::new();
    while heads.iter().all(Option::is_some) {
        let cur: Vec<(i64, i64)> = heads.iter().map(|h| h.unwrap_or((1, 0))).collect();
        let step = cur.iter().map(|&(n, _)| n).min().unwrap_or(1);
        if cur.iter().any(|&(n, _)| n % step != 0) {
            return Ok(None);
        }
        out.push((step, cur.iter().map(|&(_, d)| d).collect()));
        for (h, (it, &(n, d))) in heads.iter_mut().zip(iters.iter_mut().zip(&cur)) {
            *h = if n == step { it.next() } else { Some((n / step, checked::mul(d, step)?)) };
        }
    }
    Ok(Some(out))
}

impl GemmPlan {
    /// The leaf of a dimension the kernel takes (the largest; ties to the first) and the
    /// others, which become loops around the kernel.
    pub fn split(leaves: &[GemmLeaf]) -> (GemmLeaf, Vec<GemmLeaf>) {
        let Some(k) = (0..leaves.len()).max_by_key(|&i| (leaves[i].extent, std::cmp::Reverse(i))) else {
            return (GemmLeaf { extent: 1, a: 0, b: 0, c: 0 }, Vec::new());
        };
        let mut rest = leaves.to_vec();
        let kernel = rest.remove(k);
        (kernel, rest)
    }
}

impl fmt::Display for GemmPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |l: &[GemmLeaf]| l.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
        writeln!(f, "A = {} (M,K)", self.a)?;
        writeln!(f, "B = {} (N,K)", self.b)?;
        writeln!(f, "C = {} (M,N)", self.c)?;
        writeln!(f, "M = {}, N = {}, K = {}, batch = {}", self.m, self.n, self.k, self.batch)?;
        for (name, leaves) in
            [("M", &self.m_leaves), ("N", &self.n_leaves), ("K", &self.k_leaves), ("L", &self.batch_leaves)]
        {
            if leaves.is_empty() {
                continue;
            }
            if name == "L" {
                writeln!(f, "L leaves: {}; loops around the kernel", list(leaves))?;
                continue;
            }
            let (kernel, rest) = GemmPlan::split(leaves);
            write!(f, "{name} leaves: {}; kernel takes {kernel}", list(leaves))?;
            if !rest.is_empty() {
                write!(f, ", loops over {}", list(&rest))?;
            }
            writeln!(f)?;
        }
        write!(f, "C is injective")
    }
}
