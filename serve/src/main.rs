//! `mcp-wit-serve ARGS`: `mcp-wit serve ARGS` over stdio, in an executable
//! that starts sooner (it links neither the compiler, the HTTP transports,
//! the registry client, the trace exporter nor Extism plugins). Whatever else `serve` does
//! it hands, before it reads a message, to the `mcp-wit` beside it (else on
//! `PATH`) with the same arguments.

fn main() -> std::process::ExitCode {
    mcp_wit_cli::run_serve_only()
}
