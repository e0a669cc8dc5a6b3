//! `raw-abi`: what the raw-ABI fixture plugins (`servlet`, `hostile-plugin`)
//! share: the kernel's imports (`extism:host/env`), with no PDK, and helpers
//! that move bytes through them one by one, as such plugins do.

/// The kernel's functions, as plugins import them.
pub mod env {
    #[link(wasm_import_module = "extism:host/env")]
    unsafe extern "C" {
        pub fn input_length() -> u64;
        pub fn input_load_u8(offset: u64) -> u8;
        pub fn alloc(length: u64) -> u64;
        pub fn length(offset: u64) -> u64;
        pub fn load_u8(offset: u64) -> u8;
        pub fn load_u64(offset: u64) -> u64;
        pub fn store_u8(offset: u64, value: u8);
        pub fn store_u64(offset: u64, value: u64);
        pub fn output_set(offset: u64, length: u64);
        pub fn error_set(offset: u64);
        pub fn config_get(key: u64) -> u64;
        pub fn var_get(key: u64) -> u64;
        pub fn var_set(key: u64, value: u64);
    }
}

/// Two of the v1-draft host functions, for plugins that call them with
/// what they should not.
pub mod user {
    #[link(wasm_import_module = "extism:host/user")]
    unsafe extern "C" {
        pub fn notify_progress(input: u64);
        pub fn create_message(input: u64) -> u64;
    }
}

/// The call's input.
pub fn input() -> Vec<u8> {
    // SAFETY: the kernel's functions take and return plain integers.
    unsafe { (0..env::input_length()).map(|i| env::input_load_u8(i)).collect() }
}

/// `bytes` in a new block of the kernel's memory.
pub fn to_kernel(bytes: &[u8]) -> u64 {
    // SAFETY: as above.
    unsafe {
        let block = env::alloc(bytes.len() as u64);
        for (i, byte) in bytes.iter().enumerate() {
            env::store_u8(block + i as u64, *byte);
        }
        block
    }
}

/// The bytes of the block at `offset` (none for 0).
pub fn from_kernel(offset: u64) -> Vec<u8> {
    // SAFETY: as above.
    unsafe { (0..env::length(offset)).map(|i| env::load_u8(offset + i)).collect() }
}

/// Sets `bytes` as the call's output; the export's return value (0).
pub fn output(bytes: &[u8]) -> i32 {
    // SAFETY: as above.
    unsafe { env::output_set(to_kernel(bytes), bytes.len() as u64) };
    0
}

/// Sets `message` as the call's error; the export's return value (1).
pub fn fail(message: &str) -> i32 {
    // SAFETY: as above.
    unsafe { env::error_set(to_kernel(message.as_bytes())) };
    1
}
