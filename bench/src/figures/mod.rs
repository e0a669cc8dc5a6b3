//! The figures users read, generated from the data the benchmarks wrote.
//!
//! The table of `docs/users/performance.md` and the "Fast." bullet of
//! `README.md` sit between markers (`<!-- figures: begin NAME -->` …
//! `<!-- figures: end -->`) and are rendered here from results files under
//! `bench/results/`, never typed. [`FIGURES`] is the one list of what is
//! quoted: each figure names the study (a dated folder, or the newest report
//! run that measured it), the file and the path to its value in the JSON.
//! `report` rewrites the pages after a run, `figures` from the data at hand,
//! and `tests/figures.rs` fails while the pages differ from what the data
//! gives.
//!
//! A path is fields joined by `.`; `[key=value,...]` keeps the array's
//! elements whose fields match (numbers compare as numbers). A JSON Lines
//! file is one array of its lines. When several elements match (the
//! repetitions of a run), the figure is their median. One `{a|b|c}` in the
//! path measures each alternative apart, and the figure is their range.

mod criterion;
mod pages;
mod quoted;
mod resolve;

pub use criterion::{criterion_records, record_criterion};
pub use pages::{render, stale, workspace_root, write};
pub use quoted::{FIGURES, Figure, Source};
