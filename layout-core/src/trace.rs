//! Traces: the steps an operation of the algebra takes, recorded by the operation itself while
//! it runs (what `layout explain` prints). Recording is off unless [`record`] is running on
//! this thread; then every traced operation reports its start with its operands, the layouts
//! it builds on the way, its steps in words, and its end with its result. Nothing is
//! re-derived: the narration is the run.

use std::cell::RefCell;
use std::fmt;

use crate::error::Result;
use crate::layout::Layout;
use crate::operation::Operation;
use crate::tiler::Tiler;

/// One step of a traced run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// How deep the step is: 0 for the outermost operation, one more inside each operation
    /// that another one runs (a divide runs a complement and a composition).
    pub depth: usize,
    /// What happened.
    pub event: Event,
}

/// What happened in a [`Step`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// An operation starts; its operands, named (`A`, `B`, `L`, …) and printed.
    Begin {
        /// The operation.
        op: Operation,
        /// Its operands: name and notation.
        operands: Vec<(&'static str, String)>,
    },
    /// A layout the operation built on the way, printed.
    Built {
        /// What the layout is to the operation.
        role: Role,
        /// The layout, in notation.
        layout: String,
    },
    /// A step in words.
    Note(String),
    /// The operation ends with its result printed, or its error's message.
    End {
        /// The operation.
        op: Operation,
        /// The result in notation, or the error's message.
        result: std::result::Result<String, String>,
    },
}

/// What a [`Event::Built`] layout is to the operation that built it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Composition: A coalesced, keeping its extension (the modes the walk runs over).
    Coalesced,
    /// Composition: `A ∘ s:d` for the rank-1 mode `s:d` of B (the walk's piece for it).
    /// The pieces, in order, have the result's flat modes.
    Piece {
        /// The mode of B, in notation.
        b_mode: String,
    },
    /// By-mode application: the result's mode i.
    Mode(usize),
    /// Zipped divide or product: the rank-2 result for mode i of the tiler, whose modes go
    /// to mode i of the result's first and second modes.
    Split(usize),
    /// Complement: the un-coalesced form `(holes…, rest)` (the paper's Table 7 form).
    Holes,
    /// Divide: `B★ = (B, complement(B, |A|))`, what A is composed with.
    Star,
}

struct Recorder {
    steps: Vec<Step>,
    depth: usize,
}

thread_local! {
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Runs `f` and returns its value with the steps of every traced operation it ran.
/// Re-entrant: a recording inside `f` keeps its own steps.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Vec<Step>) {
    /// Puts back the outer recorder (also if `f` unwinds).
    struct Restore(Option<Recorder>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            RECORDER.with(|r| *r.borrow_mut() = outer);
        }
    }
    let outer = RECORDER.with(|r| r.borrow_mut().replace(Recorder { steps: Vec::new(), depth: 0 }));
    let restore = Restore(outer);
    let value = f();
    let steps = RECORDER.with(|r| r.borrow_mut().take().map(|rec| rec.steps).unwrap_or_default());
    drop(restore);
    (value, steps)
}

/// Whether a recording is running (so narration is worth building).
fn active() -> bool {
    RECORDER.with(|r| r.borrow().is_some())
}

fn push(event: impl FnOnce() -> Event) {
    if !active() {
        return;
    }
    let event = event();
    RECORDER.with(|r| {
        if let Some(rec) = r.borrow_mut().as_mut() {
            rec.steps.push(Step { depth: rec.depth, event });
        }
    });
}

fn nest(delta: isize) {
    RECORDER.with(|r| {
        if let Some(rec) = r.borrow_mut().as_mut() {
            rec.depth = rec.depth.saturating_add_signed(delta);
        }
    });
}

/// Records a step in words; the text is only built when a recording is running.
pub(crate) fn note(text: impl FnOnce() -> String) {
    push(|| Event::Note(text()));
}

/// Records a layout the running operation built.
pub(crate) fn built(role: impl FnOnce() -> Role, layout: &dyn fmt::Display) {
    push(|| Event::Built { role: role(), layout: layout.to_string() });
}

/// Runs the operation `op` on `operands` as `f`, recording its start, its steps (one level
/// deeper) and its end. Without a recording this is `f()`.
pub(crate) fn operation<T: fmt::Display>(
    op: Operation,
    operands: &[(&'static str, &dyn fmt::Display)],
    f: impl FnOnce() -> Result<T>,
) -> Result<T> {
    if !active() {
        return f();
    }
    push(|| Event::Begin { op, operands: operands.iter().map(|(n, v)| (*n, v.to_string())).collect() });
    nest(1);
    let r = f();
    nest(-1);
    push(|| Event::End {
        op,
        result: match &r {
            Ok(v) => Ok(v.to_string()),
            Err(e) => Err(e.to_string()),
        },
    });
    r
}

/// [`operation`] for an operation on a layout A and a tiler.
pub(crate) fn with_tiler(op: Operation, a: &Layout, t: &Tiler, f: impl FnOnce() -> Result<Layout>) -> Result<Layout> {
    operation(op, &[("A", a), ("tiler", t)], f)
}

impl fmt::Display for Step {
    /// The step as `layout explain` prints it, indented two spaces per level.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:width$}", "", width = 2 * self.depth)?;
        match &self.event {
            Event::Begin { op, operands } => {
                write!(f, "{op}:")?;
                for (k, (name, value)) in operands.iter().enumerate() {
                    write!(f, "{} {name} = {value}", if k == 0 { "" } else { "," })?;
                }
                Ok(())
            }
            Event::Built { role, layout } => match role {
                Role::Coalesced => write!(f, "coalesce A keeping its extension (last mode unbounded): {layout}"),
                Role::Piece { b_mode } => write!(f, "A ∘ {b_mode} = {layout}"),
                Role::Mode(i) => write!(f, "mode {i} of the result: {layout}"),
                Role::Split(i) => write!(f, "mode {i} splits into {layout}"),
                Role::Holes => write!(f, "holes and rest (paper form): {layout}"),
                Role::Star => write!(f, "B★ = (B, complement) = {layout}"),
            },
            Event::Note(text) => f.write_str(text),
            Event::End { op, result: Ok(v) } => write!(f, "{op} = {v}"),
            Event::End { op, result: Err(e) } => write!(f, "{op} fails: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_only_inside_a_recording_and_nests() {
        note(|| unreachable!("no recording: the text is never built"));
        let (r, steps) = record(|| {
            operation(Operation::Composition, &[("A", &"4:1")], || {
                note(|| "inside".into());
                let (inner, inner_steps) = record(|| {
                    note(|| "own".into());
                    7
                });
                assert_eq!((inner, inner_steps.len()), (7, 1));
                Ok(3)
            })
        });
        assert_eq!(r, Ok(3));
        let text: Vec<String> = steps.iter().map(Step::to_string).collect();
        assert_eq!(text, ["composition: A = 4:1", "  inside", "composition = 3"]);
        assert!(!active());
    }
}
