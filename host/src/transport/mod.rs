//! Transports: how messages reach a [`Session`](crate::protocol::Session).

pub mod stdio;
