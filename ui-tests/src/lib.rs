//! trybuild cases for the `layout!` macro (`tests/ui.rs`, cases in `ui/`) and the agreement
//! of the generated code with layout-core on the oracle layouts (`tests/agreement.rs`).
