//! The generated pages: templates filled with the figures, put between their
//! markers, and written or compared.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::quoted::{README_FAST, TABLE};
use super::resolve::{Resolved, resolve};
use crate::results;
use crate::stats::{min_max, thousands};

const PERFORMANCE_PAGE: &str = "docs/users/performance.md";
const README: &str = "README.md";
const END: &str = "<!-- figures: end -->";

fn begin(marker: &str) -> String {
    format!("<!-- figures: begin {marker} -->")
}

/// `template` with each `{name:format}` replaced by its figure; the study
/// folders the figures came from are added to `folders`.
fn fill(template: &str, figures: &BTreeMap<&str, Resolved>, folders: &mut Vec<String>) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').context("a `{` without its `}`")? + open;
        let (name, format) = rest[open + 1..close].split_once(':').unwrap_or((&rest[open + 1..close], "1"));
        let figure = figures.get(name).with_context(|| format!("no figure {name}"))?;
        for folder in &figure.folders {
            if !folders.contains(folder) {
                folders.push(folder.clone());
            }
        }
        out += &rest[..open];
        out += &format_values(&figure.values, format)?;
        rest = &rest[close + 1..];
    }
    out += rest;
    Ok(out)
}

/// One value, or a range "low–high" (one value when both round alike).
fn format_values(values: &[f64], format: &str) -> anyhow::Result<String> {
    let one = |v: f64| -> anyhow::Result<String> {
        Ok(match format {
            "k" => format!("{:.0}k", v / 1000.0),
            "0" => thousands(v),
            decimals => format!("{v:.*}", decimals.parse::<usize>().with_context(|| format!("format {format}"))?),
        })
    };
    let (low, high) = min_max(values);
    let (low, high) = (one(low)?, one(high)?);
    Ok(if low == high { low } else { format!("{low}–{high}") })
}

/// The performance page's table.
fn performance_table(figures: &BTreeMap<&str, Resolved>) -> anyhow::Result<String> {
    let mut out = String::from("| what | mcp-wit | against | measured in |\n| --- | ---: | --- | --- |\n");
    for row in TABLE {
        let mut folders = Vec::new();
        let value = fill(row.value, figures, &mut folders)?;
        let against = fill(row.against, figures, &mut folders)?;
        let studies: Vec<String> =
            folders.iter().map(|f| format!("[{f}](../../bench/results/{f}/)")).collect::<Vec<_>>();
        writeln!(out, "| {} | {value} | {against} | {} |", row.what, studies.join(", "))?;
    }
    Ok(out)
}

/// `text` with the words after `first_column` wrapped at 100 columns, later
/// lines indented by `indent` (a list item's continuation).
fn wrap(text: &str, first_column: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut column = first_column;
    for word in text.split_whitespace() {
        let width = word.chars().count();
        if column > first_column.max(indent.len()) && column + 1 + width > 100 {
            out += "\n";
            out += indent;
            column = indent.len();
        } else if !out.is_empty() {
            out.push(' ');
            column += 1;
        }
        out += word;
        column += width;
    }
    out
}

/// `text` with what lies between the `marker`'s begin and the end marker
/// replaced by what `render` makes of the begin marker's column.
fn replace_region(
    text: &str,
    file: &str,
    marker: &str,
    render: impl FnOnce(usize) -> String,
) -> anyhow::Result<String> {
    let begin = begin(marker);
    let start = text.find(&begin).with_context(|| format!("{file} has no `{begin}`"))? + begin.len();
    let end = text[start..].find(END).with_context(|| format!("{file} has no `{END}` after `{begin}`"))? + start;
    let column = start - text[..start].rfind('\n').map_or(0, |i| i + 1);
    Ok(format!("{}{}{}", &text[..start], render(column), &text[end..]))
}

/// The generated pages as the data gives them: (path under `root`, text).
pub fn render(root: &Path) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let figures = resolve(root)?;
    let table = performance_table(&figures)?;
    let fast = fill(README_FAST, &figures, &mut Vec::new())?;

    let page = std::fs::read_to_string(root.join(PERFORMANCE_PAGE)).context(PERFORMANCE_PAGE)?;
    let page = replace_region(&page, PERFORMANCE_PAGE, "performance-table", |_| format!("\n\n{table}\n"))?;
    let readme = std::fs::read_to_string(root.join(README)).context(README)?;
    let readme = replace_region(&readme, README, "readme-fast", |column| wrap(&fast, column, "  "))?;
    Ok(vec![(root.join(PERFORMANCE_PAGE), page), (root.join(README), readme)])
}

/// The generated pages that differ from what the data gives.
pub fn stale(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut differ = Vec::new();
    for (path, text) in render(root)? {
        if std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))? != text {
            differ.push(path);
        }
    }
    Ok(differ)
}

/// Rewrites the generated pages from the data; returns those that changed.
pub fn write(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let differ = stale(root)?;
    for (path, text) in render(root)? {
        if differ.contains(&path) {
            std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(differ)
}

/// The workspace this crate sits in.
pub fn workspace_root() -> PathBuf {
    results::dir().parent().and_then(Path::parent).expect("bench/results sits in the workspace").to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_ranges_format() {
        assert_eq!(format_values(&[482_897.0], "k").unwrap(), "483k");
        assert_eq!(format_values(&[6.6, 6.64], "1").unwrap(), "6.6");
        assert_eq!(format_values(&[14.7, 17.7, 16.9], "0").unwrap(), "15–18");
        assert_eq!(format_values(&[1_234.6], "0").unwrap(), "1,235");
        assert!(format_values(&[1.0], "x").is_err());
    }

    #[test]
    fn templates_fill_and_name_their_studies() {
        let figures = BTreeMap::from([
            ("a", Resolved { values: vec![4.26], folders: vec!["2026-01-01-x".into()] }),
            ("b", Resolved { values: vec![1.0, 2.0], folders: vec!["2026-01-02-y".into()] }),
        ]);
        let mut folders = Vec::new();
        assert_eq!(fill("{a:1} µs, {b:0}× and {a:2}", &figures, &mut folders).unwrap(), "4.3 µs, 1–2× and 4.26");
        assert_eq!(folders, ["2026-01-01-x", "2026-01-02-y"]);
        assert!(fill("{c:1}", &figures, &mut folders).is_err());
    }

    #[test]
    fn regions_are_replaced_and_text_wrapped() {
        let text = "- **Fast.** <!-- figures: begin f -->old\n  text<!-- figures: end --> (link).\n";
        let replaced = replace_region(text, "t", "f", |column| wrap("new words", column, "  ")).unwrap();
        assert_eq!(replaced, "- **Fast.** <!-- figures: begin f -->new words<!-- figures: end --> (link).\n");
        assert!(replace_region(text, "t", "g", |_| String::new()).is_err());
        let long = ["word"; 30].join(" ");
        for line in wrap(&long, 40, "  ").lines() {
            assert!(line.len() <= 100 - 40 || line.starts_with("  "), "{line}");
        }
        assert!(wrap(&long, 40, "  ").lines().skip(1).all(|l| l.starts_with("  ") && l.len() <= 100));
    }
}
