//! `extism:host/env`: the Extism kernel, as host functions over memory the
//! host keeps for each plugin instance.
//!
//! Extism links a small kernel module that keeps a plugin's data (its input,
//! output, error and every block it allocates) in the kernel's own linear
//! memory; a plugin reaches it only through these functions, by offset. The
//! same functions over a host-side arena behave the same for the plugin (an
//! offset is a handle, never a pointer into its memory) and need no second
//! module nor the `externref` global the real kernel uses. What is
//! observable is Extism's: 0 is the null handle and a failed allocation,
//! `length` of anything but a live block is 0, loads outside the kernel's
//! memory read 0 and stores there are ignored (the kernel's bounds
//! checking), `output_set` and `error_set` ignore ranges outside it, and
//! [`Kernel::reset`] clears everything but the plugin's variables before
//! each call.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use wasmtime::{Caller, Linker};

use crate::runtime::budget::InstanceMemory;

/// The import module of the kernel's functions.
pub const ENV_MODULE: &str = "extism:host/env";

/// The kernel functions this host provides, as plugins import them.
pub const ENV_FUNCTIONS: [&str; 22] = [
    "alloc",
    "free",
    "length",
    "length_unsafe",
    "load_u8",
    "load_u64",
    "store_u8",
    "store_u64",
    "input_length",
    "input_load_u8",
    "input_load_u64",
    "output_set",
    "error_set",
    "config_get",
    "var_get",
    "var_set",
    "log_trace",
    "log_debug",
    "log_info",
    "log_warn",
    "log_error",
    "get_log_level",
];

/// The kernel's HTTP functions (`plugin/http_request.rs`, feature `outgoing-http`).
pub const HTTP_FUNCTIONS: [&str; 3] = ["http_request", "http_status_code", "http_headers"];

/// Offsets start here: 0 is the null handle.
const BASE: u64 = 1;

/// Extism's default cap on the bytes of a plugin's variables.
pub const DEFAULT_MAX_VAR_BYTES: usize = 1024 * 1024;

/// A plugin log level as `get_log_level` reports it (extism-pdk's
/// `LogLevel`: trace 0 … error 4); a message of a lower level is not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PluginLogLevel {
    /// `log_trace`.
    Trace = 0,
    /// `log_debug`.
    Debug = 1,
    /// `log_info`.
    Info = 2,
    /// `log_warn`.
    Warn = 3,
    /// `log_error`.
    Error = 4,
}

impl PluginLogLevel {
    /// The most detailed level the host's log records plugins' messages at
    /// (they are logged from `runtime::instance::plugin`): a plugin asks
    /// with `get_log_level`, and formats nothing that would be dropped.
    fn recorded() -> Self {
        use tracing::{Level, enabled};
        const TARGET: &str = "mcp_wit::runtime::instance::plugin";
        match () {
            () if enabled!(target: TARGET, Level::TRACE) => PluginLogLevel::Trace,
            () if enabled!(target: TARGET, Level::DEBUG) => PluginLogLevel::Debug,
            () if enabled!(target: TARGET, Level::INFO) => PluginLogLevel::Info,
            () if enabled!(target: TARGET, Level::WARN) => PluginLogLevel::Warn,
            () => PluginLogLevel::Error,
        }
    }
}

/// One allocation: its data starts at its key in [`Kernel::blocks`].
#[derive(Debug, Clone, Copy)]
struct Block {
    /// Bytes reserved.
    size: u64,
    /// Bytes asked for the last time it was handed out (`length`).
    used: u64,
    live: bool,
}

/// A log message a plugin sent (`log_*`), kept until the host takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginLog {
    /// Which `log_*` sent it.
    pub level: PluginLogLevel,
    /// Its text (UTF-8, invalid bytes replaced).
    pub message: String,
}

