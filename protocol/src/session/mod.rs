//! Answering MCP requests: one client's session, or one 2026-07-28 request
//! on its own.
//!
//! A [`Session`] takes one JSON-RPC message at a time and writes the messages
//! it produces (notifications, then the response) to an [`Outbox`]. It knows
//! nothing of transports: stdio, HTTP and the embedding API all drive it the
//! same way, and nothing of instances: it calls its routers through
//! [`Router`](crate::Router). A [`StatelessRequest`] answers one 2026-07-28
//! request, as stateless HTTP serves each, without a session around it.
//! Both answer through an `Exchange` (`exchange.rs`), made of what serves
//! the requests (`server.rs`: the routers, the options), what the request
//! being served carries (`in_flight.rs`: its cancellation and context) and
//! where its answer is written (`output.rs`).

mod client_session;
mod completion;
mod era;
mod exchange;
mod guest;
mod handlers;
mod in_flight;
mod in_process;
mod lists;
mod modern;
mod options;
mod output;
mod request;
mod server;
mod stamp;
mod state;
mod stateless;
#[cfg(feature = "validate")]
mod tool_checks;
mod upgrade;
mod watch;

pub use client_session::Session;
pub use modern::Admitted;
pub use options::{DEFAULT_MAX_OUTPUT, DEFAULT_VALIDATION_BUDGET, SessionOptions};
pub use output::Outbox;
pub use stateless::StatelessRequest;

pub use crate::observe::Outcome;
