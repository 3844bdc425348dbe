//! Which SIMD level the copy kernels run at: detected once per process, cached, and possibly
//! capped (never raised) by `LAYOUT_SIMD_LEVEL` or [`force_level`].

use std::sync::atomic::{AtomicU8, Ordering};

/// The levels the kernels have code for: layout-plan's, which the plans and the blockings
/// are chosen for.
pub use layout_plan::Level;

/// The level as the statics store it (0 means not detected yet).
fn to_u8(l: Level) -> u8 {
    match l {
        Level::Portable => 1,
        Level::Avx2 => 2,
        Level::Avx512 => 3,
    }
}

/// The level a static holds (see `to_u8`).
fn from_u8(v: u8) -> Level {
    match v {
        3 => Level::Avx512,
        2 => Level::Avx2,
        _ => Level::Portable,
    }
}

/// 0: not detected yet; otherwise `to_u8` of the level in effect.
static CURRENT: AtomicU8 = AtomicU8::new(0);
/// 0: not detected yet; otherwise the level the CPU (capped by the environment) supports.
static DETECTED: AtomicU8 = AtomicU8::new(0);

/// The highest level this CPU supports.
fn cpu_level() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
        {
            return Level::Avx512;
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            return Level::Avx2;
        }
    }
    Level::Portable
}

/// The detected level (CPU support capped by `LAYOUT_SIMD_LEVEL`), computed on first use.
fn detected() -> Level {
    match DETECTED.load(Ordering::Relaxed) {
        0 => {
            let mut l = cpu_level();
            if let Some(cap) = std::env::var("LAYOUT_SIMD_LEVEL").ok().as_deref().and_then(Level::parse) {
                l = l.min(cap);
            }
            DETECTED.store(to_u8(l), Ordering::Relaxed);
            // A racing `force_level` may have stored a lower level already; keep it.
            let _ = CURRENT.compare_exchange(0, to_u8(l), Ordering::Relaxed, Ordering::Relaxed);
            l
        }
        v => from_u8(v),
    }
}

/// The level the kernels run at: the highest the CPU supports, capped by the environment
/// variable `LAYOUT_SIMD_LEVEL=portable|avx2|avx512` (read once, at the first call) and by
/// [`force_level`]. Detection runs once; later calls are one atomic load.
///
/// ```
/// use cute_layout::kernels::{Level, level};
///
/// let l = level();
/// assert!(l >= Level::Portable);
/// #[cfg(not(target_arch = "x86_64"))]
/// assert_eq!(l, Level::Portable);
/// ```
#[inline]
pub fn level() -> Level {
    match CURRENT.load(Ordering::Relaxed) {
        0 => {
            detected();
            from_u8(CURRENT.load(Ordering::Relaxed))
        }
        v => from_u8(v),
    }
}

/// Makes the kernels run at `l`, or at the detected level if `l` is higher (a level the CPU
/// lacks is never used); returns the level now in effect. For tests and measurements: it
/// affects every thread, and a level forced lower can be raised again up to the detected one.
///
/// ```
/// use cute_layout::kernels::{Level, force_level, level};
///
/// let detected = force_level(Level::Avx512);      // as high as the CPU allows
/// assert_eq!(force_level(Level::Portable), Level::Portable);
/// assert_eq!(level(), Level::Portable);           // every kernel now runs the portable code
/// assert_eq!(force_level(Level::Avx512), detected); // and back
/// ```
pub fn force_level(l: Level) -> Level {
    let l = l.min(detected());
    CURRENT.store(to_u8(l), Ordering::Relaxed);
    l
}
