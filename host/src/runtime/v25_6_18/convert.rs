//! 25.6.18's values from wasmtime's bindings to the protocol core's: the
//! conversions shared with every other embedding of the core
//! ([`mcp_wit_protocol::contract_from_wit_25_6_18`]), through the one
//! `IntoContract` trait 25.3.26's values use, with its impls for options,
//! lists and results.

use super::wit;
use crate::runtime::convert::IntoContract;

mcp_wit_protocol::contract_from_wit_25_6_18!();
