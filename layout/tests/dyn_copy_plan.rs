//! Copy items over layouts with symbols whose body the static strides decide at expansion (a
//! transpose, contiguous runs, a static tile with run-time leading dimensions): many random
//! run-time numbers (padded leading dimensions, leading dimensions below the extent, extent-1
//! modes with huge strides) at every SIMD level, against a scalar reference into a poisoned
//! destination; destinations that write one place twice are the planner's error; the hidden
//! entries check whatever numbers they are given against the tensors' slices.

use cute_layout::kernels::{self, Level};
use cute_layout::{PlanError, Tensor, TensorMut, layout};
use std::fmt::Debug;

mod common;
use common::{Rng, at_each_level};

layout! {
    pub Cm = (M,N):(1,LDS);
    pub Rm = (M,N):(LDD,1);
    pub Cd = (M,N):(1,LDD);
    pub fn cm_to_rm = copy(Cm, Rm);
    pub fn rm_to_cm = copy(Rm, Cm);
    pub fn cm_to_cd = copy(Cm, Cd);
    pub T48 = (4,8):(1,LDS);
    pub U48 = (4,8):(LDD,1);
    pub fn tile48 = copy(T48, U48);
    pub T88 = (8,8):(1,LDS);
    pub U88 = (8,8):(LDD,1);
    pub fn tile88 = copy(T88, U88);
    pub T83 = (8,3):(LDS,1);
    pub U83 = (8,3):(1,LDD);
    pub fn tile83 = copy(T83, U83);
}

impl common::Rng {
    /// An extent: often 1, else up to `max`.
    fn extent(&mut self, max: usize) -> usize {
        if self.below(5) == 0 { 1 } else { 1 + self.below(max) }
    }
    /// A leading dimension for a mode of `inner` elements across `outer` steps: padded, now
    /// and then below `inner` (aliasing), huge when `outer` is 1 (never used).
    fn ld(&mut self, inner: usize, outer: usize) -> usize {
        match self.below(8) {
            _ if outer == 1 && self.below(2) == 0 => 1 << 40,
            0 => 1 + self.below(inner),
            1 => inner,
            _ => inner + self.below(9),
        }
    }
    /// A leading dimension of a static tile: as [`Rng::ld`], or large.
    fn tile_ld(&mut self, inner: usize, outer: usize) -> usize {
        if self.below(4) == 0 { 1000 + self.below(3000) } else { self.ld(inner, outer) }
    }
}

/// A copy item's `try_` form over a source and a destination slice.
type Item<'a, T> = dyn FnMut(&[T], &mut [T]) -> Result<(), PlanError> + 'a;

/// The largest offset `offset` takes over an `m × n` index space, plus one.
fn cosize(m: usize, n: usize, offset: &dyn Fn(usize, usize) -> usize) -> usize {
    (0..m).flat_map(|i| (0..n).map(move |j| (i, j))).map(|(i, j)| offset(i, j) + 1).max().unwrap_or(0)
}

/// Copies through `item` (its `try_` form) over `m × n` with the offset functions, into a
/// poisoned destination, and compares the whole destination with the scalar reference; a
/// destination that writes one place twice must be an error.
fn check<T: Copy + PartialEq + Debug>(
    what: &str,
    (m, n): (usize, usize),
    so: &dyn Fn(usize, usize) -> usize,
    dof: &dyn Fn(usize, usize) -> usize,
    value: fn(usize) -> T,
    poison: T,
    item: &mut Item<'_, T>,
) {
    let src: Vec<T> = (0..cosize(m, n, so)).map(value).collect();
    let mut want = vec![poison; cosize(m, n, dof)];
    let mut seen = vec![false; want.len()];
    let mut injective = true;
    for j in 0..n {
        for i in 0..m {
            let d = dof(i, j);
            injective &= !std::mem::replace(&mut seen[d], true);
            want[d] = src[so(i, j)];
        }
    }
    let mut got = vec![poison; want.len()];
    match item(&src, &mut got) {
        Ok(()) => {
            assert!(injective, "{what}: a destination that writes one place twice was accepted");
            assert_eq!(got, want, "{what}");
        }
        Err(e) => {
            assert!(!injective, "{what}: {e}");
            assert!(matches!(e, PlanError::Layout { kernel: "copy", .. }), "{what}: {e}");
        }
    }
}

