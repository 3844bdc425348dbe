//! Reading and judging the oracle vectors of `tests/data/` (see `tests/data/ORACLE-README.md`).
//!
//! - [`Record`]: one oracle case, its arguments parsed once, and the expression the project
//!   evaluates for it ([`Record::expr`]).
//! - [`answer`]: layout-core's answer to a record (a value, a table, a rejection or a panic).
//! - [`pycute::judge`] and [`cpp::judge`]: ports of the reference judges (the Python
//!   `oracle_check.py` and `cpp_oracle_check.py` + `bf.py`), classifying every answer as a
//!   [`Verdict`] by brute force on the function ([`bf`]), never by layout-core's algorithms
//!   (the notation is parsed and evaluated independently, [`notation`]).
//! - [`Replay`]: every record of a file answered and judged, a summary like the Python
//!   checker's, and the check against a table of known, deliberate [`Deviation`]s.

pub mod bf;
pub mod cpp;
pub mod notation;
pub mod pycute;

use std::collections::HashSet;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use layout_core::notation::evaluate;
use serde_json::Value as Json;

use bf::Check;
use notation::{Lay, TElem, Tup, parse_layout, parse_layout_or_tiler, parse_tuple};

/// Which oracle file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `pycute-vectors.jsonl`: pycute 4.2.0.0's answers.
    Pycute,
    /// `cute-cpp-vectors.jsonl`: CuTe C++'s answers, each checked by brute force.
    Cpp,
}

impl Source {
    pub fn file_name(self) -> &'static str {
        match self {
            Source::Pycute => "pycute-vectors.jsonl",
            Source::Cpp => "cute-cpp-vectors.jsonl",
        }
    }

    pub fn path(self) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data").join(self.file_name())
    }

    /// The largest fraction of form-differs answers the reference judge passes.
    pub fn form_differs_limit(self) -> f64 {
        match self {
            Source::Pycute => 0.03,
            Source::Cpp => 0.05,
        }
    }

    pub fn judge(self, rec: &Record, answer: &Answer) -> Judgement {
        match self {
            Source::Pycute => pycute::judge(rec, answer),
            Source::Cpp => cpp::judge(rec, answer),
        }
    }
}

/// A parsed argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A JSON integer (cotarget, cast factor).
    Int(i64),
    /// A string without `:` (a coalesce profile, a shape, an order).
    Tuple(Tup),
    Layout(Lay),
    /// A by-mode tiler `[…]` (its elements).
    Tiler(Vec<TElem>),
}

/// The oracle's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The oracle rejected the input.
    Error,
    Int(i64),
    /// `table` records: the layout's values.
    Table(Vec<i64>),
    /// A layout in canonical notation.
    Layout(String),
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expect::Error => f.write_str("error"),
            Expect::Int(v) => write!(f, "{v}"),
            Expect::Table(t) if t.len() > 12 => write!(f, "{:?}…", &t[..12]),
            Expect::Table(t) => write!(f, "{t:?}"),
            Expect::Layout(s) => f.write_str(s),
        }
    }
}

/// One oracle case (the fields the judges read).
#[derive(Clone, Debug)]
pub struct Record {
    pub id: String,
    pub op: String,
    /// The arguments as written in the expression.
    pub raw_args: Vec<String>,
    pub args: Vec<Arg>,
    pub expect: Expect,
    /// pycute: the record has a `suspect` field (pycute's answer is degenerate or wrong).
    pub suspect: bool,
    /// C++: `cpp_valid` (true when absent).
    pub cpp_valid: bool,
    /// pycute `checks.tiler_complement_bijective`.
    pub tiler_complement_bijective: Option<bool>,
    /// pycute `checks.size_preserved`.
    pub size_preserved: Option<bool>,
    /// pycute `checks.cpp_chain_size`.
    pub cpp_chain_size: Option<i64>,
    /// The expression the project evaluates for this record.
    pub expr: String,
}

