//! Buffers fenced by inaccessible pages, to catch over-reads on real hardware.
//!
//! Miri cannot be installed on our machines, and AddressSanitizer needs a
//! nightly toolchain, so the over-read tests use the oldest trick there is: map
//! memory so that the byte right after the input (or right before it) lies in
//! a page mapped `PROT_NONE`. Any load that touches it, scalar or SIMD, takes a
//! `SIGSEGV` and kills the test process. A SIMD kernel that reads a whole
//! 16- or 32-byte register past a short tail cannot hide: the last input byte
//! is the last readable byte.
//!
//! The layout of one [`GuardedBuf`] is
//!
//! ```text
//! [ guard page | data pages ... | guard page ]
//!   PROT_NONE    read/write       PROT_NONE
//! ```
//!
//! [`GuardedBuf::at_end`] copies an input so it ends exactly at the trailing
//! guard; [`GuardedBuf::at_start`] so it starts exactly after the leading one
//! (catching reads *before* the slice, such as a "back up three bytes" step
//! that forgets the slice start).
//!
//! Linux only (it needs `mmap`/`mprotect` with the semantics above); the
//! module does not exist elsewhere.
//!
//! ```
//! let mut buf = codec_testdata::guard::GuardedBuf::new(256);
//! let s = buf.at_end(b"h\xC3\xA9llo");
//! assert_eq!(core::str::from_utf8(s), Ok("héllo"));
//! ```

use core::ptr::NonNull;

/// Memory laid out as guard page, data pages, guard page; see the module docs.
#[derive(Debug)]
pub struct GuardedBuf {
    /// Start of the whole mapping (the leading guard page).
    map: NonNull<u8>,
    /// Length of the whole mapping in bytes.
    map_len: usize,
    /// The page size.
    page: usize,
    /// Bytes between the two guards: `capacity()` rounded up to pages.
    data_len: usize,
}

impl GuardedBuf {
    /// Maps a buffer that can hold at least `capacity` bytes between two guard
    /// pages.
    ///
    /// # Panics
    ///
    /// If `mmap` or `mprotect` fails (a test-harness failure, not a codec's).
    pub fn new(capacity: usize) -> Self {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let page = usize::try_from(page).expect("page size");
        let data_len = capacity.div_ceil(page).max(1) * page;
        let map_len = data_len + 2 * page;
        // SAFETY: an anonymous private mapping at an address of the kernel's
        // choosing; no existing memory is touched.
        let map = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert!(map != libc::MAP_FAILED, "mmap failed");
        let map = NonNull::new(map.cast::<u8>()).expect("mmap returned null");
        for guard in [0, page + data_len] {
            // SAFETY: `guard` and `guard + page` lie inside the mapping we just
            // made, and `guard` is page-aligned because the mapping is.
            let rc =
                unsafe { libc::mprotect(map.as_ptr().add(guard).cast(), page, libc::PROT_NONE) };
            assert_eq!(rc, 0, "mprotect failed");
        }
        Self {
            map,
            map_len,
            page,
            data_len,
        }
    }

    /// The most bytes [`at_end`](Self::at_end) and
    /// [`at_start`](Self::at_start) accept: the requested capacity rounded up
    /// to whole pages.
    pub fn capacity(&self) -> usize {
        self.data_len
    }

    /// A mutable slice of `len` bytes whose end is the trailing guard page:
    /// writing or reading one byte past it faults. Its contents are whatever
    /// the buffer last held.
    ///
    /// # Panics
    ///
    /// If `len > self.capacity()`.
    pub fn at_end_mut(&mut self, len: usize) -> &mut [u8] {
        assert!(len <= self.data_len, "{len} bytes exceed the capacity");
        // SAFETY: the data pages are [page, page + data_len) of our mapping,
        // readable and writable, and `len <= data_len`, so the range
        // [page + data_len - len, page + data_len) lies inside them. `&mut
        // self` makes the slice the only reference into the mapping.
        unsafe {
            let start = self.map.as_ptr().add(self.page + self.data_len - len);
            core::slice::from_raw_parts_mut(start, len)
        }
    }