/// The random cases of one element type at the current level.
fn cases<T: kernels::Element + PartialEq + Debug>(rng: &mut Rng, level: Level, value: fn(usize) -> T, poison: T) {
    for case in 0..120 {
        let (m, n) = (rng.extent(70), rng.extent(70));
        let (lds, ldd) = (rng.ld(m, n), rng.ld(n, m));
        let what = format!("{level:?} case {case}: {m}x{n} lds {lds} ldd {ldd}");
        let s = Cm::new(m, n, lds).unwrap();
        let d = Rm::new(m, n, ldd).unwrap();
        check(
            &format!("cm_to_rm {what}"),
            (m, n),
            &|i, j| i + j * lds,
            &|i, j| i * ldd + j,
            value,
            poison,
            &mut |a, b| try_cm_to_rm(&Tensor::new(a, s).unwrap(), &mut TensorMut::new(b, d).unwrap()),
        );
        // The other way: the source unit-stride along N, the destination along M.
        let ldd2 = rng.ld(m, n);
        let (s2, d2) = (Rm::new(m, n, ldd).unwrap(), Cm::new(m, n, ldd2).unwrap());
        check(
            &format!("rm_to_cm {what}"),
            (m, n),
            &|i, j| i * ldd + j,
            &|i, j| i + j * ldd2,
            value,
            poison,
            &mut |a, b| try_rm_to_cm(&Tensor::new(a, s2).unwrap(), &mut TensorMut::new(b, d2).unwrap()),
        );
        let d3 = Cd::new(m, n, ldd2).unwrap();
        check(
            &format!("cm_to_cd {what}"),
            (m, n),
            &|i, j| i + j * lds,
            &|i, j| i + j * ldd2,
            value,
            poison,
            &mut |a, b| try_cm_to_cd(&Tensor::new(a, s).unwrap(), &mut TensorMut::new(b, d3).unwrap()),
        );
        // Static tiles with run-time leading dimensions (below, at and far above the extent).
        let (ls, ld) = (rng.tile_ld(4, 8), rng.tile_ld(8, 4));
        let (s4, d4) = (T48::new(ls).unwrap(), U48::new(ld).unwrap());
        check(
            &format!("tile48 {ls} {ld}"),
            (4, 8),
            &|i, j| i + j * ls,
            &|i, j| i * ld + j,
            value,
            poison,
            &mut |a, b| try_tile48(&Tensor::new(a, s4).unwrap(), &mut TensorMut::new(b, d4).unwrap()),
        );
        let (ls, ld) = (rng.tile_ld(8, 8), rng.tile_ld(8, 8));
        let (s8, d8) = (T88::new(ls).unwrap(), U88::new(ld).unwrap());
        check(
            &format!("tile88 {ls} {ld}"),
            (8, 8),
            &|i, j| i + j * ls,
            &|i, j| i * ld + j,
            value,
            poison,
            &mut |a, b| try_tile88(&Tensor::new(a, s8).unwrap(), &mut TensorMut::new(b, d8).unwrap()),
        );
        let (ls, ld) = (rng.tile_ld(3, 8), rng.tile_ld(8, 3));
        let (s3, d3) = (T83::new(ls).unwrap(), U83::new(ld).unwrap());
        check(
            &format!("tile83 {ls} {ld}"),
            (8, 3),
            &|i, j| i * ls + j,
            &|i, j| i + j * ld,
            value,
            poison,
            &mut |a, b| try_tile83(&Tensor::new(a, s3).unwrap(), &mut TensorMut::new(b, d3).unwrap()),
        );
    }
}

#[test]
fn planned_copies_match_the_reference_at_every_level() {
    let mut rng = Rng(22);
    at_each_level(|l| {
        cases(&mut rng, l, |i| i as u32, u32::MAX);
        cases(&mut rng, l, |i| i as u8, 0xa5);
        cases(&mut rng, l, |i| i as f64 + 0.5, -1.0);
        cases(&mut rng, l, |i| i as u16, 0xdead);
    });
}

#[test]
fn sub_tensors_of_a_larger_buffer() {
    // The tensors' origins are not offset 0 of their slices: the views carry them.
    let (m, n, lds, ldd) = (5, 7, 9, 11);
    let big: Vec<u32> = (0..200).collect();
    let mut out = vec![0u32; 200];
    let s = Tensor::new(&big[13..], Cm::new(m, n, lds).unwrap()).unwrap();
    let mut d = TensorMut::new(&mut out[17..], Rm::new(m, n, ldd).unwrap()).unwrap();
    cm_to_rm(&s, &mut d);
    for i in 0..m {
        for j in 0..n {
            assert_eq!(out[17 + i * ldd + j], big[13 + i + j * lds]);
        }
    }
}

#[test]
fn the_hidden_entries_check_their_numbers_against_the_tensors() {
    use cute_layout::__private::{copy_runs, copy_tile, copy_transpose};
    let src = vec![1u32; 64];
    let mut dst = vec![0u32; 64];
    let s = Tensor::new(&src, Cm::new(8, 8, 8).unwrap()).unwrap();
    let mut d = TensorMut::new(&mut dst, Rm::new(8, 8, 8).unwrap()).unwrap();
    let mut dst2 = vec![0u32; 64];
    let mut d2 = TensorMut::new(&mut dst2, Cd::new(8, 8, 8).unwrap()).unwrap();
    let outside = |f: &mut dyn FnMut() -> bool| {
        let e = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_err();
        let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.starts_with("copy: the program reads offsets"), "{msg}");
    };
    outside(&mut || copy_transpose(&s, &mut d, (8, 8), (9, 8)));
    outside(&mut || copy_transpose(&s, &mut d, (8, 9), (8, 9)));
    outside(&mut || copy_runs(&s, &mut d, 8, (9, 8, 8)));
    outside(&mut || copy_runs(&s, &mut d, 65, (1, 0, 0)));
    outside(&mut || copy_tile::<u32, _, _, 4, 8, 32>(&s, &mut d, (4, 100)));
    outside(&mut || copy_tile::<u32, _, _, 8, 4, 32>(&s, &mut d2, (-1, 8)));
    // Numbers that overflow or write one place twice are declined (the item then plans).
    assert!(!copy_transpose(&s, &mut d, (8, 8), (isize::MAX, 8)));
    assert!(!copy_transpose(&s, &mut d, (8, 8), (8, 3)));
    assert!(!copy_runs(&s, &mut d, 8, (8, 8, isize::MIN)));
    assert!(!copy_tile::<u32, _, _, 4, 8, 32>(&s, &mut d, (isize::MAX / 2, 8)));
    assert!(dst.iter().chain(&dst2).all(|&x| x == 0));
}
