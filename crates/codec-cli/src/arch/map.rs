//! A regular file mapped for reading, held still by a read lease.
//!
//! Why map: `codec convert` reads every byte once, and with `read` the
//! kernel's copy out of the page cache was a third of its CPU time; mapping
//! the file instead takes 0.73–0.84× the wall time of the same conversion
//! where the page cache holds it in large folios (a file read from disk on
//! Linux 6.18), and about the same time where it holds 4 KiB pages
//! (docs/results/codec-cli.md, "Decisions and dead ends").
//!
//! Why it is sound here. A mapping shows whatever the file holds at the
//! moment a byte is read, so another program writing the file would change
//! bytes under a validated `&str` (the conversion kernels trust that they
//! are UTF-8), and reading past the end of a file that was truncated raises
//! `SIGBUS`. [`Map::new`] therefore maps a file only under a **read lease**
//! (`fcntl(F_SETLEASE, F_RDLCK)`, Linux): the kernel grants it only when
//! nobody has the file open for writing, and whoever then opens it for
//! writing or truncates it waits until the lease is released (or until
//! `/proc/sys/fs/lease-break-time` has passed, 45 s by default). The kernel
//! announces such a request with `SIGIO`; the handler only sets a flag,
//! [`broken`], which the conversion checks before every chunk: it stops with
//! an error and the lease is released when the [`Map`] is dropped. Where no
//! lease can be had (other systems, a file someone has open for writing, a
//! file of another user, a file system without leases), nothing is mapped
//! and `codec convert` reads as before.
//!
//! What is left: the kernel revokes a lease whose holder has not released it
//! within the break time. A conversion checks the flag every chunk (256 KiB,
//! tens of microseconds), so a changed byte or a `SIGBUS` needs a thread
//! that spent the whole break time inside one chunk. For that case the
//! `SIGBUS` handler prints what happened and exits with status 2 (an I/O
//! error) instead of dumping core.

use std::fs::File;
use std::io;

/// A file's first `len` bytes, mapped, under a read lease.
pub(crate) struct Map {
    #[cfg(target_os = "linux")]
    inner: linux::Leased,
}

impl Map {
    /// Maps `file`'s `len` bytes, or `None` where no lease can be had (see
    /// the module docs); `len` must be the file's size.
    pub(crate) fn new(file: &File, len: u64) -> Option<Map> {
        #[cfg(target_os = "linux")]
        {
            linux::Leased::new(file, len).map(|inner| Map { inner })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (file, len);
            None
        }
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        #[cfg(target_os = "linux")]
        {
            self.inner.bytes()
        }
        #[cfg(not(target_os = "linux"))]
        {
            &[]
        }
    }
}

/// Whether another program asked for a mapped file (to write or truncate
/// it): the conversion must stop reading the mapping.
pub(crate) fn broken() -> bool {
    #[cfg(target_os = "linux")]
    {
        linux::broken()
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// The error a conversion stops with when [`broken`].
pub(crate) fn broken_error() -> io::Error {
    io::Error::other(
        "another program opened the input for writing (or truncated it) during the \
         conversion; stopped",
    )
}

#[cfg(target_os = "linux")]
mod linux {
    use std::fs::File;
    use std::os::fd::AsRawFd;
    use std::sync::Once;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Set by the `SIGIO` handler: a lease break was requested.
    static BROKEN: AtomicBool = AtomicBool::new(false);

    /// Whether both handlers are installed (once per process).
    static HANDLERS: AtomicBool = AtomicBool::new(false);
    static INSTALL: Once = Once::new();

    pub(super) fn broken() -> bool {
        BROKEN.load(Ordering::Relaxed)
    }

    extern "C" fn on_lease_break(_: libc::c_int) {
        BROKEN.store(true, Ordering::Relaxed);
    }

    extern "C" fn on_bus_error(_: libc::c_int) {
        const MESSAGE: &[u8] = b"codec: the input file was truncated while it was mapped \
            (another program kept it open past the lease-break time); stopped\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe (POSIX
        // signal-safety(7)); MESSAGE is a static buffer of MESSAGE.len()
        // bytes. A short or failed write only shortens the message.
        unsafe {
            libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(2);
        }
    }

    /// Installs `handler` for `signal` (restarting interrupted system calls).
    fn install(signal: libc::c_int, handler: extern "C" fn(libc::c_int)) -> bool {
        // SAFETY: an all-zero `sigaction` is a valid value (no flags, an
        // empty mask, which sigemptyset then sets properly); the handler is
        // a plain function (not SA_SIGINFO) that only does async-signal-safe
        // things (an atomic store; write and _exit); sigaction reads the
        // struct we own and writes nothing (null for the old action).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut()) == 0
        }
    }

    /// Takes (`F_RDLCK`) or releases (`F_UNLCK`) the read lease.
    fn lease(file: &File, kind: libc::c_int) -> bool {
        // SAFETY: fcntl on a descriptor `file` owns, with an integer
        // argument; it touches no memory of ours.
        unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, kind) == 0 }
    }

    pub(super) struct Leased {
        /// `None` only while dropping: unmapped before the lease goes.
        map: Option<memmap2::Mmap>,
        /// The lease belongs to this open file (shared with the caller's
        /// descriptor, a duplicate of it).
        file: File,
    }

    impl Leased {
        pub(super) fn new(file: &File, len: u64) -> Option<Leased> {
            INSTALL.call_once(|| {
                let ok =
                    install(libc::SIGIO, on_lease_break) && install(libc::SIGBUS, on_bus_error);
                HANDLERS.store(ok, Ordering::Relaxed);
            });
            let size = usize::try_from(len).ok().filter(|&n| n > 0)?;
            if !HANDLERS.load(Ordering::Relaxed) {
                return None;
            }
            let file = file.try_clone().ok()?;
            if !lease(&file, libc::F_RDLCK) {
                return None;
            }
            // The size is read again under the lease: it cannot change now,
            // and it may have between the caller's look and the lease.
            let same = file.metadata().is_ok_and(|m| m.len() == len);
            // SAFETY: the file is a regular file of `size` bytes (checked
            // just above, under the lease), and the lease keeps it from
            // being opened for writing or truncated while the mapping lives
            // (see the module docs for when the kernel revokes it, and what
            // then stops the reading); the map is read-only and private.
            let map = same
                .then(|| unsafe { memmap2::MmapOptions::new().len(size).map(&file) })
                .and_then(Result::ok);
            match map {
                Some(map) => Some(Leased {
                    map: Some(map),
                    file,
                }),
                None => {
                    lease(&file, libc::F_UNLCK);
                    None
                }
            }
        }

        pub(super) fn bytes(&self) -> &[u8] {
            self.map.as_deref().unwrap_or_default()
        }
    }

    impl Drop for Leased {
        fn drop(&mut self) {
            drop(self.map.take());
            lease(&self.file, libc::F_UNLCK);
        }
    }
}