/// Why a kernel function stopped the plugin.
#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    /// `var_set` beyond the limit on the variables' bytes.
    #[error("the plugin's variables would take {needed} bytes, over the limit of {limit}")]
    VarsTooLarge {
        /// Bytes the variables would take.
        needed: usize,
        /// The limit.
        limit: usize,
    },
}

/// One plugin instance's kernel state.
#[derive(Debug)]
pub struct Kernel {
    /// The bytes of every block, block after block, from offset [`BASE`].
    memory: Vec<u8>,
    blocks: BTreeMap<u64, Block>,
    /// Where what `memory` holds is counted: the plugin instance's cap and
    /// the server's budget, which the plugin's linear memory draws from
    /// too. An allocation that does not fit fails (0).
    account: Arc<InstanceMemory>,
    /// The bytes of `memory`'s capacity counted in `account`.
    counted: usize,
    input: (u64, u64),
    output: (u64, u64),
    error: u64,
    /// Survive [`Kernel::reset`], as Extism's do.
    vars: HashMap<String, Vec<u8>>,
    max_var_bytes: usize,
    config: Arc<BTreeMap<String, String>>,
    log_level: PluginLogLevel,
    logs: Vec<PluginLog>,
    /// The last HTTP response's status (`http_status_code`) and headers
    /// (`http_headers`): kept until the next request, as Extism keeps them.
    http_status: i32,
    http_headers: BTreeMap<String, String>,
}

impl Kernel {
    /// A kernel whose memory is counted in `account` (the plugin
    /// instance's), with the plugin's `config` (for `config_get`).
    pub fn new(account: Arc<InstanceMemory>, config: Arc<BTreeMap<String, String>>) -> Self {
        Kernel {
            memory: Vec::new(),
            blocks: BTreeMap::new(),
            account,
            counted: 0,
            input: (0, 0),
            output: (0, 0),
            error: 0,
            vars: HashMap::new(),
            max_var_bytes: DEFAULT_MAX_VAR_BYTES,
            config,
            log_level: PluginLogLevel::recorded(),
            logs: Vec::new(),
            http_status: 0,
            http_headers: BTreeMap::new(),
        }
    }

    /// Forgets every block, the input, the output and the error (not the
    /// variables): what Extism does before each call.
    pub fn reset(&mut self) {
        self.memory.clear();
        self.blocks.clear();
        self.input = (0, 0);
        self.output = (0, 0);
        self.error = 0;
    }

    /// Copies `input` into a block and makes it the call's input.
    /// `None` when it does not fit the kernel's memory.
    pub fn set_input(&mut self, input: &[u8]) -> Option<()> {
        if input.is_empty() {
            self.input = (0, 0);
            return Some(());
        }
        let handle = self.alloc(input.len() as u64);
        if handle == 0 {
            return None;
        }
        self.write(handle, input);
        self.input = (handle, input.len() as u64);
        Some(())
    }

    /// The call's output (`output_set`), empty when none was set.
    pub fn output(&self) -> &[u8] {
        self.range(self.output.0, self.output.1).unwrap_or_default()
    }

    /// The error the plugin set (`error_set`), as Extism reads it: the
    /// whole live block at that offset.
    pub fn error(&self) -> Option<String> {
        (self.error != 0).then(|| String::from_utf8_lossy(self.block(self.error)).into_owned())
    }

    /// Bytes the kernel's memory can still give out, as far as the
    /// instance's cap goes (the server's budget may give less).
    pub fn room(&self) -> usize {
        let counted_free = self.counted - self.memory.len();
        counted_free + self.account.cap().saturating_sub(self.account.held())
    }

    /// Makes `memory` able to hold `required` bytes, counted in the
    /// account: growing by doubling when the account has room, else by what
    /// is needed. `false` when even that does not fit.
    fn make_room(&mut self, required: usize) -> bool {
        if required <= self.counted {
            return true;
        }
        let doubled = required.max(self.counted.saturating_mul(2));
        let target = match self.account.grow(doubled - self.counted) {
            Ok(()) => doubled,
            Err(_) if doubled > required && self.account.grow(required - self.counted).is_ok() => required,
            Err(_) => return false,
        };
        self.memory.reserve_exact(target - self.memory.len());
        self.counted = target;
        true
    }

