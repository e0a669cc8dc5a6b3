//! Requests of an in-process caller (the embedding API): no JSON-RPC
//! envelope built or parsed, the bare result handed back.

use serde_json::value::RawValue;

use super::client_session::Session;
use super::output::Outbox;
use crate::executor::block_on;
use crate::jsonrpc::{RpcError, code};
use crate::method::Method;
use crate::router::{CallMode, RouterComponent};
use crate::version::ProtocolVersion;

impl<C: RouterComponent> Session<C> {
    /// Answers one request for an in-process caller, with blocking guest
    /// calls: no JSON-RPC envelope is built or parsed. The result comes back
    /// as its JSON text (MCP's shape, as any transport would send it);
    /// notifications the request produces (e.g. progress) go to
    /// `notifications` as whole messages. As on any transport, `params`
    /// carrying a 2026-07-28 envelope make it a modern request.
    ///
    /// `id` is the request's JSON id, by which [`Canceller::cancel`](crate::Canceller::cancel) finds it.
    pub fn call(
        &mut self,
        id: &RawValue,
        method: Method,
        params: Option<&RawValue>,
        notifications: &mut dyn Outbox,
    ) -> Result<Box<RawValue>, RpcError> {
        self.ex.request.set_calls(CallMode::Blocking);
        block_on(self.call_in_process(id, method, params, notifications))
    }

    /// [`Self::call`] with async guest calls (see [`Self::handle_async`]).
    pub async fn call_async(
        &mut self,
        id: &RawValue,
        method: Method,
        params: Option<&RawValue>,
        notifications: &mut (dyn Outbox + Send),
    ) -> Result<Box<RawValue>, RpcError> {
        self.ex.request.set_calls(CallMode::Async);
        self.call_in_process(id, method, params, notifications).await
    }

    /// Initializes the session for an in-process caller named `client`
    /// (name, version), asking for `version`, with blocking guest calls.
    /// Returns the `initialize` result as JSON text.
    pub fn initialize_in_process(
        &mut self,
        client: (&str, &str),
        version: ProtocolVersion,
    ) -> Result<Box<RawValue>, RpcError> {
        self.ex.request.set_calls(CallMode::Blocking);
        let capabilities = RawValue::from_string("{}".into()).expect("an empty object is JSON");
        let params = crate::params::InitializeParams {
            protocol_version: version.as_str().into(),
            capabilities: &capabilities,
            client_info: crate::params::ClientInfo { name: client.0.into(), version: client.1.into() },
        };
        let id = RawValue::from_string("0".into()).expect("0 is JSON");
        self.ex.output.set_bare(true);
        let answered = block_on(self.ex.initialize_with(&id, params, &mut self.state));
        self.ex.output.set_bare(false);
        answered.and_then(|()| self.take_bare_result())
    }

    /// The bare result the request's reply left in the output.
    fn take_bare_result(&mut self) -> Result<Box<RawValue>, RpcError> {
        let text = String::from_utf8(self.ex.output.take()).expect("serde_json writes UTF-8");
        RawValue::from_string(text).map_err(|e| RpcError::internal(format!("cannot read the result: {e}")))
    }

    async fn call_in_process<O: Outbox + ?Sized>(
        &mut self,
        id: &RawValue,
        method: Method,
        params: Option<&RawValue>,
        notifications: &mut O,
    ) -> Result<Box<RawValue>, RpcError> {
        if method == Method::Listen {
            return Err(RpcError::invalid_request(
                "`subscriptions/listen` stays open until it ends: serve it through a transport",
            ));
        }
        self.ex.output.set_bare(true);
        let answered = self.answer_request(id, method.as_str(), Some(method), params, notifications).await;
        self.ex.output.set_bare(false);
        match answered {
            Ok(()) => self.take_bare_result(),
            Err(_) if self.ex.request.cancelled() => {
                Err(RpcError::new(code::INTERNAL_ERROR, "the request was cancelled"))
            }
            Err(error) => Err(error),
        }
    }
}
