//! The operations of the algebra, by CuTe's names: one enum, used by the expression
//! language's function table, the errors that name an operation,
//! [`LayoutError::blame`](crate::LayoutError::blame) and `layout explain`.

use std::fmt;

macro_rules! operations {
    ($($variant:ident => $name:literal,)*) => {
        /// An operation of the algebra (a function of the expression language). `Display` gives
        /// its name as written in expressions and error messages, e.g. `logical_divide`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Operation {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Operation {
            /// Every operation, in the order of the function table.
            pub const ALL: &'static [Operation] = &[$(Operation::$variant,)*];

            /// The name as written in expressions: `composition`, `logical_divide`, ….
            pub const fn name(self) -> &'static str {
                match self {
                    $(Operation::$variant => $name,)*
                }
            }
        }
    };
}

operations! {
    Size => "size",
    Cosize => "cosize",
    Rank => "rank",
    Depth => "depth",
    Shape => "shape",
    Stride => "stride",
    Coalesce => "coalesce",
    CoalesceZ => "coalesce_z",
    Filter => "filter",
    Composition => "composition",
    Complement => "complement",
    RightInverse => "right_inverse",
    LeftInverse => "left_inverse",
    MakeLayout => "make_layout",
    LogicalDivide => "logical_divide",
    ZippedDivide => "zipped_divide",
    TiledDivide => "tiled_divide",
    FlatDivide => "flat_divide",
    LocalTile => "local_tile",
    LocalPartition => "local_partition",
    LogicalProduct => "logical_product",
    ZippedProduct => "zipped_product",
    TiledProduct => "tiled_product",
    FlatProduct => "flat_product",
    BlockedProduct => "blocked_product",
    RakedProduct => "raked_product",
    MaxCommonLayout => "max_common_layout",
    MaxCommonVector => "max_common_vector",
    Nullspace => "nullspace",
    Upcast => "upcast",
    Downcast => "downcast",
    TileToShape => "tile_to_shape",
    MakeOrderedLayout => "make_ordered_layout",
    MakeLayoutLike => "make_layout_like",
    WithShape => "with_shape",
    Flatten => "flatten",
    Group => "group",
    Append => "append",
    Prepend => "prepend",
    Get => "get",
    Eval => "eval",
    Slice => "slice",
    SliceOffset => "slice_offset",
    Idx2Crd => "idx2crd",
    Crd2Idx => "crd2idx",
    Crd2Crd => "crd2crd",
    Congruent => "congruent",
    WeaklyCongruent => "weakly_congruent",
    Compatible => "compatible",
    MakeSwizzle => "make_swizzle",
    MakeComposedLayout => "make_composed_layout",
    ScaledBasis => "scaled_basis",
    F2Stride => "f2_stride",
    F2Matrix => "f2_matrix",
}

impl Operation {
    /// The operation called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Operation> {
        Operation::ALL.iter().copied().find(|op| op.name() == name)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_round_trip() {
        let mut names: Vec<&str> = Operation::ALL.iter().map(|op| op.name()).collect();
        for op in Operation::ALL {
            assert_eq!(Operation::from_name(op.name()), Some(*op));
            assert_eq!(op.to_string(), op.name());
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Operation::ALL.len());
        assert_eq!(Operation::from_name("compositon"), None);
    }
}