    /// A mutable slice of `len` bytes that starts right after the leading
    /// guard page: reading one byte before it faults.
    ///
    /// # Panics
    ///
    /// If `len > self.capacity()`.
    pub fn at_start_mut(&mut self, len: usize) -> &mut [u8] {
        assert!(len <= self.data_len, "{len} bytes exceed the capacity");
        // SAFETY: as in `at_end_mut`, the range [page, page + len) lies inside
        // the data pages, and `&mut self` makes it unique.
        unsafe { core::slice::from_raw_parts_mut(self.map.as_ptr().add(self.page), len) }
    }

    /// Copies `bytes` so that its last byte is the last readable byte before
    /// the trailing guard page, and returns the copy.
    ///
    /// # Panics
    ///
    /// If `bytes` is longer than [`capacity`](Self::capacity).
    pub fn at_end(&mut self, bytes: &[u8]) -> &[u8] {
        let out = self.at_end_mut(bytes.len());
        out.copy_from_slice(bytes);
        out
    }

    /// Copies `bytes` so that its first byte is the first readable byte after
    /// the leading guard page, and returns the copy.
    ///
    /// # Panics
    ///
    /// If `bytes` is longer than [`capacity`](Self::capacity).
    pub fn at_start(&mut self, bytes: &[u8]) -> &[u8] {
        let out = self.at_start_mut(bytes.len());
        out.copy_from_slice(bytes);
        out
    }
}

impl Drop for GuardedBuf {
    fn drop(&mut self) {
        // SAFETY: `map`/`map_len` are exactly the mapping `new` made, and no
        // slice into it outlives `self` (they all borrow it).
        unsafe {
            libc::munmap(self.map.as_ptr().cast(), self.map_len);
        }
    }
}

/// Runs `check(guarded, original)` on every input of [`boundary_inputs`]
/// up to `max_len` bytes, twice: copied to end exactly at a guard page, and
/// to start exactly after one. `original` is the plain input, for the
/// oracle. Returns how many inputs there were (each checked twice).
pub fn at_both_ends(max_len: usize, mut check: impl FnMut(&[u8], &[u8])) -> usize {
    let mut buf = GuardedBuf::new(max_len);
    let mut count = 0;
    boundary_inputs(max_len, |input| {
        check(buf.at_end(input), input);
        check(buf.at_start(input), input);
        count += 1;
    });
    count
}