impl Record {
    /// Parses one JSON line.
    pub fn from_json(line: &str) -> Result<Record, String> {
        let v: Json = serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}"))?;
        let field = |k: &str| v.get(k).ok_or_else(|| format!("missing field `{k}`"));
        let text = |k: &str| field(k)?.as_str().map(str::to_string).ok_or_else(|| format!("`{k}` is not a string"));
        let (id, op) = (text("id")?, text("op")?);
        let json_args = field("args")?.as_array().ok_or("`args` is not a list")?;
        let mut raw_args = Vec::new();
        let mut args = Vec::new();
        for a in json_args {
            let (raw, arg) = match a {
                Json::Number(n) => {
                    let n = n.as_i64().ok_or_else(|| format!("{id}: argument {n} is not an integer"))?;
                    (n.to_string(), Arg::Int(n))
                }
                Json::String(s) if s.contains(':') => (
                    s.clone(),
                    match parse_layout_or_tiler(s)? {
                        TElem::Layout(l) => Arg::Layout(l),
                        TElem::Tiler(t) => Arg::Tiler(t),
                        TElem::Skip => return Err(format!("{id}: argument `_`")),
                    },
                ),
                Json::String(s) => (s.clone(), Arg::Tuple(parse_tuple(s)?)),
                other => return Err(format!("{id}: argument {other} is neither a string nor an integer")),
            };
            raw_args.push(raw);
            args.push(arg);
        }
        let expect = match field("expect")? {
            Json::String(s) if s == "error" => Expect::Error,
            Json::String(s) => Expect::Layout(s.clone()),
            Json::Number(n) => Expect::Int(n.as_i64().ok_or("`expect` is not an integer")?),
            Json::Array(t) => {
                Expect::Table(t.iter().map(|x| x.as_i64().ok_or("`expect` table entry")).collect::<Result<_, _>>()?)
            }
            other => return Err(format!("{id}: unexpected `expect` {other}")),
        };
        let check = |k: &str| v.get("checks").and_then(|c| c.get(k));
        let expr = match op.as_str() {
            "table" => raw_args[0].clone(),
            "coalesce_profile" => format!("coalesce({}, {})", raw_args[0], raw_args[1]),
            _ => format!("{op}({})", raw_args.join(", ")),
        };
        Ok(Record {
            suspect: v.get("suspect").is_some_and(truthy),
            cpp_valid: v.get("cpp_valid").and_then(Json::as_bool).unwrap_or(true),
            tiler_complement_bijective: check("tiler_complement_bijective").and_then(Json::as_bool),
            size_preserved: check("size_preserved").and_then(Json::as_bool),
            cpp_chain_size: check("cpp_chain_size").and_then(Json::as_i64),
            id,
            op,
            raw_args,
            args,
            expect,
            expr,
        })
    }

    fn arg(&self, i: usize) -> Check<&Arg> {
        self.args.get(i).ok_or_else(|| format!("{}: no argument {i}", self.id))
    }

    /// Argument `i` as a layout.
    pub fn layout_arg(&self, i: usize) -> Check<&Lay> {
        match self.arg(i)? {
            Arg::Layout(l) => Ok(l),
            a => Err(format!("argument {i} is not a layout: {a:?}")),
        }
    }

    /// Argument `i` as a tiler element (a layout or a by-mode tiler).
    pub fn tiler_arg(&self, i: usize) -> Check<TElem> {
        match self.arg(i)? {
            Arg::Layout(l) => Ok(TElem::Layout(l.clone())),
            Arg::Tiler(t) => Ok(TElem::Tiler(t.clone())),
            a => Err(format!("argument {i} is not a layout or tiler: {a:?}")),
        }
    }

    pub fn int_arg(&self, i: usize) -> Check<i64> {
        match self.arg(i)? {
            Arg::Int(n) => Ok(*n),
            a => Err(format!("argument {i} is not an integer: {a:?}")),
        }
    }

    pub fn tuple_arg(&self, i: usize) -> Check<&Tup> {
        match self.arg(i)? {
            Arg::Tuple(t) => Ok(t),
            a => Err(format!("argument {i} is not an int tuple: {a:?}")),
        }
    }
}

/// Python's truthiness of a JSON value (`bool(rec.get("suspect"))`).
fn truthy(v: &Json) -> bool {
    match v {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(n) => n.as_f64() != Some(0.0),
        Json::String(s) => !s.is_empty(),
        Json::Array(a) => !a.is_empty(),
        Json::Object(o) => !o.is_empty(),
    }
}

/// Every record of a file, in order.
pub fn load(source: Source) -> Vec<Record> {
    let path = source.path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| Record::from_json(l).unwrap_or_else(|e| panic!("{}:{}: {e}", source.file_name(), n + 1)))
        .collect()
}

/// layout-core's answer to a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The value in canonical notation.
    Value(String),
    /// `table` records: the layout's values.
    Table(Vec<i64>),
    /// The error message.
    Rejected(String),
    /// layout-core panicked (always a bug).
    Panic(String),
}

