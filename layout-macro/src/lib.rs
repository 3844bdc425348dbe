//! The `layout!` procedural macro. It stays a thin shim: parsing, evaluation and code
//! generation live in libraries that tests and the command-line tool call directly.
//! (The macro itself arrives with the `layout!` issue; this crate only reserves the name.)