/// Inputs of every length `0..=max_len` for over-read tests: for each length,
/// valid text of 1-, 2-, 3- and 4-byte characters (cut to the length, so the
/// cut ones end in a truncated sequence), ASCII, and ASCII ending in each of
/// [`INVALID_SEQUENCES`](crate::INVALID_SEQUENCES).
pub fn boundary_inputs(max_len: usize, mut f: impl FnMut(&[u8])) {
    let fillers: [&[u8]; 5] = [
        b"a",
        "é".as_bytes(),
        "吕".as_bytes(),
        "😀".as_bytes(),
        b"a\xC3\xA9\xE5\x90\x95\xF0\x9F\x98\x80",
    ];
    let mut buf = Vec::with_capacity(max_len + 8);
    for len in 0..=max_len {
        for filler in fillers {
            buf.clear();
            while buf.len() < len {
                buf.extend_from_slice(filler);
            }
            buf.truncate(len);
            f(&buf);
        }
        for seq in crate::INVALID_SEQUENCES {
            if seq.len() <= len {
                buf.clear();
                buf.resize(len - seq.len(), b'a');
                buf.extend_from_slice(seq);
                f(&buf);
                // And the same sequence at the start, for reads before it.
                buf.clear();
                buf.extend_from_slice(seq);
                buf.resize(len, b'a');
                f(&buf);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Command;

    /// Set in the child process to the name of the test that should do its
    /// deliberate bad read; without it the child tests do nothing, so that
    /// `cargo test -- --ignored` does not crash.
    const CHILD_ENV: &str = "CODEC_TESTDATA_GUARD_CHILD";

    fn is_child(name: &str) -> bool {
        std::env::var(CHILD_ENV).is_ok_and(|v| v.ends_with(name))
    }

    /// Runs one of the `#[ignore]`d child tests below in a fresh copy of this
    /// test binary and returns how it ended.
    fn run_child(name: &str) -> std::process::ExitStatus {
        let exe = std::env::current_exe().expect("test binary");
        Command::new(exe)
            .env(CHILD_ENV, name)
            .args(["--ignored", "--exact", name, "--test-threads=1"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("run the child test")
    }

    #[test]
    fn reading_one_byte_past_the_end_faults() {
        let status = run_child("guard::tests::child_reads_past_end");
        assert_eq!(status.signal(), Some(libc::SIGSEGV), "{status:?}");
        let status = run_child("guard::tests::child_reads_before_start");
        assert_eq!(status.signal(), Some(libc::SIGSEGV), "{status:?}");
        // The control: the same reads one byte further in succeed.
        let status = run_child("guard::tests::child_reads_last_and_first_byte");
        assert!(status.success(), "{status:?}");
    }

    #[test]
    #[ignore = "run by reading_one_byte_past_the_end_faults in a child process"]
    fn child_reads_past_end() {
        if !is_child("child_reads_past_end") {
            return;
        }
        let mut buf = GuardedBuf::new(100);
        let s = buf.at_end(b"abc");
        // SAFETY: deliberately not safe: this reads the guard page, and the
        // parent test expects the process to die of SIGSEGV right here.
        let b = unsafe { core::ptr::read_volatile(s.as_ptr().add(s.len())) };
        println!("read {b} past the end: the guard page is not there");
    }

    #[test]
    #[ignore = "run by reading_one_byte_past_the_end_faults in a child process"]
    fn child_reads_before_start() {
        if !is_child("child_reads_before_start") {
            return;
        }
        let mut buf = GuardedBuf::new(100);
        let s = buf.at_start(b"abc");
        // SAFETY: deliberately not safe: this reads the leading guard page.
        let b = unsafe { core::ptr::read_volatile(s.as_ptr().sub(1)) };
        println!("read {b} before the start: the guard page is not there");
    }

    #[test]
    #[ignore = "run by reading_one_byte_past_the_end_faults in a child process"]
    fn child_reads_last_and_first_byte() {
        if !is_child("child_reads_last_and_first_byte") {
            return;
        }
        let mut buf = GuardedBuf::new(100);
        let s = buf.at_end(b"abc");
        // SAFETY: the last byte of the slice, in bounds.
        let last = unsafe { core::ptr::read_volatile(s.as_ptr().add(s.len() - 1)) };
        assert_eq!(last, b'c');
        let s = buf.at_start(b"xyz");
        // SAFETY: the first byte of the slice, in bounds.
        let first = unsafe { core::ptr::read_volatile(s.as_ptr()) };
        assert_eq!(first, b'x');
    }

    #[test]
    fn slices_sit_at_the_boundaries() {
        let mut buf = GuardedBuf::new(5000);
        assert_eq!(buf.capacity(), 8192);
        let end = buf.at_end(b"xyz").as_ptr() as usize + 3;
        assert_eq!(end % buf.page, 0);
        let start = buf.at_start(b"xyz").as_ptr() as usize;
        assert_eq!(start % buf.page, 0);
        assert_eq!(start + buf.capacity(), end);
        assert!(buf.at_end(b"").is_empty());
        let full = vec![7u8; buf.capacity()];
        assert_eq!(buf.at_end(&full), &full[..]);
    }

    #[test]
    fn boundary_inputs_cover_every_length_valid_and_invalid() {
        let mut lengths = [0usize; 65];
        let (mut valid, mut invalid) = (0, 0);
        boundary_inputs(64, |input| {
            lengths[input.len()] += 1;
            if core::str::from_utf8(input).is_ok() {
                valid += 1;
            } else {
                invalid += 1;
            }
        });
        assert!(lengths.iter().all(|&n| n >= 5), "{lengths:?}");
        assert!(
            valid > 65 && invalid > 1000,
            "{valid} valid, {invalid} invalid"
        );
    }
}
