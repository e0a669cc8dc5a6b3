//! Transports: how messages reach a [`Session`](crate::protocol::Session).

pub mod http;
pub mod stdio;