    /// Records the last HTTP response's status and headers.
    pub fn set_http_response(&mut self, status: i32, headers: BTreeMap<String, String>) {
        self.http_status = status;
        self.http_headers = headers;
    }

    /// The last HTTP response's status (`http_status_code`; 0 before any).
    pub fn http_status(&self) -> i32 {
        self.http_status
    }

    /// The last HTTP response's headers (`http_headers`).
    pub fn http_headers(&self) -> &BTreeMap<String, String> {
        &self.http_headers
    }

    /// The log messages sent since the last call of this.
    pub fn take_logs(&mut self) -> Vec<PluginLog> {
        std::mem::take(&mut self.logs)
    }

    // The functions of `extism:host/env`.

    /// A block of `n` bytes: a free one large enough, else a new one; 0
    /// for 0 bytes or when memory is exhausted.
    pub fn alloc(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        if let Some((&offset, block)) = self.blocks.iter_mut().find(|(_, b)| !b.live && b.size >= n) {
            block.live = true;
            block.used = n;
            // Extism hands reused blocks out as they were left.
            return offset;
        }
        let Ok(size) = usize::try_from(n) else { return 0 };
        let Some(required) = self.memory.len().checked_add(size) else { return 0 };
        if !self.make_room(required) {
            return 0;
        }
        let offset = BASE + self.memory.len() as u64;
        self.memory.resize(self.memory.len() + size, 0);
        self.blocks.insert(offset, Block { size: n, used: n, live: true });
        offset
    }

    /// Frees the live block at `offset` (anything else is ignored); freeing
    /// the input's block empties the input.
    pub fn free(&mut self, offset: u64) {
        if let Some(block) = self.blocks.get_mut(&offset).filter(|b| b.live) {
            block.live = false;
            if offset == self.input.0 {
                self.input.1 = 0;
            }
        }
    }

    /// The length of the live block at `offset`, else 0.
    pub fn length(&self, offset: u64) -> u64 {
        self.blocks.get(&offset).filter(|b| b.live).map_or(0, |b| b.used)
    }

    /// The byte at `offset`; 0 outside the kernel's memory.
    pub fn load_u8(&self, offset: u64) -> u8 {
        self.range(offset, 1).map_or(0, |b| b[0])
    }

