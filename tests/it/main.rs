//! The integration tests of mcp-wit: one module per area, all in one test
//! binary. Every test binary links Wasmtime, so one binary links it once
//! instead of once per area (the link time and disk of `cargo test`). What
//! the areas share is the library, `mcp_wit_tests::support`. A new area is
//! a file here and its `mod` line below. Run one area with
//! `cargo test -p mcp-wit-tests --test it AREA::`.

mod apps;
mod auth;
mod command_servers;
mod compile_cache;
mod compose;
mod config_file;
mod contract_25_6_18;
mod embedded_talk_back;
mod embedding;
mod engine_talk_back;
mod engines;
mod guests;
mod hardening;
mod http;
mod http_servers;
mod isolation;
mod load;
mod mapping;
mod modern;
mod one_door;
mod overload;
mod peers;
mod plugins;
mod python_sdk;
mod recordings;
mod registry;
mod replicas;
mod rmcp_eras;
mod routers;
mod stdio;
mod talk_back;
mod tasks;
mod telemetry;
mod telemetry_harness;
mod typed;
mod typescript_sdk;
mod user_errors;
mod validation;
