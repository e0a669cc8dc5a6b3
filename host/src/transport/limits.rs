//! The limits every transport shares.

/// Default for the size of one message: a stdio line
/// ([`StdioOptions::max_message_size`](super::stdio::StdioOptions::max_message_size))
/// or an HTTP body ([`HttpOptions::max_body_size`](super::http::HttpOptions::max_body_size)): 8 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 8 * 1024 * 1024;
