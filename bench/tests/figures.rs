//! The figures users read are the ones the benchmark data gives.

use mcp_wit_bench::figures;

#[test]
fn the_pages_quote_the_data() {
    let root = figures::workspace_root();
    let stale = figures::stale(&root).expect("the figures render from bench/results");
    assert!(
        stale.is_empty(),
        "{} differ from the benchmark data: run `cargo run -p mcp-wit-bench --bin figures` to update",
        stale.iter().map(|p| p.strip_prefix(&root).unwrap_or(p).display().to_string()).collect::<Vec<_>>().join(", ")
    );
}
