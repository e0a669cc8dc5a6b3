//! Why a check failed, told briefly: at most [`MAX_REASON_BYTES`] of it.

use std::fmt;

/// The most of a failed check's description a caller is given (a value
/// quoted in it is cut, with its length said).
pub const MAX_REASON_BYTES: usize = 1024;

/// What `describe` writes, up to [`MAX_REASON_BYTES`] (cut on a character
/// boundary, marked `…`): the writer refuses more, so a large value quoted
/// in an error is never written out whole.
pub(super) fn bounded(describe: impl FnOnce(&mut BoundedText) -> fmt::Result) -> String {
    let mut text = BoundedText(String::new());
    if describe(&mut text).is_err() || text.0.len() >= MAX_REASON_BYTES {
        text.0.push('…');
    }
    text.0
}

/// A `String` that takes at most [`MAX_REASON_BYTES`].
pub(super) struct BoundedText(String);

impl fmt::Write for BoundedText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = MAX_REASON_BYTES - self.0.len();
        if s.len() <= room {
            self.0.push_str(s);
            return Ok(());
        }
        self.0.push_str(&s[..s.floor_char_boundary(room)]);
        Err(fmt::Error)
    }
}
