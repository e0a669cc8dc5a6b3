//! `mcp-wit`: every command of the command line (see the `mcp_wit_cli` library).

fn main() -> std::process::ExitCode {
    mcp_wit_cli::run()
}
