//! Kernel planning over CuTe layouts (paper §4): what a copy or a GEMM of given layouts runs,
//! decided once as plain data from the layout algebra of [`layout_core`]. The `layout!` macro
//! plans its `copy` and `gemm` items with it at compile time, the facade's run-time kernels
//! at run time, and `layout explain` prints the same plans.
//!
//! - [`copy_plan`]: the joint modes of a source and a destination, the common vector, the loop
//!   nest and the body that runs inside it; [`transpose_blocking_at`]: the cache blocking of a
//!   transpose body.
//! - [`gemm_plan`]: the joint leaves of M, N, K (and a batch mode) of three layouts;
//!   [`gemm_blocking`]: the register tiles, cache blocks and packing of the run-time engine per
//!   level and element type; [`gemm_schedule`]: how a planned GEMM runs at its sizes.
//!
//! ```
//! use layout_core::parse_layout;
//! use layout_plan::{CopyBody, copy_plan};
//! let src = parse_layout("(8,3):(1,8)").unwrap();
//! let dst = parse_layout("(8,3):(3,1)").unwrap();
//! let plan = copy_plan(&src, &dst, false).unwrap();
//! assert_eq!(plan.body, CopyBody::Transpose { rows: 8, cols: 3, src_ld: 8, dst_ld: 3 });
//! ```

mod blocking;
mod copy;
mod gemm;
pub mod gemm_blocking;
pub mod gemm_grid;
mod gemm_schedule;
mod level;
mod program;

pub use blocking::{
    AVX2_BAND_ROWS, AVX2_STREAM_BYTES, AVX2_STREAM_ROW_BYTES, LINE_BYTES, SQUARE_BLOCK_BYTES, STREAM_BYTES,
    STREAM_ROW_BYTES, TransposeBlocking, transpose_blocking, transpose_blocking_at,
};
pub use copy::{
    CopyBody, CopyMode, CopyPlan, UNROLL_POINTS, copy_plan, injectivity_witness, injectivity_witness_within,
};
pub use gemm::{GemmLeaf, GemmPlan, gemm_plan};
pub use gemm_blocking::{CacheSizes, GemmBlocking, GemmBlocks, GemmElem, detected_caches};
pub use gemm_grid::{GemmGrid, gemm_grid, gemm_tasks};
pub use gemm_schedule::{GEMM_STATIC_MAX, GemmRegime, GemmSchedule, LevelSchedule, gemm_schedule, gemm_schedule_for};
pub use level::Level;
pub use program::{Body, Extremes, Loop, Program, ProgramBuf, ProgramRange};
