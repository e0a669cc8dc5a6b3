//! The contract's values from wasmtime's bindings to the protocol core's
//! plain types ([`mcp_wit_protocol::contract`]), and back for arguments:
//! the list shared with every other embedding of the core
//! ([`mcp_wit_protocol::contract_from_wit`]).

use super::bindings::wit;

mcp_wit_protocol::contract_from_wit!();
