//! Transports: how messages reach a [`Session`](crate::Session).

#[cfg(feature = "http")]
pub mod http;
mod limits;
pub mod stdio;
mod stdio_tasks;
mod tap;

pub use stdio_tasks::StdioTasks;

pub use tap::{MessageTap, Tap};
