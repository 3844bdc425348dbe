//! trybuild cases for the `layout!` macro arrive with the macro issue.