impl Answer {
    /// The answer as a layout (parsed independently of layout-core).
    pub fn layout(&self) -> Check<Lay> {
        match self {
            Answer::Value(v) => parse_layout(v),
            other => Err(format!("not a layout: {other}")),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Value(v) => f.write_str(v),
            Answer::Table(t) if t.len() > 12 => write!(f, "{:?}…", &t[..12]),
            Answer::Table(t) => write!(f, "{t:?}"),
            Answer::Rejected(m) if m.chars().count() > 160 => {
                write!(f, "error: {}…", m.chars().take(160).collect::<String>())
            }
            Answer::Rejected(m) => write!(f, "error: {m}"),
            Answer::Panic(m) => write!(f, "PANIC: {m}"),
        }
    }
}

/// Evaluates the record's expression with layout-core (`table` records: the layout's values).
pub fn answer(rec: &Record) -> Answer {
    let run = || match evaluate(&rec.expr) {
        Err(e) => Answer::Rejected(e.to_string()),
        Ok(v) if rec.op == "table" => match v.into_layout() {
            Ok(l) => l.table().map_or_else(|e| Answer::Rejected(e.to_string()), Answer::Table),
            Err(m) => Answer::Rejected(m),
        },
        Ok(v) => Answer::Value(v.to_string()),
    };
    panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|payload| {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_string());
        Answer::Panic(msg)
    })
}

/// How an answer is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Right, and printed exactly as the oracle prints it.
    Exact,
    /// Rejected where the oracle rejected or was wrong (or the tiler does not divide).
    RejectedOk,
    /// Accepted where the oracle rejected or was wrong, and right by brute force.
    AcceptedByPolicy,
    /// Right by brute force, printed differently from the oracle.
    FormDiffers,
    /// Rejected where the oracle's answer is right (or §3.2 says it is representable).
    OverRejected,
    /// A wrong result (by brute force), a result where policy demands a rejection, or a panic.
    Wrong,
}

impl Verdict {
    pub const ALL: [Verdict; 6] = [
        Verdict::Exact,
        Verdict::RejectedOk,
        Verdict::AcceptedByPolicy,
        Verdict::FormDiffers,
        Verdict::OverRejected,
        Verdict::Wrong,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Verdict::Exact => "exact",
            Verdict::RejectedOk => "rejected-ok",
            Verdict::AcceptedByPolicy => "accepted-by-policy",
            Verdict::FormDiffers => "form-differs",
            Verdict::OverRejected => "over-rejected",
            Verdict::Wrong => "WRONG",
        }
    }
}

/// A verdict and its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub verdict: Verdict,
    pub why: String,
}

impl Judgement {
    pub fn new(verdict: Verdict, why: impl Into<String>) -> Judgement {
        Judgement { verdict, why: why.into() }
    }
}

/// A record, layout-core's answer and its judgement.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub record: Record,
    pub answer: Answer,
    pub judgement: Judgement,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} -> {}", self.record.id, self.record.expr, self.answer)?;
        if !self.judgement.why.is_empty() {
            write!(f, " [{}]", self.judgement.why)?;
        }
        Ok(())
    }
}

/// Whether a deviation is a project policy or a bug of layout-core awaiting a fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviationKind {
    /// A deliberate policy of docs/algebra.md where the oracle (or the reference judge) disagrees.
    Policy,
    /// A bug of layout-core (the reason holds a reproducer); remove the entry once fixed.
    Bug,
}

/// A known record that the reference judge calls over-rejected or wrong.
pub struct Deviation {
    pub id: &'static str,
    /// The record's expression (guards against a mistyped id).
    pub expr: &'static str,
    /// What the reference judge says about the project's answer.
    pub verdict: Verdict,
    pub kind: DeviationKind,
    pub reason: &'static str,
    /// A brute-force confirmation that the project's answer is the policy's (required for a
    /// policy deviation judged wrong).
    pub proof: Option<fn(&Outcome) -> Check>,
}

/// Every record of a file, answered by layout-core and judged.
pub struct Replay {
    pub source: Source,
    pub outcomes: Vec<Outcome>,
    /// Time spent answering and judging (loading excluded).
    pub elapsed: Duration,
}

impl Replay {
    pub fn run(source: Source) -> Replay {
        let records = load(source);
        let start = Instant::now();
        let outcomes = records
            .into_iter()
            .map(|record| {
                let answer = answer(&record);
                let judgement = source.judge(&record, &answer);
                Outcome { record, answer, judgement }
            })
            .collect();
        Replay { source, outcomes, elapsed: start.elapsed() }
    }

    pub fn count(&self, verdict: Verdict) -> usize {
        self.outcomes.iter().filter(|o| o.judgement.verdict == verdict).count()
    }

    pub fn with(&self, verdict: Verdict) -> impl Iterator<Item = &Outcome> {
        self.outcomes.iter().filter(move |o| o.judgement.verdict == verdict)
    }

