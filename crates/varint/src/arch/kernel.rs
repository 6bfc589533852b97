//! The bulk decoding algorithm, written once over codec-arch's [`Simd`]
//! and the small strategy trait [`Isa`], and stamped out per instruction
//! set by `x86_64/` and `aarch64/`.
//!
//! # The algorithm
//!
//! The scalar loop is bound by a dependency chain: the position of each
//! varint is the previous position plus the previous length, and the
//! length comes out of a load, a `trailing_zeros` and an add, about 12–15
//! cycles a value whatever the CPU, unless the branch predictor guesses
//! the lengths (it does not on mixed lengths). This kernel takes the chain
//! apart:
//!
//! 1. vector loads and `movemask`s give the continuation bits of the 64
//!    bytes of a *window* that starts at a varint; their complement,
//!    `ends`, has a bit at every byte that ends a varint;
//! 2. if no byte continues, the window is 64 one-byte varints: they are
//!    widened into the output with `pmovzx`, no other work;
//! 3. if no byte continues after a continuing byte, every varint ending in
//!    the window has 1 or 2 bytes: where `pext` is fast, eight at a time
//!    (`pext` of the continuation bits at the varints' starts says which
//!    have 2 bytes; that pattern picks one of 256 `pshufb` controls, which
//!    puts each varint in a 16-bit lane, and two shifts and masks join its
//!    7-bit groups), the rest each from a 2-byte load in four operations
//!    (the shift kernels' three-step pack took 2× as long on 2-byte data,
//!    slower than the scalar loop);
//! 4. otherwise, with AVX-512 VBMI2, the varints go eight at a time into
//!    the lanes of a register (`Isa::groups_u64`, `x86_64/avx512vbmi2.rs`),
//!    up to one that is too long for a lane or the type, which step 5
//!    decodes before the groups go on (this replaces step 3 too: 2-byte
//!    data decodes faster this way);
//! 5. otherwise every varint ending in the window is decoded from an
//!    unaligned 8-byte load at its start, its length being the distance
//!    between two set bits of `ends`; the only chain left from one value
//!    to the next is `ends &= ends - 1`, one cycle. The 7-bit groups are
//!    packed with `pext` where it is fast (Intel, AMD Zen 3 and later) and
//!    with three shift-and-or steps elsewhere; 9- and 10-byte varints take
//!    their last two bytes from a second small load, without a branch on
//!    which of the two lengths it is;
//! 6. the next window starts after the last varint that ended in this one.
//!
//! Anything the kernel does not decode itself, it stops in front of and
//! returns: a varint longer than the type allows or overflowing it, a
//! varint longer than a window, in strict mode a non-canonical one, and
//! the last bytes of the input, where a window or a word would reach past
//! the slice. The caller (`crate::bulk`) decodes that varint with the
//! scalar decoder, which reports the exact error, and calls the kernel
//! again. So every result, value or error, is the scalar decoder's.
//!
//! # Memory
//!
//! A window is read only when `base + READ <= input.len()`: the window is
//! 64 bytes, and the 8-byte word at a varint start (at most byte 63 of the
//! window) reaches byte 70; a 9- or 10-byte varint's last bytes lie inside
//! the window. Values are written only below the count returned, and only
//! while 64 slots are left, the most one window yields.
//!
//! # Measured
//!
//! On a Skylake-SP class Xeon, with `pext`, the protobuf-like mix takes
//! 2.0–2.2 ns a value (prost's loop 11.5); on AMD Zen 4 the VBMI2 groups
//! take it from 1.23 ns (the `pext` kernel) to 0.56–0.68 (prost 2.5–3.1).
//! 64-byte windows rather than 32: the inner loop's exit mispredicts once
//! a window (the mix 2.6 ns with 32). The forms tried and dropped, with
//! their figures, are in `docs/results/varint.md` ("Decisions and dead
//! ends", "Dead ends of the bulk kernel").

use codec_arch::Simd;

/// Bytes per window: two AVX2 registers, four SSE ones. (32 measured
/// slower: see the module docs.)
pub(crate) const WINDOW: usize = 64;

/// Bytes that must be readable from a window's start: the window, and the
/// 8-byte word at its last possible varint start (byte 63).
pub(crate) const READ: usize = WINDOW - 1 + 8;

