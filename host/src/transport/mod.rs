//! Transports: how messages reach a [`Session`](crate::Session).

#[cfg(feature = "http")]
pub mod http;
pub mod stdio;
mod tap;

pub use tap::{MessageTap, Tap};
