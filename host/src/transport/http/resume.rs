//! Resumable request streams (2025-11-25, SEP-1699).
//!
//! On a session at 2025-11-25 or later, each SSE stream that answers a POST
//! opens with a priming event (an id, a `retry` hint, empty data) and every
//! event carries an id `STREAM-SEQ`. The events are kept while the request
//! runs, so a client whose connection dropped can come back with
//! `GET /mcp` + `Last-Event-ID` and get what it missed, then the rest live.
//! A stream's record goes once it was delivered to the end; a few records of
//! streams whose client went away are kept for late resumption.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use axum::body::Bytes;
use tokio::sync::mpsc;

use super::sse;

/// The reconnection delay suggested to clients.
pub const RETRY: Duration = Duration::from_secs(2);

/// The reconnection delay SSE streams suggest to clients (`retry:`), in
/// milliseconds.
pub const SSE_RETRY_MS: u32 = RETRY.as_millis() as u32;

/// Finished but undelivered streams kept per session.
const KEPT_STREAMS: usize = 8;

/// Bytes of events kept per stream; beyond it the stream can no longer be
/// resumed from before that point.
const MAX_STREAM_BYTES: usize = 16 << 20;

/// The event records of one session's request streams.
#[derive(Default)]
pub struct EventLog {
    inner: Mutex<Log>,
}

#[derive(Default)]
struct Log {
    next_stream: u64,
    streams: VecDeque<StreamLog>,
}

struct StreamLog {
    id: u64,
    /// Sequence number of the next event (the priming event is 0).
    next_seq: u64,
    /// Events after the priming one, from sequence number 1 on.
    events: Vec<Bytes>,
    bytes: usize,
    /// Events stopped being kept (too many bytes).
    truncated: bool,
    /// The request has been answered: no more events.
    done: bool,
    /// Where events go now, while a client is connected.
    live: Option<mpsc::Sender<Bytes>>,
}

impl Log {
    fn new_stream_id(&mut self) -> u64 {
        self.next_stream += 1;
        self.next_stream - 1
    }
}

impl EventLog {
    fn log(&self) -> MutexGuard<'_, Log> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Opens a stream whose events go to `live`; returns its id and the
    /// priming event to send first.
    pub fn open(&self, live: mpsc::Sender<Bytes>) -> (u64, Bytes) {
        let mut log = self.log();
        let id = log.new_stream_id();
        log.streams.push_back(StreamLog {
            id,
            next_seq: 1,
            events: Vec::new(),
            bytes: 0,
            truncated: false,
            done: false,
            live: Some(live),
        });
        (id, priming(id))
    }

    /// The body of a stream whose request was answered before anything was
    /// sent: its priming event, then each message with its id. Nothing is
    /// kept, as for a stream delivered to its end.
    pub fn whole(&self, messages: &[Vec<u8>]) -> Vec<u8> {
        let id = self.log().new_stream_id();
        let mut body = priming(id).to_vec();
        for (seq, message) in (1..).zip(messages) {
            sse::write_message(&mut body, Some(&format!("{id}-{seq}")), message);
        }
        body
    }

    /// Records one message of stream `id`: the event to send, and where.
    pub(super) fn record(&self, id: u64, message: &[u8]) -> (Bytes, Option<mpsc::Sender<Bytes>>) {
        let mut log = self.log();
        let Some(stream) = log.streams.iter_mut().find(|s| s.id == id) else {
            return (Bytes::new(), None);
        };
        let event = sse::message_with_id(&format!("{id}-{}", stream.next_seq), message);
        stream.next_seq += 1;
        if !stream.truncated && stream.bytes + event.len() <= MAX_STREAM_BYTES {
            stream.bytes += event.len();
            stream.events.push(event.clone());
        } else {
            stream.truncated = true;
        }
        (event, stream.live.clone())
    }

    /// The client of stream `id` went away: keep recording for a resumption.
    pub(super) fn lost(&self, id: u64, sender: &mpsc::Sender<Bytes>) {
        let mut log = self.log();
        if let Some(stream) = log.streams.iter_mut().find(|s| s.id == id)
            && stream.live.as_ref().is_some_and(|live| live.same_channel(sender))
        {
            stream.live = None;
        }
    }

    /// Stream `id` got its response: its connection ends once it has sent
    /// what is queued.
    fn finish(&self, id: u64) {
        let mut log = self.log();
        if let Some(stream) = log.streams.iter_mut().find(|s| s.id == id) {
            stream.done = true;
            stream.live = None;
        }
        // Keep only the newest few finished streams.
        let finished = log.streams.iter().filter(|s| s.done).count();
        for _ in KEPT_STREAMS..finished {
            if let Some(at) = log.streams.iter().position(|s| s.done) {
                log.streams.remove(at);
            }
        }
    }

