//! Symlinks a guest creates stay inside its grants.
//!
//! WASI resolves every path a guest opens within its preopened directories,
//! so a guest cannot follow a symlink out of them; but the link itself is a
//! file on the host, and host tools (a backup, an editor, another service)
//! do follow it. So the target of a link a guest creates must be relative
//! and must not climb (`..`): it then points inside the directory the link
//! is in, which is inside the grant. Any other is refused with
//! `not-permitted`, before anything is written.
//!
//! Components get `descriptor.symlink-at` replaced by a checking one that
//! hands what passes to wasmtime-wasi's own; Extism plugins (WASI preview 1)
//! get `path_symlink` refused outright.

use std::path::{Component, Path};

use wasmtime::component::{Linker, Resource};
use wasmtime_wasi::WasiView;
use wasmtime_wasi::filesystem::{Descriptor, WasiFilesystemView};
use wasmtime_wasi::p2::FsResult;
use wasmtime_wasi::p2::bindings::filesystem::types::{ErrorCode, HostDescriptor};

/// The interface whose method is replaced, as wasmtime-wasi defines it
/// (guests importing any 0.2 version reach it).
const TYPES: &str = "wasi:filesystem/types@0.2.12";
const SYMLINK_AT: &str = "[method]descriptor.symlink-at";

/// Whether a link to `target` stays in the directory it is made in.
pub fn stays_inside(target: &str) -> bool {
    let path = Path::new(target);
    !target.is_empty() && path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

fn refused(target: &str) -> ErrorCode {
    tracing::warn!(target, "refused a symlink a guest made to point outside the directory it is in");
    ErrorCode::NotPermitted
}

/// What wasmtime-wasi's result means to the guest: its error code, or a
/// trap.
fn to_guest(result: FsResult<()>) -> wasmtime::Result<(Result<(), ErrorCode>,)> {
    match result {
        Ok(()) => Ok((Ok(()),)),
        Err(error) => error.downcast().map(|code| (Err(code),)),
    }
}

/// Replaces `symlink-at` in a linker that has WASI with blocking calls.
pub fn add_to_linker_sync<T: WasiView + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut types = linker.instance(TYPES)?;
    types.func_wrap(
        SYMLINK_AT,
        |mut store: wasmtime::StoreContextMut<'_, T>, (fd, target, link): (Resource<Descriptor>, String, String)| {
            if !stays_inside(&target) {
                return Ok((Err(refused(&target)),));
            }
            let mut view = store.data_mut().filesystem();
            to_guest(wasmtime_wasi::runtime::in_tokio(HostDescriptor::symlink_at(&mut view, fd, target, link)))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Replaces `symlink-at` in a linker that has WASI with async calls.
pub fn add_to_linker_async<T: WasiView + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut types = linker.instance(TYPES)?;
    types.func_wrap_async(
        SYMLINK_AT,
        |mut store: wasmtime::StoreContextMut<'_, T>, (fd, target, link): (Resource<Descriptor>, String, String)| {
            Box::new(async move {
                if !stays_inside(&target) {
                    return Ok((Err(refused(&target)),));
                }
                let mut view = store.data_mut().filesystem();
                to_guest(HostDescriptor::symlink_at(&mut view, fd, target, link).await)
            })
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Refuses `path_symlink` to an Extism plugin (WASI preview 1): `EPERM`.
pub fn add_to_p1_linker<T: 'static>(linker: &mut wasmtime::Linker<T>) -> wasmtime::Result<()> {
    /// WASI preview 1's `errno::perm`.
    const ERRNO_PERM: i32 = 63;
    linker.allow_shadowing(true);
    linker.func_wrap(
        "wasi_snapshot_preview1",
        "path_symlink",
        |_: wasmtime::Caller<'_, T>, _target: i32, _target_len: i32, _fd: i32, _link: i32, _link_len: i32| {
            tracing::warn!("refused a symlink a plugin tried to make");
            ERRNO_PERM
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_links_that_stay_in_their_directory_are_let_through() {
        for inside in ["file", "sub/file", "./file", "a/./b"] {
            assert!(stays_inside(inside), "{inside}");
        }
        for outside in ["", "/etc/passwd", "../up", "sub/../../up", "a/..", "/"] {
            assert!(!stays_inside(outside), "{outside}");
        }
    }
}
