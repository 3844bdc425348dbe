//! "Did you mean …?": the one implementation of name suggestions, used by the evaluator (so
//! the command-line tool) and by the `layout!` macro.

use crate::operation::Operation;

/// The candidates within a small edit distance of `name` (a third of its length, at least 1)
/// or starting with it, closest first, at most three, each as `` `name` ``.
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let limit = (name.chars().count() / 3).max(1);
    let mut near: Vec<(usize, &str)> =
        candidates.map(|c| (edit_distance(name, c), c)).filter(|&(d, c)| d <= limit || c.starts_with(name)).collect();
    near.sort();
    near.dedup();
    near.into_iter().take(3).map(|(_, c)| format!("`{c}`")).collect()
}

/// `did you mean `a` or `b`?` for the [`closest`] candidates, `None` when there are none.
pub fn did_you_mean<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let close = closest(name, candidates);
    (!close.is_empty()).then(|| format!("did you mean {}?", close.join(" or ")))
}

/// `did you mean …?` among the operations of the algebra ([`Operation::ALL`]) for an unknown
/// operation `name`.
pub fn did_you_mean_operation(name: &str) -> Option<String> {
    did_you_mean(name, Operation::ALL.iter().map(|op| op.name()))
}

/// Edit distance with adjacent transpositions (optimal string alignment): `Tiel` is one
/// edit from `Tile`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_suggest_the_operation() {
        let ops = ["composition", "complement", "coalesce"];
        assert_eq!(did_you_mean("compositon", ops.into_iter()).as_deref(), Some("did you mean `composition`?"));
        assert_eq!(did_you_mean("complment", ops.into_iter()).as_deref(), Some("did you mean `complement`?"));
        assert_eq!(did_you_mean("xyz", ops.into_iter()), None);
        assert_eq!(edit_distance("Tiel", "Tile"), 1);
        assert_eq!(did_you_mean_operation("logical_devide").as_deref(), Some("did you mean `logical_divide`?"));
    }
}