/// The choices of one kernel that are not vector operations, and its
/// vector token: the window's vector work (continuation bits, zero bytes,
/// widening) is written once below over codec-arch's [`Simd`], on the
/// kernel's token [`Isa::S`]; what stays here is the packing of 7-bit
/// groups (BMI2 `pext`/`pdep` or shifts), and whether the kernel takes
/// the pair path ([`Isa::PAIRS`]) or the VBMI2 groups ([`Isa::GROUPS`]).
/// Every function is `#[inline(always)]` and is only called from inside a
/// `#[target_feature]` entry point that enables what it needs.
pub(crate) trait Isa {
    /// The vector token of the window's operations.
    type S: Simd;

    /// The token.
    ///
    /// # Safety
    ///
    /// The CPU must have the features of the implementation (the entry
    /// points, compiled with them, are the only callers).
    unsafe fn simd() -> Self::S;

    /// The 7-bit groups of the low `len` bytes of `word` (`len` in
    /// `1..=8`), packed: the value of a varint of `len` bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have the features of the implementation.
    unsafe fn pack(word: u64, len: u32) -> u64;

    /// The low 56 bits of `v` spread into the low 7 bits of 8 bytes: the
    /// inverse of `pack(_, 8)`.
    ///
    /// # Safety
    ///
    /// The CPU must have the features of the implementation.
    unsafe fn spread(v: u64) -> u64;

    /// Whether the kernel decodes eight one- and two-byte varints at a
    /// time ([`Isa::pairs_u64`]): it needs a fast `pext` and a byte
    /// shuffle. The kernels without (the shift kernels, NEON, and the
    /// VBMI2 one, whose groups do better) keep the defaults below, which
    /// are never called and are the scalar statement of what the vector
    /// versions do.
    const PAIRS: bool = false;

    /// The bits of `x` where `mask` has a bit, packed at the bottom (BMI2
    /// `pext`).
    ///
    /// # Safety
    ///
    /// The CPU must have the features of the implementation.
    #[inline(always)]
    unsafe fn gather_bits(x: u64, mask: u64) -> u64 {
        let mut out = 0;
        let mut k = 0;
        for i in 0..64 {
            if mask >> i & 1 == 1 {
                out |= (x >> i & 1) << k;
                k += 1;
            }
        }
        out
    }

    /// Eight values of at most 14 bits, written to `o[0..8]`: lane `j`
    /// takes the 7-bit groups of bytes `shuffle[2j]` and `shuffle[2j + 1]`
    /// of the 16 bytes at `p` (a byte of `0x80` or more in `shuffle` stands
    /// for a zero byte), as `pshufb` picks them.
    ///
    /// # Safety
    ///
    /// `p..p + 16` must be readable, `o..o + 8` writable, and the CPU must
    /// have the features of the implementation.
    #[inline(always)]
    unsafe fn pairs_u64(p: *const u8, shuffle: &[u8; 16], o: *mut u64) {
        // SAFETY: the same contract.
        unsafe { pairs_scalar(p, shuffle, o) }
    }

    /// As [`Isa::pairs_u64`], into `u32`s.
    ///
    /// # Safety
    ///
    /// As [`Isa::pairs_u64`].
    #[inline(always)]
    unsafe fn pairs_u32(p: *const u8, shuffle: &[u8; 16], o: *mut u32) {
        // SAFETY: the same contract.
        unsafe { pairs_scalar(p, shuffle, o) }
    }

    /// Whether the kernel decodes the varints of a mixed window eight at
    /// a time in vector lanes ([`Isa::groups_u64`]). Those without keep the
    /// default, which decodes none and leaves every varint to the one at a
    /// time loop.
    const GROUPS: bool = false;

    /// Decodes the varints of the window at `p` that start at byte `start`
    /// and end at the bits of `ends` (none below `start`), in order, up to
    /// the first one longer than [`Lane::GROUP_LEN`] bytes (the first that
    /// holds a bit of `long`, [`long_runs`]), or for `u64` a 10-byte one
    /// that overflows, or the last of `ends`, into `o[0..]`; returns
    /// `(count, next)`: the values written (nothing past them) and the
    /// byte after the last one decoded (`start` if none).
    ///
    /// # Safety
    ///
    /// `p..p + WINDOW` readable, `o..o + popcount(ends)` writable, `start <
    /// WINDOW`, and the CPU must have the features of the implementation.
    #[inline(always)]
    unsafe fn groups_u64(
        p: *const u8,
        start: usize,
        ends: u64,
        long: u64,
        o: *mut u64,
    ) -> (usize, usize) {
        let _ = (p, ends, long, o);
        (0, start)
    }

