//! `.mcp` recordings: MCP traffic as size-prefixed FlatBuffers.
//!
//! A recording is a file of FlatBuffers buffers, each size-prefixed (a
//! little-endian `u32` length, then the buffer) and carrying the schema's
//! file identifier `MCPP`. The first buffer's root is a [`fb::Transport`]: how
//! the server was reached. Every other buffer's root is a [`fb::Message`]: one
//! JSON-RPC message, in or out, of one session. The schema is
//! `record/schema/mcp.fbs` (the seed's, with the changes its header lists);
//! [`fb`] is planus's Rust code for it, so any FlatBuffers
//! implementation reads the files (a test reads them with flatc's Python).
//!
//! What the schema has no field for travels in each message's
//! `Metadata.additional_data`, a JSON object (`codec::Context`): the session,
//! the direction, the time, and a JSON-RPC id that is not a `u64` (a string,
//! `null`, a negative or fractional number), for which `RequestId.id` is 0.
//!
//! [`Recorder`] records a live server off its request path, through
//! [`RecordWriter`], which appends records to a file; [`read`] reads one back,
//! checking every buffer (its size, its identifier, the FlatBuffers
//! verification of its whole tree) and saying what is wrong and at which
//! offset. A tail cut short by a crash is reported and left out, never an
//! error.

mod codec;
mod file;
mod layout;
mod recorder;
mod scan;
#[allow(
    clippy::all,
    missing_docs,
    unused,
    unreachable_pub,
    reason = "planus's generated code, as it generates it (`record/schema/mcp.fbs`)"
)]
#[rustfmt::skip]
mod generated;

pub use codec::{Direction, Record, Transport, encode_message, encode_transport};
pub use file::{ReadError, RecordWriter, Recording, read};
pub use generated::mcp::fb;
pub use layout::FILE_IDENTIFIER;
pub use recorder::{REDACTED, RecordTap, Recorder, RecorderOptions, RecordingSummary};
