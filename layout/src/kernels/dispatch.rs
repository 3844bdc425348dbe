//! Which SIMD level the copy kernels run at: detected once per process, cached, and possibly
//! capped (never raised) by `LAYOUT_SIMD_LEVEL` or [`force_level`].

use std::sync::atomic::{AtomicU8, Ordering};

/// An instruction-set level the kernels have code for, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Plain Rust the compiler vectorizes for the target's baseline (SSE2 on x86_64); the
    /// only level on other architectures.
    Portable,
    /// AVX2 and FMA (x86_64).
    Avx2,
    /// AVX-512 F, BW, VL and DQ, on top of AVX2 and FMA (x86_64).
    Avx512,
}

impl Level {
    fn to_u8(self) -> u8 {
        match self {
            Level::Portable => 1,
            Level::Avx2 => 2,
            Level::Avx512 => 3,
        }
    }

    fn from_u8(v: u8) -> Level {
        match v {
            3 => Level::Avx512,
            2 => Level::Avx2,
            _ => Level::Portable,
        }
    }

    /// The level named by `LAYOUT_SIMD_LEVEL` (`portable`, `avx2` or `avx512`, any case).
    fn parse(name: &str) -> Option<Level> {
        match name.trim().to_ascii_lowercase().as_str() {
            "portable" | "scalar" | "none" => Some(Level::Portable),
            "avx2" => Some(Level::Avx2),
            "avx512" => Some(Level::Avx512),
            _ => None,
        }
    }
}

/// 0: not detected yet; otherwise `Level::to_u8` of the level in effect.
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
            DETECTED.store(l.to_u8(), Ordering::Relaxed);
            // A racing `force_level` may have stored a lower level already; keep it.
            let _ = CURRENT.compare_exchange(0, l.to_u8(), Ordering::Relaxed, Ordering::Relaxed);
            l
        }
        v => Level::from_u8(v),
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
            Level::from_u8(CURRENT.load(Ordering::Relaxed))
        }
        v => Level::from_u8(v),
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
    CURRENT.store(l.to_u8(), Ordering::Relaxed);
    l
}