    /// As [`Isa::groups_u64`], into `u32`s.
    ///
    /// # Safety
    ///
    /// As [`Isa::groups_u64`].
    #[inline(always)]
    unsafe fn groups_u32(
        p: *const u8,
        start: usize,
        ends: u64,
        long: u64,
        o: *mut u32,
    ) -> (usize, usize) {
        let _ = (p, ends, long, o);
        (0, start)
    }
}

/// Bit `i` is the top bit of `p[i]`, for the [`WINDOW`] bytes at `p`.
///
/// # Safety
///
/// `p..p + WINDOW` must be readable.
#[inline(always)]
unsafe fn continuations<S: Simd>(s: S, p: *const u8) -> u64 {
    let mut mask = 0;
    for k in 0..WINDOW / S::BYTES {
        // SAFETY: register `k` of the window, inside the caller's bytes.
        let v = unsafe { s.load(p.add(k * S::BYTES)) };
        mask |= s.movemask8(v) << (k * S::BYTES);
    }
    mask
}

/// Bit `i` is set if `p[i]` is zero, for the [`WINDOW`] bytes at `p`.
///
/// # Safety
///
/// As [`continuations`].
#[inline(always)]
unsafe fn zeros<S: Simd>(s: S, p: *const u8) -> u64 {
    let mut mask = 0;
    for k in 0..WINDOW / S::BYTES {
        // SAFETY: as in `continuations`.
        let v = unsafe { s.load(p.add(k * S::BYTES)) };
        mask |= s.movemask8(s.eq8(v, s.zero())) << (k * S::BYTES);
    }
    mask
}

/// Writes the [`WINDOW`] bytes at `p`, zero-extended, to `o[0..WINDOW]`:
/// `BYTES / 8` bytes a register.
///
/// # Safety
///
/// As [`continuations`], and `o..o + WINDOW` must be writable.
#[inline(always)]
unsafe fn widen_u64<S: Simd>(s: S, p: *const u8, o: *mut u64) {
    let step = S::BYTES / 8;
    for k in 0..WINDOW / step {
        // SAFETY: bytes `k * step..(k + 1) * step` of the window, and the
        // `step` values at `o + k * step`, inside the caller's ranges.
        unsafe { s.store(o.add(k * step).cast(), s.load_widen8to64(p.add(k * step))) };
    }
}

/// As [`widen_u64`], into `u32`s: `BYTES / 4` bytes a register.
///
/// # Safety
///
/// As [`widen_u64`].
#[inline(always)]
unsafe fn widen_u32<S: Simd>(s: S, p: *const u8, o: *mut u32) {
    let step = S::BYTES / 4;
    for k in 0..WINDOW / step {
        // SAFETY: as in `widen_u64`.
        unsafe { s.store(o.add(k * step).cast(), s.load_widen8to32(p.add(k * step))) };
    }
}

/// [`Isa::pairs_u64`] in scalar code, for the kernels without `PAIRS`.
///
/// # Safety
///
/// As [`Isa::pairs_u64`].
#[inline(always)]
unsafe fn pairs_scalar<T: From<u16>>(p: *const u8, shuffle: &[u8; 16], o: *mut T) {
    let byte = |i: u8| {
        if i < 16 {
            // SAFETY: `p..p + 16` is readable (the caller's promise).
            u16::from(unsafe { p.add(usize::from(i)).read() } & 0x7F)
        } else {
            0
        }
    };
    for j in 0..8 {
        let v = byte(shuffle[2 * j]) | byte(shuffle[2 * j + 1]) << 7;
        // SAFETY: `j < 8`, and `o..o + 8` is writable.
        unsafe { o.add(j).write(T::from(v)) };
    }
}