    /// A connection of stream `id` delivered everything to the end: the
    /// record is no longer needed.
    pub fn delivered(&self, id: u64) {
        let mut log = self.log();
        if let Some(at) = log.streams.iter().position(|s| s.id == id && s.done) {
            log.streams.remove(at);
        }
    }

    /// Resumes after `last_event_id`: the stream, the events missed and, while
    /// the request still runs, a receiver for the ones to come. `None` when
    /// the id names no stream this session still holds.
    pub fn resume(&self, last_event_id: &str) -> Option<(u64, Vec<Bytes>, Option<mpsc::Receiver<Bytes>>)> {
        let (id, seq) = last_event_id.trim().split_once('-')?;
        let (id, seq): (u64, u64) = (id.parse().ok()?, seq.parse().ok()?);
        let mut log = self.log();
        let stream = log.streams.iter_mut().find(|s| s.id == id)?;
        if seq >= stream.next_seq {
            return None;
        }
        // Events 1..=kept are kept; everything after `seq` must be among them.
        let kept = stream.events.len() as u64;
        if seq < kept + 1 && kept + 1 < stream.next_seq {
            return None;
        }
        let replay = stream.events.get(seq as usize..).map(<[Bytes]>::to_vec).unwrap_or_default();
        let rx = (!stream.done).then(|| {
            let (tx, rx) = mpsc::channel(sse::CHANNEL_CAPACITY);
            stream.live = Some(tx);
            rx
        });
        Some((id, replay, rx))
    }
}

/// `id: N-0`, a `retry` hint and empty data.
fn priming(id: u64) -> Bytes {
    Bytes::from(format!("id: {id}-0\nretry: {}\ndata:\n\n", RETRY.as_millis()))
}

/// Writes a request's messages to its resumable stream; the stream ends
/// when this is dropped.
pub struct LoggedEvents {
    log: std::sync::Arc<EventLog>,
    stream: u64,
}

impl LoggedEvents {
    /// The writer of stream `stream` of a session's event `log`.
    pub fn new(log: std::sync::Arc<EventLog>, stream: u64) -> Self {
        LoggedEvents { log, stream }
    }

    /// Records `messages` in order, and sends each to the client while it
    /// listens.
    pub async fn deliver(self, messages: Vec<Vec<u8>>) {
        for message in messages {
            let (event, live) = self.log.record(self.stream, &message);
            if let Some(live) = live
                && live.send(event).await.is_err()
            {
                tracing::debug!(stream = self.stream, "the client left; events are kept for a resumption");
                self.log.lost(self.stream, &live);
            }
        }
    }
}

impl Drop for LoggedEvents {
    fn drop(&mut self) {
        self.log.finish(self.stream);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_what_a_client_missed_and_forgets_delivered_streams() {
        let log = EventLog::default();
        let (first_tx, mut first_rx) = mpsc::channel(8);
        let (id, priming) = log.open(first_tx);
        assert_eq!(&priming[..], b"id: 0-0\nretry: 2000\ndata:\n\n");
        let (event, live) = log.record(id, b"{\"n\":1}");
        assert_eq!(&event[..], b"event: message\nid: 0-1\ndata: {\"n\":1}\n\n");
        live.unwrap().try_send(event).unwrap();
        assert!(first_rx.try_recv().is_ok());

        // The client goes; the next message is only recorded.
        drop(first_rx);
        let (event, live) = log.record(id, b"{\"n\":2}");
        let live = live.unwrap();
        assert!(live.try_send(event).is_err());
        log.lost(id, &live);
        assert!(log.record(id, b"{\"n\":3}").1.is_none());

        // Resuming after 0-1 replays 2 and 3, then goes on live.
        let (_, replay, rx) = log.resume("0-1").expect("resumable");
        assert_eq!(replay.len(), 2);
        assert!(replay[0].ends_with(b"data: {\"n\":2}\n\n"));
        let mut rx = rx.expect("still running");
        let (event, live) = log.record(id, b"{\"n\":4}");
        live.unwrap().try_send(event).unwrap();
        assert!(rx.try_recv().unwrap().ends_with(b"data: {\"n\":4}\n\n"));
        log.finish(id);
        assert!(rx.try_recv().is_err(), "the stream ends with its request");

        // Finished: a resumption replays and ends; once delivered, it is gone.
        let (_, replay, rx) = log.resume("0-3").unwrap();
        assert_eq!(replay.len(), 1);
        assert!(rx.is_none());
        log.delivered(id);
        assert!(log.resume("0-3").is_none());
        assert!(log.resume("7-1").is_none());
        assert!(log.resume("garbage").is_none());
    }
}