    /// The little-endian `u64` at `offset`; 0 unless all of it lies in the kernel's memory.
    pub fn load_u64(&self, offset: u64) -> u64 {
        self.range(offset, 8).map_or(0, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    /// Writes a byte at `offset`; ignored outside the kernel's memory.
    pub fn store_u8(&mut self, offset: u64, value: u8) {
        if let Some(slot) = self.range_mut(offset, 1) {
            slot[0] = value;
        }
    }

    /// Writes a little-endian `u64` at `offset`; ignored unless all of it fits.
    pub fn store_u64(&mut self, offset: u64, value: u64) {
        if let Some(slot) = self.range_mut(offset, 8) {
            slot.copy_from_slice(&value.to_le_bytes());
        }
    }

    /// The length of the call's input.
    pub fn input_length(&self) -> u64 {
        self.input.1
    }

    /// The input's byte at `offset`; 0 past its end.
    pub fn input_load_u8(&self, offset: u64) -> u8 {
        self.input_range(offset, 1).map_or(0, |b| b[0])
    }

    /// The input's `u64` at `offset`; 0 unless all of it lies in the input.
    pub fn input_load_u64(&self, offset: u64) -> u64 {
        self.input_range(offset, 8).map_or(0, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    /// Ignored unless `[offset, offset + length)` lies in the kernel's memory.
    pub fn output_set(&mut self, offset: u64, length: u64) {
        if self.range(offset, length).is_some() && (offset != 0 || length == 0) {
            self.output = (offset, length);
        }
    }

    /// 0 clears the error; an offset outside the kernel's memory is ignored.
    pub fn error_set(&mut self, offset: u64) {
        if offset == 0 || self.range(offset, 1).is_some() {
            self.error = offset;
        }
    }

    /// The value of the config key in the block at `key`, in a new block;
    /// 0 when there is none.
    pub fn config_get(&mut self, key: u64) -> u64 {
        let key = String::from_utf8_lossy(self.block(key)).into_owned();
        let Some(value) = self.config.get(&key).cloned() else { return 0 };
        self.new_block(value.as_bytes())
    }

    /// The variable named in the block at `key`, in a new block; 0 when unset.
    pub fn var_get(&mut self, key: u64) -> u64 {
        let key = String::from_utf8_lossy(self.block(key)).into_owned();
        let Some(value) = self.vars.get(&key).cloned() else { return 0 };
        self.new_block(&value)
    }

    /// Sets the variable named in the block at `key` to the block at
    /// `value`; a `value` of 0 removes it.
    pub fn var_set(&mut self, key: u64, value: u64) -> Result<(), KernelError> {
        let key = String::from_utf8_lossy(self.block(key)).into_owned();
        if value == 0 {
            self.vars.remove(&key);
            return Ok(());
        }
        let value = self.block(value).to_vec();
        let others: usize = self.vars.iter().filter(|(k, _)| **k != key).map(|(k, v)| k.len() + v.len()).sum();
        let needed = others + key.len() + value.len();
        if needed > self.max_var_bytes {
            return Err(KernelError::VarsTooLarge { needed, limit: self.max_var_bytes });
        }
        self.vars.insert(key, value);
        Ok(())
    }

    /// Keeps the message in the block at `offset` if `level` passes.
    pub fn log(&mut self, level: PluginLogLevel, offset: u64) {
        if level >= self.log_level {
            let message = String::from_utf8_lossy(self.block(offset)).into_owned();
            self.logs.push(PluginLog { level, message });
        }
    }

    /// The level as `get_log_level` reports it.
    pub fn get_log_level(&self) -> i32 {
        self.log_level as i32
    }

    // Helpers.

    /// A new block holding `bytes` (0 when empty or out of memory).
    pub fn new_block(&mut self, bytes: &[u8]) -> u64 {
        let handle = self.alloc(bytes.len() as u64);
        if handle != 0 {
            self.write(handle, bytes);
        }
        handle
    }

    fn write(&mut self, offset: u64, bytes: &[u8]) {
        if let Some(slot) = self.range_mut(offset, bytes.len() as u64) {
            slot.copy_from_slice(bytes);
        }
    }

    /// The used bytes of the live block at `offset`; empty for anything else.
    pub fn block(&self, offset: u64) -> &[u8] {
        self.range(offset, self.length(offset)).unwrap_or_default()
    }

    /// `length` bytes at `offset`, if all lie in the kernel's memory.
    fn range(&self, offset: u64, length: u64) -> Option<&[u8]> {
        let (start, end) = self.bounds(offset, length)?;
        Some(&self.memory[start..end])
    }

    fn range_mut(&mut self, offset: u64, length: u64) -> Option<&mut [u8]> {
        let (start, end) = self.bounds(offset, length)?;
        Some(&mut self.memory[start..end])
    }

    fn bounds(&self, offset: u64, length: u64) -> Option<(usize, usize)> {
        let start = usize::try_from(offset.checked_sub(BASE)?).ok()?;
        let end = start.checked_add(usize::try_from(length).ok()?)?;
        (end <= self.memory.len()).then_some((start, end))
    }

    /// `length` bytes at `offset` of the input.
    fn input_range(&self, offset: u64, length: u64) -> Option<&[u8]> {
        let end = offset.checked_add(length)?;
        if end > self.input.1 {
            return None;
        }
        self.range(self.input.0 + offset, length)
    }
}

/// A store's data that holds a [`Kernel`].
pub trait KernelView {
    /// The instance's kernel.
    fn kernel(&mut self) -> &mut Kernel;
}

/// Defines the kernel's functions in `linker`.
pub fn add_to_linker<T: KernelView + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    fn kernel<'a, T: KernelView>(caller: &'a mut Caller<'_, T>) -> &'a mut Kernel {
        caller.data_mut().kernel()
    }
    let m = ENV_MODULE;
    linker.func_wrap(m, "alloc", |mut c: Caller<'_, T>, n: u64| kernel(&mut c).alloc(n))?;
    linker.func_wrap(m, "free", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).free(p))?;
    linker.func_wrap(m, "length", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).length(p))?;
    linker.func_wrap(m, "length_unsafe", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).length(p))?;
    linker.func_wrap(m, "load_u8", |mut c: Caller<'_, T>, p: u64| u32::from(kernel(&mut c).load_u8(p)))?;
    linker.func_wrap(m, "load_u64", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).load_u64(p))?;
    linker.func_wrap(m, "store_u8", |mut c: Caller<'_, T>, p: u64, v: u32| kernel(&mut c).store_u8(p, v as u8))?;
    linker.func_wrap(m, "store_u64", |mut c: Caller<'_, T>, p: u64, v: u64| kernel(&mut c).store_u64(p, v))?;
    linker.func_wrap(m, "input_length", |mut c: Caller<'_, T>| kernel(&mut c).input_length())?;
    linker.func_wrap(m, "input_load_u8", |mut c: Caller<'_, T>, p: u64| u32::from(kernel(&mut c).input_load_u8(p)))?;
    linker.func_wrap(m, "input_load_u64", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).input_load_u64(p))?;
    linker.func_wrap(m, "output_set", |mut c: Caller<'_, T>, p: u64, n: u64| kernel(&mut c).output_set(p, n))?;
    linker.func_wrap(m, "error_set", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).error_set(p))?;
    linker.func_wrap(m, "config_get", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).config_get(p))?;
    linker.func_wrap(m, "var_get", |mut c: Caller<'_, T>, p: u64| kernel(&mut c).var_get(p))?;
    linker.func_wrap(m, "var_set", |mut c: Caller<'_, T>, k: u64, v: u64| -> wasmtime::Result<()> {
        Ok(kernel(&mut c).var_set(k, v)?)
    })?;
    for (name, level) in [
        ("log_trace", PluginLogLevel::Trace),
        ("log_debug", PluginLogLevel::Debug),
        ("log_info", PluginLogLevel::Info),
        ("log_warn", PluginLogLevel::Warn),
        ("log_error", PluginLogLevel::Error),
    ] {
        linker.func_wrap(m, name, move |mut c: Caller<'_, T>, p: u64| kernel(&mut c).log(level, p))?;
    }
    linker.func_wrap(m, "get_log_level", |mut c: Caller<'_, T>| kernel(&mut c).get_log_level())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::budget::MemoryBudget;

    fn kernel() -> Kernel {
        let config = BTreeMap::from([("greeting".to_string(), "hi".to_string())]);
        let account = InstanceMemory::new(4 << 20, MemoryBudget::unlimited());
        Kernel::new(account, Arc::new(config))
    }

    #[test]
    fn allocates_frees_and_reuses_blocks() {
        let mut k = kernel();
        assert_eq!(k.alloc(0), 0, "0 bytes is the null handle");
        let a = k.alloc(10);
        let b = k.alloc(4);
        assert!(a != 0 && b != 0 && a != b);
        assert_eq!((k.length(a), k.length(b)), (10, 4));
        assert_eq!(k.length(a + 1), 0, "not the start of a block");
        k.free(a);
        assert_eq!(k.length(a), 0, "a freed block has no length");
        assert_eq!(k.alloc(8), a, "a free block large enough is reused");
        assert_eq!(k.length(a), 8);
        assert_eq!(k.alloc(8 << 20), 0, "beyond the kernel's memory: a failed allocation");
    }

    #[test]
    fn loads_and_stores_stay_in_bounds() {
        let mut k = kernel();
        let a = k.alloc(16);
        k.store_u64(a, 0x0102_0304_0506_0708);
        assert_eq!(k.load_u64(a), 0x0102_0304_0506_0708);
        assert_eq!(k.load_u8(a), 8, "little endian");
        k.store_u64(a + 12, 7);
        assert_eq!(k.load_u64(a + 12), 0, "a store past the end is ignored, a load there reads 0");
        assert_eq!(k.load_u8(0), 0);
        assert_eq!(k.load_u8(u64::MAX), 0);
    }

    #[test]
    fn input_output_and_error_of_a_call() {
        let mut k = kernel();
        k.set_input(b"0123456789").unwrap();
        assert_eq!(k.input_length(), 10);
        assert_eq!(k.input_load_u64(0), u64::from_le_bytes(*b"01234567"));
        assert_eq!(k.input_load_u64(3), 0, "past the input's end");
        assert_eq!(k.input_load_u8(9), b'9');
        let out = k.alloc(3);
        k.store_u8(out, b'o');
        k.store_u8(out + 1, b'k');
        k.output_set(out, 2);
        assert_eq!(k.output(), b"ok");
        k.output_set(out, 8 << 20);
        assert_eq!(k.output(), b"ok", "a range outside the kernel's memory is ignored");
        let message = k.new_block(b"bad input");
        k.error_set(message);
        assert_eq!(k.error().as_deref(), Some("bad input"));
        k.error_set(0);
        assert_eq!(k.error(), None);
        k.reset();
        assert_eq!((k.input_length(), k.output(), k.length(out)), (0, &b""[..], 0));
    }

    #[test]
    fn config_and_variables() {
        let mut k = kernel();
        let key = k.new_block(b"greeting");
        let value = k.config_get(key);
        assert_eq!(k.block(value), b"hi");
        let missing = k.new_block(b"nope");
        assert_eq!(k.config_get(missing), 0);
        let name = k.new_block(b"count");
        let three = k.new_block(b"3");
        k.var_set(name, three).unwrap();
        k.reset();
        let name = k.new_block(b"count");
        let got = k.var_get(name);
        assert_eq!(k.block(got), b"3", "variables survive a reset");
        k.var_set(name, 0).unwrap();
        assert_eq!(k.var_get(name), 0);
        let big = k.alloc(DEFAULT_MAX_VAR_BYTES as u64 / 2 + 1);
        let other = k.new_block(b"other");
        k.var_set(name, big).unwrap();
        assert!(matches!(k.var_set(other, big), Err(KernelError::VarsTooLarge { .. })));
    }

    #[test]
    fn logs_pass_the_level() {
        let mut k = kernel();
        k.log_level = PluginLogLevel::Warn;
        let message = k.new_block(b"careful");
        k.log(PluginLogLevel::Info, message);
        k.log(PluginLogLevel::Error, message);
        assert_eq!(k.take_logs(), [PluginLog { level: PluginLogLevel::Error, message: "careful".into() }]);
        assert_eq!(k.get_log_level(), 3);
    }

    #[test]
    fn the_level_is_what_the_host_records() {
        use tracing_subscriber::{filter::Targets, layer::SubscriberExt};
        for (recorded, reported) in [(tracing::Level::DEBUG, 1), (tracing::Level::WARN, 3)] {
            let filter = Targets::new().with_target("mcp_wit::runtime::instance::plugin", recorded);
            let subscriber = tracing_subscriber::registry().with(filter);
            tracing::subscriber::with_default(subscriber, || assert_eq!(kernel().get_log_level(), reported));
        }
    }
}
