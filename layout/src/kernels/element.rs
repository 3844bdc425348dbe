//! The element types a copy kernel moves: plain integers and floats, copied as bits.

pub(crate) mod sealed {
    use core::iter::Sum;
    use core::ops::Add;

    use crate::kernels::{Level, sum};

    /// Implemented only here: every implementor is a primitive without padding or invalid
    /// bit patterns of its width, so copying its bytes copies the value.
    pub trait Sealed {
        /// `Σ s` over a contiguous run with the kernel of `level` (floats in an unspecified
        /// order): an explicit vector kernel for `f32` and `f64`, partial sums otherwise.
        ///
        /// # Safety
        /// The CPU supports `level` (it does not exceed [`level()`](crate::kernels::level)).
        #[inline]
        unsafe fn sum_run(level: Level, s: &[Self]) -> Self
        where
            Self: Sized + Copy + Add<Output = Self> + Sum<Self>,
        {
            // SAFETY: the caller guarantees the CPU supports `level`.
            unsafe { sum::generic(level, s) }
        }
    }

    impl Sealed for f32 {
        // SAFETY contract: `Sealed::sum_run`'s (the CPU has the features of `level`).
        #[inline]
        unsafe fn sum_run(level: Level, s: &[f32]) -> f32 {
            // SAFETY: the caller guarantees the CPU supports `level`.
            unsafe { sum::f32s(level, s) }
        }
    }

    impl Sealed for f64 {
        // SAFETY contract: `Sealed::sum_run`'s (the CPU has the features of `level`).
        #[inline]
        unsafe fn sum_run(level: Level, s: &[f64]) -> f64 {
            // SAFETY: the caller guarantees the CPU supports `level`.
            unsafe { sum::f64s(level, s) }
        }
    }
}

/// An element the copy kernels can move: a primitive integer or float of 1, 2, 4 or 8 bytes
/// (sealed). [`run`](super::run) forwards each width to one precompiled, non-generic driver,
/// so the loops run at this crate's optimization level whatever the caller's.
///
/// ```
/// use cute_layout::kernels::{Element, Width};
///
/// assert_eq!(<f32 as Element>::WIDTH, Width::W4);
/// assert_eq!(<i16 as Element>::WIDTH, Width::W2);
/// assert_eq!(<usize as Element>::WIDTH, if cfg!(target_pointer_width = "64") { Width::W8 } else { Width::W4 });
/// ```
pub trait Element: Copy + Send + Sync + 'static + sealed::Sealed {
    /// The width in bytes: 1, 2, 4 or 8.
    const WIDTH: Width;
}

/// The width class of an [`Element`]: which precompiled driver runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// 1 byte (`u8`, `i8`).
    W1,
    /// 2 bytes (`u16`, `i16`).
    W2,
    /// 4 bytes (`u32`, `i32`, `f32`, and `usize`/`isize` on 32-bit targets).
    W4,
    /// 8 bytes (`u64`, `i64`, `f64`, and `usize`/`isize` on 64-bit targets).
    W8,
}

impl Width {
    /// The width class of a size in bytes (1, 2, 4 or 8); used at compile time for the
    /// pointer-sized types.
    const fn of_size(bytes: usize) -> Width {
        match bytes {
            1 => Width::W1,
            2 => Width::W2,
            4 => Width::W4,
            8 => Width::W8,
            _ => panic!("element width must be 1, 2, 4 or 8 bytes"),
        }
    }
}

macro_rules! element {
    ($($t:ty),*; $($f:ty),*) => {$(
        impl sealed::Sealed for $t {}
    )* element!($($t),*, $($f),*);};
    ($($t:ty),*) => {$(
        impl Element for $t {
            const WIDTH: Width = Width::of_size(core::mem::size_of::<$t>());
        }
    )*};
}

element!(u8, i8, u16, i16, u32, i32, u64, i64, usize, isize; f32, f64);
