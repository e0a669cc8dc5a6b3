//! The way back to the client while a router works, for embedders that
//! carry a session over a transport of their own: a [`Peer`] sends the
//! router's questions and notifications to the client.

pub use mcp_wit_protocol::client::{
    AskError, BoxFuture, ClientError, ClientRpcError, Peer, Question, Response, WaitBound,
};