    /// The counts (the Python checker's summary line) and a few examples of each verdict
    /// other than exact and rejected-ok.
    pub fn summary(&self, examples: usize) -> String {
        let n = self.outcomes.len();
        let counts: Vec<String> = Verdict::ALL.iter().map(|&v| format!("{} {}", v.label(), self.count(v))).collect();
        let mut out = format!(
            "{}: {n} cases: {} (replayed and judged in {:.2} s)\n",
            self.source.file_name(),
            counts.join(", "),
            self.elapsed.as_secs_f64()
        );
        for v in [Verdict::Wrong, Verdict::OverRejected, Verdict::FormDiffers, Verdict::AcceptedByPolicy] {
            if self.count(v) > 0 {
                out.push_str(&format!("{}: {}\n", v.label(), self.count(v)));
                for o in self.with(v).take(examples) {
                    out.push_str(&format!("    {o}\n"));
                }
            }
        }
        let good = self.count(Verdict::Exact) + self.count(Verdict::RejectedOk) + self.count(Verdict::AcceptedByPolicy);
        out.push_str(&format!(
            "{good}/{n} right, {} form-differs ({:.1}%, limit {:.0}%), {} over-rejected, {} wrong",
            self.count(Verdict::FormDiffers),
            100.0 * self.form_differs_fraction(),
            100.0 * self.source.form_differs_limit(),
            self.count(Verdict::OverRejected),
            self.count(Verdict::Wrong),
        ));
        out
    }

    pub fn form_differs_fraction(&self) -> f64 {
        self.count(Verdict::FormDiffers) as f64 / self.outcomes.len().max(1) as f64
    }

    /// What keeps this replay from passing: an over-rejected or wrong record not in
    /// `deviations`, a listed deviation that does not (or no longer) occur as listed or whose
    /// proof fails, and too many form-differs answers. Empty when the replay passes.
    pub fn problems(&self, deviations: &[Deviation]) -> Vec<String> {
        let mut problems = Vec::new();
        let mut ids = HashSet::new();
        for d in deviations {
            if !ids.insert(d.id) {
                problems.push(format!("{}: listed twice in the deviation table", d.id));
            }
            if !self.outcomes.iter().any(|o| o.record.id == d.id) {
                problems.push(format!("{}: listed as a deviation but no such record", d.id));
            }
        }
        for o in &self.outcomes {
            let verdict = o.judgement.verdict;
            let listed = deviations.iter().find(|d| d.id == o.record.id);
            let Some(d) = listed else {
                if matches!(verdict, Verdict::OverRejected | Verdict::Wrong) {
                    problems.push(format!("{}, not in the deviation table: {o}", verdict.label()));
                }
                continue;
            };
            if d.expr != o.record.expr {
                problems.push(format!("{}: the table lists `{}` but the record is `{}`", d.id, d.expr, o.record.expr));
            } else if d.verdict != verdict {
                problems.push(format!(
                    "{}: listed as {} but now {} (update or remove the entry): {o}",
                    d.id,
                    d.verdict.label(),
                    verdict.label()
                ));
            } else if let Some(proof) = d.proof {
                if let Err(why) = proof(o) {
                    problems.push(format!("{}: the deviation's brute-force proof fails: {why}: {o}", d.id));
                }
            } else if d.kind == DeviationKind::Policy && verdict == Verdict::Wrong {
                problems.push(format!("{}: a policy deviation judged wrong needs a brute-force proof", d.id));
            }
        }
        if self.form_differs_fraction() > self.source.form_differs_limit() {
            problems.push(format!(
                "{} form-differs answers ({:.1}%) exceed the limit of {:.0}%",
                self.count(Verdict::FormDiffers),
                100.0 * self.form_differs_fraction(),
                100.0 * self.source.form_differs_limit()
            ));
        }
        problems
    }

    /// The deviation table with what happened to each entry, for the test's output.
    pub fn deviation_report(&self, deviations: &[Deviation]) -> String {
        let mut out = String::new();
        for d in deviations {
            let kind = match d.kind {
                DeviationKind::Policy => "policy",
                DeviationKind::Bug => "BUG",
            };
            let now = self.outcomes.iter().find(|o| o.record.id == d.id);
            let status = now.map_or("missing".to_string(), |o| o.judgement.verdict.label().to_string());
            out.push_str(&format!("  [{kind}] {} {} ({status}): {}\n", d.id, d.expr, d.reason));
        }
        out
    }

    /// Prints the summary and the deviations, then panics with every problem, if any.
    pub fn assert_passes(&self, deviations: &[Deviation]) {
        println!("{}", self.summary(5));
        println!("deviations:\n{}", self.deviation_report(deviations));
        let problems = self.problems(deviations);
        assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
    }
}
