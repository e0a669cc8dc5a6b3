//! Fuzzes the `.mcp` recording reader, [`mcp_wit_record::read`]: any bytes
//! in, a recording or an error out, never a panic.
//!
//! Checked, not just survived:
//! - an error's offset lies within the input;
//! - a recording read is written again, buffer by buffer, and read back the
//!   same: what the reader accepts, the writer can say;
//! - a cut tail is only ever where the input ends: its offset is within it.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match mcp_wit_record::read(data) {
        Err(error) => assert!(error.offset as usize <= data.len(), "{error}"),
        Ok(recording) => {
            if let Some(offset) = recording.truncated_at {
                assert!((offset as usize) < data.len());
            }
            let mut again = mcp_wit_record::encode_transport(&recording.transport);
            for record in &recording.records {
                again.extend(mcp_wit_record::encode_message(record));
            }
            let reread = mcp_wit_record::read(&again).expect("what was read is written back readable");
            assert_eq!(reread.transport, recording.transport);
            assert_eq!(reread.records, recording.records);
            assert_eq!(reread.truncated_at, None);
        }
    }
});
