//! Transports: how messages reach a [`Session`](crate::Session).

#[cfg(feature = "http")]
pub mod http;
mod limits;
pub mod stdio;
mod tap;

pub use tap::{MessageTap, Tap};
