//! The tasks extension (2026-07-28, `io.modelcontextprotocol/tasks`): the
//! fixture tools its conformance scenarios call, calls that become tasks
//! over Streamable HTTP, and tasks shared by replicas through a real
//! Redis-protocol server behind a real load balancer.

mod ext_tasks_client;
mod fixture_tools;
mod over_http;
mod over_stdio;
mod replicas;
mod wire;
