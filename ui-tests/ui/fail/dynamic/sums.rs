// Sums in extents, strides and facts: an extent the facts make non-positive, a fact that
// is not one, a sum over a quotient by a sum, an overflowing static sum, contradictory
// facts with sums. One error each, at the tokens responsible.
use cute_layout::layout;

layout! {
    pub Never = (W-5,3):(1,W) where W <= 4;
    pub NotAFact = ((W-2,H-2),(3,3)):((1,W),(1,W)) where W + <= 3;
    pub Quotient = (M/(W-2)+1,3):(1,M);
    pub Overflow = (9223372036854775807+1,2):(1,2);
    pub Contradict = ((Q,P),(3,3)):((1,W),(1,W)) where Q+2 <= W, W < Q;
}

fn main() {}
