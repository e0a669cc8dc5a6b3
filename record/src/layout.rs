//! A `Message` buffer written front to back, straight into the output: the
//! four message shapes have fixed tables, so there is nothing for a builder to
//! plan. Hand-written because planus's builder (back to front, then copied
//! out) was a quarter of the recorder's time per message; `decode_message`
//! reads what this writes with planus's generated, verifying reader, and a
//! test reads it with flatc's Python code.
//!
//! A buffer is laid out as FlatBuffers requires: the root offset and the file
//! identifier, then each table after the one that points at it (offsets to
//! tables and strings are unsigned, so they point forward), each table's
//! vtable just before it. Alignment is counted from the buffer's start, as
//! any builder's is; scalars wider than 4 bytes (`RequestId`) sit at a
//! multiple of 8.

/// The schema's `MessageType` discriminants.
const REQUEST: u8 = 1;
const RESPONSE: u8 = 2;
const NOTIFICATION: u8 = 3;
const ERROR: u8 = 4;

/// The schema's `file_identifier`: bytes 4–8 of every buffer.
pub const FILE_IDENTIFIER: [u8; 4] = *b"MCPP";

/// What a message's union member holds besides `jsonrpc` and `meta`.
#[derive(Clone, Copy)]
pub(crate) enum Body<'a> {
    Request { id: u64, method: &'a str, params: Option<&'a str> },
    Notification { method: &'a str, params: Option<&'a str> },
    Response { id: u64, result: &'a str },
    Error { id: u64, code: i32, message: &'a str, data: Option<&'a str> },
}

/// Appends a size-prefixed `Message` buffer to `out`. `additional_data`
/// writes `Metadata.additional_data`'s text (UTF-8) where it is called.
pub(crate) fn write_message(
    out: &mut Vec<u8>,
    jsonrpc: &str,
    body: Body<'_>,
    progress_token: Option<&str>,
    additional_data: impl FnOnce(&mut Vec<u8>),
) {
    let prefix = out.len();
    out.extend_from_slice(&[0; 4]);
    let mut buffer = Forward { base: out.len(), out };
    let root = buffer.reserve(4);
    buffer.out.extend_from_slice(&FILE_IDENTIFIER);

    // table Message { type_type: ubyte (id 0); type: MessageType (id 1) }
    let message = buffer.table(&[8, 4], 9, 4);
    buffer.point(root, message);
    // An absent optional field has 0 in its vtable entry (its bytes stay zero).
    let present = |field: Option<&str>, at: u16| if field.is_some() { at } else { 0 };
    let (kind, member) = match body {
        Body::Request { params, .. } => (REQUEST, buffer.table(&[4, 8, 16, present(params, 20), 24], 28, 8)),
        Body::Response { .. } => (RESPONSE, buffer.table(&[4, 8, 16, 20], 24, 8)),
        Body::Notification { params, .. } => (NOTIFICATION, buffer.table(&[4, 8, present(params, 12), 16], 20, 4)),
        Body::Error { data, .. } => (ERROR, buffer.table(&[4, 8, 16, 20, present(data, 24), 28], 32, 8)),
    };
    buffer.set(message + 8, &[kind]);
    buffer.point(message + 4, member);
    // Every shape has `jsonrpc` first; `meta` is its last field.
    let meta_field = match body {
        Body::Request { id, method, params } => {
            buffer.set(member + 8, &id.to_le_bytes());
            buffer.string(member + 16, method.as_bytes());
            buffer.optional_string(member + 20, params);
            member + 24
        }
        Body::Notification { method, params } => {
            buffer.string(member + 8, method.as_bytes());
            buffer.optional_string(member + 12, params);
            member + 16
        }
        Body::Response { id, result } => {
            buffer.set(member + 8, &id.to_le_bytes());
            buffer.string(member + 16, result.as_bytes());
            member + 20
        }
        Body::Error { id, code, message, data } => {
            buffer.set(member + 8, &id.to_le_bytes());
            buffer.set(member + 16, &code.to_le_bytes());
            buffer.string(member + 20, message.as_bytes());
            buffer.optional_string(member + 24, data);
            member + 28
        }
    };
    buffer.string(member + 4, jsonrpc.as_bytes());

    // table Metadata { progress_token: string (id 0); additional_data: string (id 1) }
    let meta = buffer.table(&[present(progress_token, 4), 8], 12, 4);
    buffer.point(meta_field, meta);
    buffer.optional_string(meta + 4, progress_token);
    buffer.string_with(meta + 8, additional_data);

    let size = (buffer.out.len() - buffer.base) as u32;
    out[prefix..prefix + 4].copy_from_slice(&size.to_le_bytes());
}

/// A buffer being written at the end of `out`, from `base`.
struct Forward<'o> {
    out: &'o mut Vec<u8>,
    base: usize,
}

impl Forward<'_> {
    /// The next byte's position in the buffer.
    fn here(&self) -> usize {
        self.out.len() - self.base
    }

    fn align(&mut self, to: usize) {
        let padding = self.here().next_multiple_of(to) - self.here();
        self.out.extend(std::iter::repeat_n(0, padding));
    }

    /// `size` zero bytes, filled in later; their position.
    fn reserve(&mut self, size: usize) -> usize {
        let at = self.here();
        self.out.resize(self.out.len() + size, 0);
        at
    }

    fn set(&mut self, at: usize, bytes: &[u8]) {
        let at = self.base + at;
        self.out[at..at + bytes.len()].copy_from_slice(bytes);
    }

    /// Points the offset field at `field` at `target`, which lies after it.
    fn point(&mut self, field: usize, target: usize) {
        self.set(field, &((target - field) as u32).to_le_bytes());
    }

    /// A vtable for a table of `size` bytes with its fields at `fields` (0:
    /// absent), then the table, zeroed but for its vtable offset, starting at
    /// a multiple of `align`; the table's position.
    fn table(&mut self, fields: &[u16], size: u16, align: usize) -> usize {
        self.align(2);
        let vtable = self.here();
        self.out.extend_from_slice(&(4 + 2 * fields.len() as u16).to_le_bytes());
        self.out.extend_from_slice(&size.to_le_bytes());
        for field in fields {
            self.out.extend_from_slice(&field.to_le_bytes());
        }
        self.align(align);
        let table = self.reserve(size as usize);
        self.set(table, &((table - vtable) as i32).to_le_bytes());
        table
    }

    /// The string `text` for the offset field at `field`.
    fn string(&mut self, field: usize, text: &[u8]) {
        self.string_with(field, |out| out.extend_from_slice(text));
    }

    /// As [`Self::string`], if there is one (the field's vtable entry says
    /// whether).
    fn optional_string(&mut self, field: usize, text: Option<&str>) {
        if let Some(text) = text {
            self.string(field, text.as_bytes());
        }
    }

    /// A string `write` writes, for the offset field at `field`.
    fn string_with(&mut self, field: usize, write: impl FnOnce(&mut Vec<u8>)) {
        self.align(4);
        let length = self.reserve(4);
        self.point(field, length);
        let start = self.out.len();
        write(self.out);
        let written = (self.out.len() - start) as u32;
        self.set(length, &written.to_le_bytes());
        self.out.push(0);
    }
}
