//! MCP authorization on HTTP: `mcp-wit serve --auth-issuer …` as an OAuth 2.1
//! resource server. An authorization server's keys are served here on
//! 127.0.0.1 (its metadata and JWKS, which the tests take down, slow down and
//! rotate), and tokens are signed with them as it would sign them; hostile
//! ones too. Every status, challenge and metadata document is checked as the
//! spec words it; every MCP message against its revision's schema.

mod authorization_server;
mod caller;
mod http_server_component;
mod instances;
mod issuer;
mod protected;
mod resource_server;
mod tasks;
mod wrapped;