/// The `pshufb` controls of [`Isa::pairs_u64`], one per pattern of eight
/// varints of one or two bytes: bit `j` of the index says that varint `j`
/// has two bytes. Lane `j` (bytes `2j` and `2j + 1`) takes the varint's
/// first byte and its second or a zero (`0x80`). Built by [`pair_shuffles`]
/// at compile time; 4 KiB, an eighth of Zen 4's and Zen 3's L1 data cache
/// (32 KiB), touched only by the mixed-length windows.
static PAIR_SHUFFLES: [[u8; 16]; 256] = pair_shuffles();

/// Builds [`PAIR_SHUFFLES`].
const fn pair_shuffles() -> [[u8; 16]; 256] {
    let mut table = [[0u8; 16]; 256];
    let mut pattern = 0;
    while pattern < 256 {
        let mut at = 0u8; // where varint `j` starts
        let mut j = 0;
        while j < 8 {
            let two = pattern >> j & 1 == 1;
            table[pattern][2 * j] = at;
            table[pattern][2 * j + 1] = if two { at + 1 } else { 0x80 };
            at += 1 + two as u8;
            j += 1;
        }
        pattern += 1;
    }
    table
}

/// An output type of the kernel: `u64` or `u32`.
pub(crate) trait Lane: Copy {
    /// The type's `MAX_LEN`.
    const MAX_LEN: usize;
    /// The value, widened.
    fn to_u64(self) -> u64;
    /// `v` as the type, if it fits (`v` is the value of a varint of at
    /// most `MAX_LEN` bytes).
    fn from_value(v: u64) -> Option<Self>;
    /// [`widen_u64`] or [`widen_u32`] on `I`'s token.
    ///
    /// # Safety
    ///
    /// As [`widen_u64`], and the CPU has `I`'s features.
    unsafe fn widen<I: Isa>(p: *const u8, o: *mut Self);
    /// [`Isa::pairs_u64`] or [`Isa::pairs_u32`].
    ///
    /// # Safety
    ///
    /// As [`Isa::pairs_u64`].
    unsafe fn pairs<I: Isa>(p: *const u8, shuffle: &[u8; 16], o: *mut Self);
    /// [`Isa::groups_u64`] or [`Isa::groups_u32`].
    ///
    /// # Safety
    ///
    /// As [`Isa::groups_u64`].
    unsafe fn groups<I: Isa>(
        p: *const u8,
        start: usize,
        ends: u64,
        long: u64,
        o: *mut Self,
    ) -> (usize, usize);
    /// The longest varint [`Isa::groups_u64`] decodes into this type: 10
    /// bytes for `u64`, 4 for `u32` (a 5-byte one may not fit).
    const GROUP_LEN: u32;
}

/// Bit `i` is set where bytes `i..i + len` all continue: byte `i` is
/// inside a varint longer than `len` bytes (`len` at least 1).
#[inline(always)]
pub(crate) fn long_runs(cont: u64, len: u32) -> u64 {
    // Runs of 2, 4, 8 … by doubling, then the last bytes one by one.
    let mut run = cont;
    let mut width = 1;
    while width * 2 <= len {
        run &= run >> width;
        width *= 2;
    }
    for k in width..len {
        run &= cont >> k;
    }
    run
}

impl Lane for u64 {
    const MAX_LEN: usize = 10;
    #[inline(always)]
    fn to_u64(self) -> u64 {
        self
    }
    #[inline(always)]
    fn from_value(v: u64) -> Option<Self> {
        Some(v)
    }
    #[inline(always)]
    unsafe fn widen<I: Isa>(p: *const u8, o: *mut Self) {
        // SAFETY: the same contract.
        unsafe { widen_u64(I::simd(), p, o) }
    }
    #[inline(always)]
    unsafe fn pairs<I: Isa>(p: *const u8, shuffle: &[u8; 16], o: *mut Self) {
        // SAFETY: the same contract.
        unsafe { I::pairs_u64(p, shuffle, o) }
    }
    const GROUP_LEN: u32 = 10;
    #[inline(always)]
    unsafe fn groups<I: Isa>(
        p: *const u8,
        start: usize,
        ends: u64,
        long: u64,
        o: *mut Self,
    ) -> (usize, usize) {
        // SAFETY: the same contract.
        unsafe { I::groups_u64(p, start, ends, long, o) }
    }
}

