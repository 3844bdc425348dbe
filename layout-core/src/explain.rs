//! Narrated evaluation for `layout explain`: the expression is evaluated once, as always, while
//! a [`trace`](crate::trace) records the steps the operations it calls take (composition's walk
//! over the modes of A, the complement's holes, a divide's `B★`, a product's `A*`, the modes of
//! a by-mode tiler); the narration is those steps, and the result is that evaluation's.

use crate::notation::{Env, ExprError, Value, evaluate_expr, parse};
use crate::trace::{Event, Step, record};

/// The steps of one evaluation and its outcome.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The steps every traced operation took, in order.
    pub steps: Vec<Step>,
    /// The value of the expression, or why not.
    pub result: Result<Value, ExprError>,
}

/// Parses `text` and evaluates it, recording the steps of the operations it runs.
/// A parse error is returned as `Err`; an evaluation error is the explanation's `result`.
///
/// ```
/// let e = layout_core::explain("composition((4,2,8):(3,12,97), 3:3)")?;
/// let lines = e.lines();
/// assert_eq!(lines.last().unwrap(), "result: 3:9");
/// assert!(lines.iter().any(|l| l.contains("coalesce A keeping its extension")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain(text: &str) -> Result<Explanation, ExprError> {
    explain_in(text, &Env::new())
}

/// [`explain`] with names bound to values: the command line binds the symbols of a dynamic
/// expression (`(M,N):(1,M)`) to the numbers of `--let` and narrates that instance.
pub fn explain_in(text: &str, env: &Env) -> Result<Explanation, ExprError> {
    let expr = parse(text)?;
    let (result, steps) = record(|| evaluate_expr(&expr, env));
    Ok(Explanation { steps, result })
}

impl Explanation {
    /// The narration as `layout explain` prints it: the steps, then `result: …`, or
    /// `rejected: …` with a `help: …` when there is one. The end of the outermost operation
    /// is the result line.
    pub fn lines(&self) -> Vec<String> {
        let last_is_outer_end = matches!(self.steps.last(), Some(Step { depth: 0, event: Event::End { .. } }));
        let shown = if last_is_outer_end { &self.steps[..self.steps.len() - 1] } else { &self.steps[..] };
        let mut lines: Vec<String> = shown.iter().map(Step::to_string).collect();
        match &self.result {
            Ok(v) => lines.push(format!("result: {v}")),
            Err(e) => {
                lines.push(format!("rejected: {e}"));
                if let Some(h) = e.help() {
                    lines.push(format!("help: {h}"));
                }
            }
        }
        lines
    }
}
