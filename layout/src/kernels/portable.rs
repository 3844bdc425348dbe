//! The portable level: the generic drivers with the scalar tile, at the target's baseline
//! features (the only level on other architectures).

use super::Program;
use super::driver::{NoStream, ScalarTile, Word, drive};
use super::nest::{Plan, loop_buf};

/// # Safety
/// The program's contract ([`super::run`]).
#[inline(always)]
unsafe fn portable<W: Word>(src: *const W, dst: *mut W, p: &Program<'_>) {
    let mut buf = loop_buf();
    if let Some(plan) = Plan::new(p, &mut buf) {
        // SAFETY: forwarded from the caller.
        unsafe { drive::<W, ScalarTile, NoStream>(src, dst, &plan) }
    }
}

macro_rules! entry {
    ($($name:ident: $w:ty),*) => {$(
        /// # Safety
        /// The program's contract ([`super::run`]).
        pub(super) unsafe fn $name(src: *const $w, dst: *mut $w, p: &Program<'_>) {
            // SAFETY: forwarded from the caller.
            unsafe { portable(src, dst, p) }
        }
    )*};
}

entry!(portable_w1: u8, portable_w2: u16, portable_w4: u32, portable_w8: u64);