impl Lane for u32 {
    const MAX_LEN: usize = 5;
    #[inline(always)]
    fn to_u64(self) -> u64 {
        self.into()
    }
    #[inline(always)]
    fn from_value(v: u64) -> Option<Self> {
        u32::try_from(v).ok()
    }
    #[inline(always)]
    unsafe fn widen<I: Isa>(p: *const u8, o: *mut Self) {
        // SAFETY: the same contract.
        unsafe { widen_u32(I::simd(), p, o) }
    }
    #[inline(always)]
    unsafe fn pairs<I: Isa>(p: *const u8, shuffle: &[u8; 16], o: *mut Self) {
        // SAFETY: the same contract.
        unsafe { I::pairs_u32(p, shuffle, o) }
    }
    const GROUP_LEN: u32 = 4;
    #[inline(always)]
    unsafe fn groups<I: Isa>(
        p: *const u8,
        start: usize,
        ends: u64,
        long: u64,
        o: *mut Self,
    ) -> (usize, usize) {
        // SAFETY: the same contract.
        unsafe { I::groups_u32(p, start, ends, long, o) }
    }
}

/// The top bit of every byte of a `u64`.
const CONTINUATION: u64 = 0x8080_8080_8080_8080;

/// Decodes consecutive varints from the start of `input` into `out`, as far
/// as the kernel goes; see the module docs. Returns `(bytes, count)`: the
/// input taken, which ends at a varint boundary, and the values written
/// to `out[..count]`. Nothing else of `out` is written.
///
/// # Safety
///
/// The CPU must have the features of `I`.
#[inline(always)]
pub(crate) unsafe fn decode<I: Isa, L: Lane, const STRICT: bool>(
    input: &[u8],
    out: &mut [L],
) -> (usize, usize) {
    let (len, p) = (input.len(), input.as_ptr());
    let (cap, o) = (out.len(), out.as_mut_ptr());
    let mut base = 0;
    let mut count = 0;
    while base + READ <= len && count + WINDOW <= cap {
        // SAFETY: `base + READ <= len`, so the window is inside `input`;
        // the features are the caller's promise.
        let cont = unsafe { continuations(I::simd(), p.add(base)) };
        if cont == 0 {
            // SAFETY: as above, and `count + WINDOW <= cap`.
            unsafe { L::widen::<I>(p.add(base), o.add(count)) };
            base += WINDOW;
            count += WINDOW;
            continue;
        }
        let mut ends = !cont;
        let mut stop = ends == 0; // a varint longer than a window
        if STRICT {
            // A zero byte after a continuation byte ends a padded varint:
            // decode the ones before it, and stop in front of it.
            // SAFETY: as for `continuations`.
            let padded = unsafe { zeros(I::simd(), p.add(base)) } & (cont << 1);
            if padded != 0 {
                ends &= (padded & padded.wrapping_neg()) - 1;
                stop = true;
            }
        }
        let mut start = 0;
        // (The kernels with groups of eight skip it: their groups decode
        // 2-byte data faster, 0.40-0.44 against 0.57-0.59 ns a value.)
        if !I::GROUPS && cont & (cont >> 1) == 0 {
            // No byte continues after a continuing byte: every varint that
            // ends in this window has 1 or 2 bytes, packed in 4 operations.
            // The test is per window, so it is predicted well on every
            // distribution measured (one- and two-byte data take this path,
            // the others almost never).
            if I::PAIRS {
                // Eight at a time while eight are left and 16 bytes
                // readable: every lane is one of them, so nothing is
                // written past them.
                while start + 16 <= READ && ends.count_ones() >= 8 {
                    // SAFETY: the features are the caller's promise.
                    let long = unsafe { I::gather_bits(cont >> start, (ends >> start) << 1 | 1) };
                    // SAFETY: `start + 16 <= READ`, so the 16 bytes are
                    // inside `input`; the 8 values are varints of this
                    // window (8 ends are left), and a window's values fit
                    // below its first `count` plus WINDOW, which is `<= cap`.
                    unsafe {
                        L::pairs::<I>(
                            p.add(base + start),
                            &PAIR_SHUFFLES[(long & 0xFF) as usize],
                            o.add(count),
                        );
                    }
                    count += 8;
                    start += 8 + (long & 0xFF).count_ones() as usize;
                    ends &= u64::MAX.checked_shl(start as u32).unwrap_or(0);
                }
            }
            while ends != 0 {
                let end = ends.trailing_zeros() as usize;
                let n = end + 1 - start;
                // SAFETY: `start < WINDOW`, so the two bytes at it are
                // inside `base + READ <= len`.
                let pair = unsafe { p.add(base + start).cast::<u16>().read_unaligned() };
                let pair = u64::from(u16::from_le(pair));
                let value = ((pair & 0x7F) | (pair >> 1 & 0x3F80)) & ((1 << (7 * n)) - 1);
                let Some(value) = L::from_value(value) else {
                    return (base + start, count);
                };
                // SAFETY: `count < count + WINDOW <= cap`: a window has at
                // most WINDOW varints.
                unsafe { o.add(count).write(value) };
                count += 1;
                start = end + 1;
                ends &= ends - 1;
            }
            base += start;
            if stop {
                break;
            }
            continue;
        }
        // Only computed for the kernels that use it.
        let long = if I::GROUPS {
            long_runs(cont, L::GROUP_LEN)
        } else {
            0
        };
        while ends != 0 {
            // Unless the next varint is long (uniform `u64` values are all
            // long): a test that keeps the groups' work off the one at a
            // time loop's chain from one varint to the next.
            if I::GROUPS && long >> start & 1 == 0 {
                // SAFETY: `base + WINDOW <= base + READ <= len`; `start <
                // WINDOW` (below a set bit of `ends`); `count +
                // popcount(ends)` is at most the window's first `count`
                // plus WINDOW, which is `<= cap`; the features are the
                // caller's promise.
                let (c, next) =
                    unsafe { L::groups::<I>(p.add(base), start, ends, long, o.add(count)) };
                count += c;
                if c == ends.count_ones() as usize {
                    // All of them (always, on valid input, for `u64`): the
                    // next window starts after the last end, which the
                    // masks alone give, so the next window's loads do not
                    // wait for the groups' work.
                    start = (u64::BITS - ends.leading_zeros()) as usize;
                    break;
                }
                start = next;
                ends &= u64::MAX.checked_shl(start as u32).unwrap_or(0);
                if ends == 0 {
                    break;
                }
            }
            let end = ends.trailing_zeros() as usize;
            let n = end + 1 - start;
            // SAFETY: `start < WINDOW` (it follows a set bit of `ends`
            // below the top one, or is 0), so `base + start + 8 <= base +
            // READ <= len`.
            let at = unsafe { p.add(base + start) };
            // SAFETY: as above; unaligned loads of plain bytes.
            let word = unsafe { at.cast::<u64>().read_unaligned() };
            let value = if n <= 8 {
                // SAFETY: the features are the caller's promise.
                unsafe { I::pack(word, n as u32) }
            } else {
                if L::MAX_LEN < 9 || n > 10 {
                    return (base + start, count);
                }
                // SAFETY: the varint's bytes 9 and 10 (`n >= 9`, so byte 9
                // is inside it, and byte 10 at most at `end + 1 <= WINDOW`).
                let tail = unsafe { at.add(8).cast::<u16>().read_unaligned() };
                // Byte 10 only if the varint has one.
                let tail = u16::from_le(tail) & (0xFFFF >> (8 * (10 - n)));
                if tail > 0x01FF {
                    return (base + start, count);
                }
                // SAFETY: the features are the caller's promise.
                let low = unsafe { I::pack(word, 8) };
                low | u64::from(tail & 0x7F) << 56 | u64::from(tail >> 8) << 63
            };
            let Some(value) = L::from_value(value).filter(|_| n <= L::MAX_LEN) else {
                return (base + start, count);
            };
            // SAFETY: `count < count + WINDOW <= cap`: a window has at most WINDOW
            // varints.
            unsafe { o.add(count).write(value) };
            count += 1;
            start = end + 1;
            ends &= ends - 1;
        }
        base += start;
        if stop {
            break;
        }
    }
    (base, count)
}

