# Common tasks. `just --list` shows them.

# Serve a component over stdio (the built-in demo without one).
serve component="":
    cargo run --release -- serve {{component}}

# The whole test suite (the README's test command): sets the machine up, then
# every test. Arguments go to `cargo test`.
test *args="":
    .ci/test {{args}}

# What CI runs: the tests, the lints, the fuzzer and the conformance suite.
ci:
    bash .ci/run

# rustfmt, clippy and rustdoc with warnings denied, and the protocol core for wasm32-wasip2.
lint:
    .ci/lint

# Fuzz the JSON-RPC entry point (FUZZ_SECONDS, default 60).
fuzz:
    .ci/fuzz

# The official MCP conformance suite against `mcp-wit serve --http`.
conformance:
    .ci/conformance

# Build the guest components in components/.
components:
    cd components && cargo build --release --target wasm32-wasip2

# Build the guest template.
template:
    cd guest-template && cargo build --release --target wasm32-wasip2

# Install the CLI.
install:
    cargo install --path cli

# Benchmarks: mcp-wit vs. native rmcp vs. a bare serde_json floor, over stdio
# and Streamable HTTP (1-256 sessions), memory per idle HTTP session, cold
# start, plus the per-instance microbenchmarks (see BENCHMARKS.md). Writes
# bench/results/<UTC date>-report/ (criterion's estimates too, as its
# criterion.json) and regenerates the figures the performance page and the
# README quote. Options go to `report`, e.g. `just bench --no-http`.
bench *args="":
    cargo run --release -p mcp-wit-bench --bin report -- {{args}}
    cargo bench -p mcp-wit-bench --bench instantiate
    cargo run --release -p mcp-wit-bench --bin figures -- --criterion bench/results/$(date -u +%F)-report

# Plug a router into a middleware: `just compose namespace.wasm my_router.wasm composed.wasm`.
# The result is a router again, so it can be the router of the next compose.
# Needs the wac CLI: `cargo install wac-cli`.
compose middleware router out:
    @command -v wac >/dev/null || { echo "wac not found: install it with 'cargo install wac-cli'" >&2; exit 1; }
    wac plug {{middleware}} --plug {{router}} -o {{out}}

# Wrap a router for engines that run components (wasmtime serve/run, Spin,
# wasmCloud): `just wrap my_router.wasm server.wasm`.
wrap router out:
    cargo run --release -p mcp-wit-cli -- wrap {{router}} -o {{out}}
