//! Fuzzes the `.mcp` recording reader, [`mcp_wit_record::read`]: any bytes
//! in, a recording or an error out, never a panic.
//!
//! Checked, not just survived:
//! - an error's offset lies within the input;
//! - a recording read is written again, buffer by buffer, and read back the
//!   same: what the reader accepts, the writer can say;
//! - a cut tail is only ever where the input ends: its offset is within it;
//! - any text recorded as a message reads back (the recorder's own reading
//!   of messages and its writing never make a record the reader refuses).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let record = mcp_wit_record::Record {
            session: "s".into(),
            direction: mcp_wit_record::Direction::In,
            at_micros: 0,
            message: serde_json::Value::String(text.into()),
        };
        let mut file = mcp_wit_record::encode_transport(&mcp_wit_record::Transport::Stdio { buffer_size: 1 });
        file.extend(mcp_wit_record::encode_message(&record));
        let read = mcp_wit_record::read(&file).expect("any message recorded reads back");
        assert_eq!(read.records.len(), 1);
    }
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