/// The encoded length of every value of `values`, summed: the scalar
/// formula (`leading_zeros`, a multiply-add, a shift), which the compiler
/// vectorises inside a `#[target_feature]` entry point (with AVX-512 CD,
/// `vplzcntq` on 8 values at a time).
#[inline(always)]
pub(crate) fn encoded_len<L: Lane>(values: &[L]) -> usize {
    values
        .iter()
        .map(|&v| crate::scalar::len_from_bits(u64::BITS - (v.to_u64() | 1).leading_zeros()))
        .sum()
}

/// Values per step of [`encode`].
const STEP: usize = 8;

/// Encodes values from the start of `values` into the start of `out`, as
/// far as the kernel goes, and returns `(values, bytes)` encoded; the
/// caller encodes the rest with the scalar encoder.
///
/// Per step of 8 values: if all 8 are below `0x80`, they are packed into
/// one 8-byte store. Otherwise each value below 2^14 is written as two
/// bytes without a branch on its length (the second byte is overwritten
/// by the next value when the varint is one byte), and each larger one as
/// its spread groups with the continuation bits, in one 8-byte store (and
/// a 2-byte store for 9 and 10 bytes), again without a branch on its
/// length.
///
/// # Memory
///
/// Those stores write up to 7 bytes past a varint. The caller guarantees
/// that `out` holds the encoding of every value of `values`; the kernel
/// stops while 8 values are left, whose encodings (8 bytes at least)
/// cover whatever it wrote past its last varint. So every byte written is
/// inside the encoding, and overwritten with its right value by the time
/// the caller is done.
///
/// # Safety
///
/// The CPU must have the features of `I`, and `out.len()` must be at
/// least the encoded length of `values`.
#[inline(always)]
pub(crate) unsafe fn encode<I: Isa, L: Lane>(values: &[L], out: &mut [u8]) -> (usize, usize) {
    let o = out.as_mut_ptr();
    let mut i = 0;
    let mut pos = 0;
    while i + 2 * STEP <= values.len() {
        let chunk = &values[i..i + STEP];
        let any = chunk.iter().fold(0, |acc, v| acc | v.to_u64());
        if any < 0x80 {
            let mut word = 0u64;
            for (k, v) in chunk.iter().enumerate() {
                word |= v.to_u64() << (8 * k);
            }
            // SAFETY: these 8 one-byte varints are inside the encoding.
            unsafe { o.add(pos).cast::<u64>().write_unaligned(word.to_le()) };
            pos += STEP;
            i += STEP;
            continue;
        }
        for v in chunk {
            let v = v.to_u64();
            if v < 0x4000 {
                let long = v >= 0x80;
                let pair = (v & 0x7F) | u64::from(long) << 7 | (v >> 7) << 8;
                // SAFETY: the varint's bytes, and at most one byte past it,
                // which the values still to come cover (see above).
                unsafe {
                    o.add(pos)
                        .cast::<u16>()
                        .write_unaligned((pair as u16).to_le())
                };
                pos += 1 + usize::from(long);
            } else {
                let len = crate::scalar::len_from_bits(u64::BITS - v.leading_zeros());
                // SAFETY: the features are the caller's promise.
                let spread = unsafe { I::spread(v) };
                // Continuation bits on every byte but the last; all 8 when
                // the varint goes on past the word (`len` is 3..=10 here).
                let conts = if len > 8 {
                    CONTINUATION
                } else {
                    CONTINUATION & ((1 << (8 * (len - 1))) - 1)
                };
                // SAFETY: the varint's bytes, and at most 7 past it, covered
                // as above.
                unsafe {
                    o.add(pos)
                        .cast::<u64>()
                        .write_unaligned((spread | conts).to_le())
                };
                let top = v >> 56;
                let tail = (top & 0x7F) | u64::from(len == 10) << 7 | (top >> 7) << 8;
                // SAFETY: bytes 9 and 10 of the word's varint when it has
                // them; otherwise at most 2 bytes past its 8-byte store,
                // inside what the values to come cover.
                unsafe {
                    o.add(pos + 8)
                        .cast::<u16>()
                        .write_unaligned((tail as u16).to_le());
                }
                pos += len;
            }
        }
        i += STEP;
    }
    (i, pos)
}

/// [`Isa::pack`] without `pext`: three shift-and-or steps.
#[inline(always)]
pub(crate) const fn pack_shifts(word: u64, len: u32) -> u64 {
    // `len` is 1..=8: the shift is 0..=56.
    crate::scalar::pack7(word & (u64::MAX >> (64 - 8 * len)) & !CONTINUATION)
}

/// [`Isa::spread`] without `pdep`: three shift-and-or steps.
#[inline(always)]
pub(crate) const fn spread_shifts(v: u64) -> u64 {
    crate::scalar::unpack7(v)
}
