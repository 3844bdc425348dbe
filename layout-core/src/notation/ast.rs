//! The syntax tree of the expression language: every node carries its byte span.

/// A byte range `start..end` in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// What a node of the syntax tree is.
pub enum ExprKind {
    /// A decimal integer (possibly negative).
    Int(i64),
    /// `(e, …)`: an int tuple, or a coordinate when it contains `_`.
    Tuple(Vec<Expr>),
    /// `shape:stride`.
    Layout(Box<Expr>, Box<Expr>),
    /// `[e, …]`: a by-mode tiler.
    Tiler(Vec<Expr>),
    /// `_`: a free mode (tilers, slices).
    Underscore,
    /// A name bound earlier (the macro's items).
    Name(String),
    /// `name(args…)`: an operation of the algebra.
    Call {
        /// The operation's name as written.
        name: String,
        /// Where the name is.
        name_span: Span,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `a*b` or `a/b` (`op` is `*` or `/`), left-associative, between integers and symbols:
    /// the products and quotients of dynamic extents (`8*M`, `M/8`, `LD*N`).
    Arith {
        /// The left operand.
        lhs: Box<Expr>,
        /// `*` or `/`.
        op: char,
        /// The right operand.
        rhs: Box<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// A node of the syntax tree and where it is in the source.
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// The bytes of the source the node was parsed from.
    pub span: Span,
}
