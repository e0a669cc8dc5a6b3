//! The WIT → MCP mapping, end to end: the library's session serves the
//! `everything` fixture (see `components/everything/README.md`) in this
//! process, as `mcp-wit serve` does over stdio, and a real rmcp client (or a
//! raw line client, where the exact wire shape at one protocol revision
//! matters) checks what each guest value becomes on the wire. (stdio framing
//! and the binary itself are tested in stdio.rs.)

mod completion;
mod content;
mod everything;
mod initialize;
mod logging_and_ping;
mod progress;
mod prompts;
mod resources;
mod tools;
