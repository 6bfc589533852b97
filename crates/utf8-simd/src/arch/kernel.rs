//! The Keiser–Lemire check, written once over codec-arch's `Simd` and
//! [`CheckSimd`].
//!
//! Input goes in 64-byte blocks (4 SSE, 2 AVX2 or 1 AVX-512 register). A block whose
//! bytes are all ASCII only has to check that the block before it did not
//! end inside a character. Any other block runs the lookup check on each
//! register: three table lookups for the pair (previous byte, byte), and the
//! "must be a 3rd or 4th byte" check, which is XORed against the
//! [`TWO_CONTS`](crate::tables::TWO_CONTS) bit of the lookups. Errors are
//! ORed into one register, which is tested every [`GROUP`] bytes; the last
//! position where it was still zero is what a failing kernel returns, so the
//! scalar path only re-reads the group that failed.
//!
//! The tail (fewer than 64 bytes) is read without going past the slice: if
//! the input is long enough, as one more 64-byte block that ends at the last
//! byte and overlaps bytes already checked (re-checking valid bytes finds
//! nothing, and the register before it is loaded from memory so the pairs at
//! its start are right); otherwise register by register, the last one
//! assembled from at most three overlapping scalar loads and zero-filled
//! (zeros are ASCII, so an input that ends inside a character fails on the
//! first of them).
//!
//! Short inputs skip the run loop: fewer than 64 bytes go straight to the
//! register-by-register tail, and 64 or 67..=128 bytes to
//! [`one_or_two_blocks`] (one ASCII test over the input, then at most two
//! blocks), where the loop's length tests and tail dispatch cost as much
//! as the check itself (see `docs/results/utf8-simd.md`, "Decisions and dead ends").

use super::simd::CheckSimd;
use crate::tables::{self, NibbleTables};

/// Bytes per loop iteration.
pub(super) const BLOCK: usize = 64;

/// How often the error register is tested with `CHECKPOINTS`, in bytes of
/// a non-ASCII run since the last test (wherever the input starts).
/// Testing every block cost about 3% on non-ASCII text with AVX2; every 4
/// blocks costs about 1%, and the scalar re-check of a failing group stays
/// short.
pub(super) const GROUP: usize = 256;

/// `INCOMPLETE_MAX[64 - BYTES..]`: bytes above these at the end of a
/// register start a character that the register does not finish (a lead
/// `C0..` in the last byte, `E0..` in the second-last, `F0..` in the
/// third-last).
#[rustfmt::skip]
static INCOMPLETE_MAX: [u8; 64] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF,
];

/// The constants the check needs, loaded once per call, and the token of
/// the kernel's instruction set.
#[derive(Clone, Copy)]
pub(super) struct Consts<S: CheckSimd> {
    pub(super) s: S,
    pub(super) byte_1_high: S::V,
    pub(super) byte_1_low: S::V,
    pub(super) byte_2_high: S::V,
    pub(super) low_nibble: S::V,
    pub(super) third_byte: S::V,
    pub(super) fourth_byte: S::V,
    pub(super) high_bit: S::V,
    incomplete_max: S::V,
}

impl<S: CheckSimd> Consts<S> {
    /// The constants, with the nibble tables `t` (UTF-8's, or those of an
    /// encoding that differs from it in pairs of bytes, `arch::variants`).
    /// Passing UTF-8's as a constant costs nothing: the loads are the same.
    #[inline(always)]
    pub(super) fn new(s: S, t: &NibbleTables) -> Self {
        const { assert!(S::BYTES <= INCOMPLETE_MAX.len() && BLOCK.is_multiple_of(S::BYTES)) };
        Consts {
            s,
            byte_1_high: s.broadcast16(&t.byte_1_high),
            byte_1_low: s.broadcast16(&t.byte_1_low),
            byte_2_high: s.broadcast16(&t.byte_2_high),
            low_nibble: s.splat8(0x0F),
            third_byte: s.splat8(0xE0 - 0x80),
            fourth_byte: s.splat8(0xF0 - 0x80),
            high_bit: s.splat8(0x80),
            // SAFETY: `S::BYTES <= 64` bytes ending at the end of the array.
            incomplete_max: unsafe {
                s.load(INCOMPLETE_MAX.as_ptr().add(INCOMPLETE_MAX.len() - S::BYTES))
            },
        }
    }

    /// The error bits of the register `cur`, given the register `prev` that
    /// precedes it in the input.
    #[inline(always)]
    pub(super) fn check(&self, cur: S::V, prev: S::V) -> S::V {
        let s = self.s;
        self.check_with(
            cur,
            s.prev1(cur, prev),
            s.prev2(cur, prev),
            s.prev3(cur, prev),
        )
    }

    /// The error bits of the register `cur`, given the registers of the
    /// bytes 1, 2 and 3 places before each of its bytes.
    #[inline(always)]
    fn check_with(&self, cur: S::V, prev1: S::V, prev2: S::V, prev3: S::V) -> S::V {
        let s = self.s;
        let special = self.special(cur, prev1);
        let must_be_cont = s.and(self.cont_expected(prev2, prev3, true), self.high_bit);
        s.xor(must_be_cont, special)
    }

    /// The error classes of each byte of `cur` with the byte before it
    /// (`prev1`): the AND of the three nibble lookups. A continuation byte
    /// after a lead comes out as exactly the high bit (which
    /// [`cont_expected`](Self::cont_expected) cancels); any other set bit is
    /// an error class of `docs/tables.md`. The UTF-8 check and the variants'
    /// checks (`variants.rs`, whose tables set one more class) share it.
    #[inline(always)]
    pub(super) fn special(&self, cur: S::V, prev1: S::V) -> S::V {
        let s = self.s;
        let high = s.lookup(self.byte_1_high, s.shr8::<4>(prev1));
        let low = s.lookup(self.byte_1_low, s.and(prev1, self.low_nibble));
        s.and(
            s.and(high, low),
            s.lookup(self.byte_2_high, s.shr8::<4>(cur)),
        )
    }

    /// The bytes that must be continuations because of a lead two places
    /// back (a 3- or 4-byte lead) or, with `fourth`, three places back (a
    /// 4-byte lead), in the high bit of each byte: the saturating
    /// differences set it exactly there. The other bits are noise, for the
    /// caller to mask with `high_bit` (after ORing in any rule of its own).
    /// The variants' paired rules (CESU-8, MUTF-8) have no 4-byte form and
    /// leave `fourth` off (a constant at every call, so the branch folds
    /// away); `prev3` is then not read.
    #[inline(always)]
    pub(super) fn cont_expected(&self, prev2: S::V, prev3: S::V, fourth: bool) -> S::V {
        let s = self.s;
        let third = s.sub_sat_u8(prev2, self.third_byte);
        if fourth {
            s.or(third, s.sub_sat_u8(prev3, self.fourth_byte))
        } else {
            third
        }
    }

    /// Nonzero if `last` ends inside a character.
    #[inline(always)]
    pub(super) fn incomplete(&self, last: S::V) -> S::V {
        self.s.sub_sat_u8(last, self.incomplete_max)
    }
}

/// Whether the `BLOCK` bytes at `p` are all ASCII.
///
/// # Safety
///
/// `p` is valid for reads of `BLOCK` bytes.
#[inline(always)]
pub(super) unsafe fn block_is_ascii<S: CheckSimd>(s: S, p: *const u8) -> bool {
    // SAFETY: the caller guarantees `BLOCK` readable bytes;
    // `k * S::BYTES + S::BYTES <= BLOCK`.
    unsafe {
        let mut any = s.load(p);
        for k in 1..BLOCK / S::BYTES {
            any = s.or(any, s.load(p.add(k * S::BYTES)));
        }
        s.is_ascii(any)
    }
}

/// Whether the `2 * BLOCK` bytes at `p` are all ASCII.
///
/// # Safety
///
/// `p` is valid for reads of `2 * BLOCK`
/// bytes.
#[inline(always)]
pub(super) unsafe fn double_block_is_ascii<S: CheckSimd>(s: S, p: *const u8) -> bool {
    // SAFETY: as for `block_is_ascii`, over `2 * BLOCK` bytes.
    unsafe {
        let mut any = s.load(p);
        for k in 1..2 * BLOCK / S::BYTES {
            any = s.or(any, s.load(p.add(k * S::BYTES)));
        }
        s.is_ascii(any)
    }
}

/// Whether the `4 * BLOCK` bytes at `p` are all ASCII: one OR tree and one
/// test for 256 bytes.
///
/// # Safety
///
/// `p` is valid for reads of `4 * BLOCK`
/// bytes.
#[inline(always)]
pub(super) unsafe fn quad_block_is_ascii<S: CheckSimd>(s: S, p: *const u8) -> bool {
    // SAFETY: as for `block_is_ascii`, over `4 * BLOCK` bytes.
    unsafe {
        let mut any = s.load(p);
        for k in 1..4 * BLOCK / S::BYTES {
            any = s.or(any, s.load(p.add(k * S::BYTES)));
        }
        s.is_ascii(any)
    }
}

/// Checks the first `BLOCK` bytes of the input, at `p`; ORs the error bits
/// into `err` and returns the block's last register. The first register
/// has only zeros before it (shifted in from a zero register); the others
/// read the bytes before them from memory, as [`check_block_mem`] does,
/// which on one 64-byte block of AVX2 saves 4 of its 14 shuffles.
///
/// # Safety
///
/// `p` is valid for reads of `BLOCK` bytes.
#[inline(always)]
unsafe fn check_first_block<S: CheckSimd>(c: &Consts<S>, p: *const u8, err: &mut S::V) -> S::V {
    let s = c.s;
    // SAFETY: the caller guarantees `BLOCK` readable bytes
    // at `p`; `k * S::BYTES + S::BYTES <= BLOCK`, and for `k >= 1` the
    // reads at `q - 3..q` lie in the register before.
    unsafe {
        let mut last = s.load(p);
        *err = s.or(*err, c.check(last, s.zero()));
        for k in 1..BLOCK / S::BYTES {
            let q = p.add(k * S::BYTES);
            last = s.load(q);
            let e = c.check_with(last, s.load(q.sub(1)), s.load(q.sub(2)), s.load(q.sub(3)));
            *err = s.or(*err, e);
        }
        last
    }
}

/// Checks the `BLOCK` bytes at `p` (not the first of the input), with the
/// bytes before each register read from memory, as three more unaligned
/// loads at `q - 1`, `q - 2` and `q - 3`, instead of shifted in from the
/// register before (one lane-crossing permute and three `alignr` per AVX2
/// register, all on the one shuffle port of Intel cores and on two of the
/// four vector pipes of AMD Zen 3).
/// Loads have ports of their own, and the bytes are in L1 already. Returns
/// the block's last register.
///
/// # Safety
///
/// `p - 3` is valid for reads of `BLOCK + 3`
/// bytes.
#[inline(always)]
unsafe fn check_block_mem<S: CheckSimd>(c: &Consts<S>, p: *const u8, err: &mut S::V) -> S::V {
    let s = c.s;
    // SAFETY: the caller guarantees the bytes
    // `p - 3..p + BLOCK`; every load below lies within them.
    unsafe {
        let mut last = s.load(p);
        for k in 0..BLOCK / S::BYTES {
            let q = p.add(k * S::BYTES);
            let cur = s.load(q);
            let e = c.check_with(cur, s.load(q.sub(1)), s.load(q.sub(2)), s.load(q.sub(3)));
            *err = s.or(*err, e);
            last = cur;
        }
        last
    }
}

/// Inputs of one or two blocks that [`one_or_two_blocks`] takes: exactly
/// `BLOCK` bytes, or from `BLOCK + 3` (so that the last block's three
/// bytes before it are input) up to `2 * BLOCK`.
#[inline(always)]
const fn is_one_or_two_blocks(len: usize) -> bool {
    len == BLOCK || (len >= BLOCK + 3 && len <= 2 * BLOCK)
}

/// [`validate`] for an input that [`is_one_or_two_blocks`] accepts: the
/// first block and the block that ends at the last byte (the same block
/// when the input is exactly `BLOCK` bytes; overlapping below `2 * BLOCK`),
/// with one ASCII test over both before any constant is loaded, and
/// neither the run loop's bookkeeping nor a tail. Re-checking the bytes the
/// two blocks share finds nothing new: the last block's pairs at its start
/// come from the bytes before it, read from memory. A failure reports
/// position 0, so the exact path re-reads at most `2 * BLOCK` bytes, less
/// than one checkpoint group.
///
/// For exactly 64 bytes (where simdutf8 runs one block of its kernel) the
/// general loop cost 47 instructions per call on ASCII and 89 on 2-byte
/// text with AVX2 (callgrind), against simdutf8's 26 and 71, and measured
/// 0.73-0.93x its time.
///
/// # Safety
///
/// `is_one_or_two_blocks(input.len())`.
#[inline(always)]
unsafe fn one_or_two_blocks<S: CheckSimd>(s: S, input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    let first = input.as_ptr();
    // SAFETY: the caller guarantees `len >= BLOCK`, so both
    // blocks (`first..first + BLOCK` and `last..first + len`) are in bounds,
    // and when the blocks differ `len >= BLOCK + 3`, so `last - 3 >= first`
    // for `check_block_mem`.
    unsafe {
        let last = first.add(len - BLOCK);
        let mut any = s.or(s.load(first), s.load(last));
        for k in 1..BLOCK / S::BYTES {
            any = s.or(
                s.or(any, s.load(first.add(k * S::BYTES))),
                s.load(last.add(k * S::BYTES)),
            );
        }
        if s.is_ascii(any) {
            return Ok(());
        }
        let c = Consts::new(s, &tables::UTF8);
        let mut err = s.zero();
        let mut end = check_first_block(&c, first, &mut err);
        if len > BLOCK {
            end = check_block_mem(&c, last, &mut err);
        }
        if s.any(s.or(err, c.incomplete(end))) {
            Err(0)
        } else {
            Ok(())
        }
    }
}

/// Checks `rest`, the end of the input, after the register `prev` (zero at
/// the start of the input or after a block that is all ASCII): the
/// registers that are whole, then one partial register, zero-filled (zeros
/// are ASCII, so an unfinished character at the end fails on them). ORs
/// the error bits into `err`.
///
#[inline(always)]
fn check_registers<S: CheckSimd>(c: &Consts<S>, rest: &[u8], mut prev: S::V, err: &mut S::V) {
    let s = c.s;
    let len = rest.len();
    let ptr = rest.as_ptr();
    // SAFETY: the reads are in bounds as noted at each.
    unsafe {
        let mut k = 0;
        while len - k >= S::BYTES {
            // In bounds: `k + S::BYTES <= len`.
            let cur = s.load(ptr.add(k));
            *err = s.or(*err, c.check(cur, prev));
            prev = cur;
            k += S::BYTES;
        }
        if k < len {
            // In bounds: `len - k < S::BYTES` bytes at `k`.
            let cur = s.load_partial(ptr.add(k), len - k);
            *err = s.or(*err, c.check(cur, prev));
        } else {
            *err = s.or(*err, c.incomplete(prev));
        }
    }
}

/// The end of the ASCII run at `i`: the first `j >= i` where fewer than
/// `BLOCK` bytes are left or the `BLOCK` bytes at `j` are not all ASCII
/// (`len` itself when the rest of the input is ASCII); `input[i..j]` is
/// ASCII. Needs none of the check's constants. The block at `i` is tested
/// first and alone, so that a non-ASCII run pays one test, not four.
///
/// # Safety
///
/// `ptr` is valid for reads of `len` bytes and
/// `i <= len`.
#[inline(always)]
pub(super) unsafe fn ascii_run<S: CheckSimd>(s: S, ptr: *const u8, len: usize, i: usize) -> usize {
    // SAFETY: the caller guarantees `len` readable bytes and
    // `i <= len`; the block read is in bounds (`i + BLOCK <= len`).
    unsafe {
        if len - i < BLOCK || !block_is_ascii(s, ptr.add(i)) {
            return i;
        }
        ascii_run_after(s, ptr, len, i)
    }
}

/// [`ascii_run`] for a run whose first block, at `i`, is known to be ASCII.
///
/// After that block, 256 bytes an iteration (one OR tree and one test),
/// then, with fewer than 256 bytes left, one test of the input's last 256
/// bytes (overlapping bytes already known to be ASCII): 4 tests for 1 KiB
/// of ASCII instead of 9 at 128 bytes an iteration. 128 and then 64 bytes
/// at a time find the block where a run ends.
///
/// # Safety
///
/// `ptr` is valid for reads of `len` bytes and
/// the `BLOCK` bytes at `i` are in bounds and ASCII.
#[inline(always)]
unsafe fn ascii_run_after<S: CheckSimd>(s: S, ptr: *const u8, len: usize, mut i: usize) -> usize {
    // SAFETY: the caller guarantees `len` readable bytes and
    // `i + BLOCK <= len`; every test reads bytes below `len`, as noted at
    // each.
    unsafe {
        // Realign to the next 64-byte boundary (at most `BLOCK` on: the
        // bytes skipped are in the block known to be ASCII), so the loads
        // below do not straddle cache lines: 60 -> 80 GB/s for AVX-512 on
        // ASCII at 64 KiB, where every unaligned 64-byte load took two
        // lines.
        i += BLOCK - ptr.add(i).addr() % BLOCK;
        if len - i >= 4 * BLOCK {
            let last = len - 4 * BLOCK;
            // A pointer to the middle of the 256 bytes tested, so that all
            // eight AVX2 loads have one-byte displacements (-128..=96): the
            // loop is 60-67 bytes instead of 83 (indexed, four of them with
            // 4-byte displacements), which spans at most two of Zen 4's
            // 64-byte fetch windows wherever its 16-byte-aligned start
            // falls. At 83 bytes it spanned three when it started 48 bytes
            // into a window, and ascii-1KiB took 11 ns instead of 9.
            // In bounds: `q - 2 * BLOCK <= ptr + last`, `last + 4 * BLOCK
            // == len`.
            let mut q = ptr.add(i + 2 * BLOCK);
            let end = ptr.add(last + 2 * BLOCK);
            while q <= end && quad_block_is_ascii(s, q.sub(2 * BLOCK)) {
                q = q.add(4 * BLOCK);
            }
            i = q.offset_from_unsigned(ptr) - 2 * BLOCK;
            // In bounds: `last + 4 * BLOCK == len`.
            if i > last && quad_block_is_ascii(s, ptr.add(last)) {
                return len;
            }
        }
        if len - i >= 2 * BLOCK {
            // One induction variable against a fixed limit (`i <= last`,
            // not `len - i >= 2 * BLOCK`, which kept a second counter):
            // the AVX2 loop is 44 bytes instead of 49, and its loop-back
            // `cmp`/`jbe` no longer ends on a 32-byte boundary at either
            // 16-byte alignment of the loop (it did at one: on this
            // Skylake-SP, the JCC-erratum case that keeps the loop out of
            // the decoded-µop cache, ascii-1KiB `is_valid` took 25-39 ns
            // instead of 17-19 depending on where the linker put the
            // function).
            // In bounds: `i + 2 * BLOCK <= len`.
            let last = len - 2 * BLOCK;
            while i <= last && double_block_is_ascii(s, ptr.add(i)) {
                i += 2 * BLOCK;
            }
        }
        // In bounds: `i + BLOCK <= len`.
        while len - i >= BLOCK && block_is_ascii(s, ptr.add(i)) {
            i += BLOCK;
        }
        i
    }
}

/// Whether the first 8 bytes at `p` are ASCII: the first test of the block
/// after each block of a non-ASCII run ([`non_ascii_run`]), a necessary
/// condition for the block test, which follows only where it holds. In a
/// non-ASCII run it almost never does, and then the test costs no vector
/// operation (a load and a scalar test), where the AVX2 check is bound by
/// its vector operations.
///
/// # Safety
///
/// `p` is valid for reads of 8 bytes.
#[inline(always)]
pub(super) unsafe fn first_word_is_ascii(p: *const u8) -> bool {
    // SAFETY: the caller guarantees the bytes.
    let word = unsafe { p.cast::<u64>().read_unaligned() };
    word & 0x8080_8080_8080_8080 == 0
}

/// Where [`non_ascii_run`] stopped, and what it knows there.
pub(super) struct Run<V> {
    /// Where the run stopped.
    pub(super) i: usize,
    /// The start of the last group: `input[..checked]` is a valid prefix
    /// (it may end inside a character), and the errors are after it.
    pub(super) checked: usize,
    /// The flags of the blocks from `checked` to `i` ([`RunEnd::Tail`]).
    pub(super) err: V,
    /// The last register checked ([`RunEnd::Tail`]).
    pub(super) last: V,
}

/// How a non-ASCII run ended.
pub(super) enum RunEnd {
    /// At a plain (ASCII) block at `i`, with nothing open: `input[..i]` is
    /// valid and ends at a character boundary.
    Ascii,
    /// With fewer than `BLOCK` bytes left at `i`, for the caller's tail.
    Tail,
    /// In a group whose flags are set: its start is `checked`.
    Flagged,
}

/// The check of each block of a non-ASCII run ([`non_ascii_run`]), as
/// methods (closures would not inherit the caller's `#[target_feature]`,
/// and their intrinsics were called, not inlined).
pub(super) trait RunCheck<S: CheckSimd> {
    /// The token of the check's instruction set.
    fn simd(&self) -> S;

    /// The flags and the last register of the block at `p`, the input's
    /// first bytes (no bytes before it are read).
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BLOCK` bytes.
    unsafe fn first(&self, p: *const u8) -> (S::V, S::V);

    /// The flags and the last register of the block at `p`, whose three
    /// bytes before are input.
    ///
    /// # Safety
    ///
    /// `p - 3` is valid for reads of `BLOCK + 3` bytes.
    unsafe fn block(&self, p: *const u8) -> (S::V, S::V);

    /// Whether the block at `p` ends the run (is plain ASCII); called where
    /// [`first_word_is_ascii`] holds.
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BLOCK` bytes.
    unsafe fn plain(&self, p: *const u8) -> bool;

    /// Given the flags since the group's start and the last register,
    /// whether a run that ends there holds an error or leaves something
    /// open.
    fn open(&self, err: S::V, last: S::V) -> bool;
}

impl<S: CheckSimd> RunCheck<S> for Consts<S> {
    #[inline(always)]
    fn simd(&self) -> S {
        self.s
    }

    #[inline(always)]
    unsafe fn first(&self, p: *const u8) -> (S::V, S::V) {
        let mut err = self.s.zero();
        // SAFETY: the caller guarantees the bytes.
        let last = unsafe { check_first_block(self, p, &mut err) };
        (err, last)
    }

    #[inline(always)]
    unsafe fn block(&self, p: *const u8) -> (S::V, S::V) {
        let mut err = self.s.zero();
        // SAFETY: the caller guarantees the bytes.
        let last = unsafe { check_block_mem(self, p, &mut err) };
        (err, last)
    }

    #[inline(always)]
    unsafe fn plain(&self, p: *const u8) -> bool {
        // SAFETY: the caller guarantees the bytes.
        unsafe { block_is_ascii(self.s, p) }
    }

    #[inline(always)]
    fn open(&self, err: S::V, last: S::V) -> bool {
        self.s.any(self.s.or(err, self.incomplete(last)))
    }
}

/// A non-ASCII run, from the block at `i` (not plain, and in bounds) on,
/// as groups of [`GROUP`] bytes: the blocks of a whole group are checked
/// with only the next block's plain test between them (the end of the
/// run), the length tested once per group and the flags at the group's
/// end. The UTF-8 kernel ([`validate_rest`]) and utf8-simd's BMP check
/// (`variants::bmp`) differ only in their [`RunCheck`]. The input's first
/// block (`i < 3`, where the bytes before it are not input) is a group of
/// its own, so that the loop's blocks take the bytes before each register
/// from memory and nothing is carried from block to block.
///
/// The loop of one block per iteration with a test of the checkpoint, the
/// length and the next block (an OR and a movemask with AVX2) after each
/// spent about a fifth of the BMP check's instructions on them
/// (docs/results/utf8-variants.md, "Decisions and dead ends").
///
/// # Safety
///
/// `ptr` is valid for reads of `len` bytes,
/// and `i + BLOCK <= len`.
#[inline(always)]
pub(super) unsafe fn non_ascii_run<S: CheckSimd, C: RunCheck<S>>(
    c: &C,
    ptr: *const u8,
    len: usize,
    i: usize,
) -> (RunEnd, Run<S::V>) {
    const PER_GROUP: usize = GROUP / BLOCK;
    let s = c.simd();
    // SAFETY: the caller guarantees the bytes; every read
    // is in bounds, as noted at each one.
    unsafe {
        let mut i = i;
        let mut checked = i;
        let mut err;
        let mut last;
        // Whether the first block was checked alone (its group), so that
        // the loop starts with the test of the block after it.
        let mut peeled = i < 3;
        // The next block's test: the run ends there.
        let next_is_plain = |p: *const u8| first_word_is_ascii(p) && c.plain(p);
        macro_rules! end {
            ($how:expr) => {
                return (
                    $how,
                    Run {
                        i,
                        checked,
                        err,
                        last,
                    },
                )
            };
        }
        if peeled {
            // In bounds: `i + BLOCK <= len`.
            (err, last) = c.first(ptr.add(i));
            i += BLOCK;
            if s.any(err) {
                end!(RunEnd::Flagged);
            }
            checked = i;
        } else {
            err = s.zero();
            last = err;
        }
        loop {
            if !peeled {
                // A group from `checked == i >= 3`, a block that is not
                // plain. `err` is zero at every way in (tested); said
                // again so that the group's first flags need no OR.
                err = s.zero();
                // (Testing the first words of the group's other blocks
                // up front and checking them without a branch between was
                // slower with AVX2: 2850 against 2780 ns per 64 KiB.)
                if len - i >= GROUP {
                    for k in 1..=PER_GROUP {
                        // Two blocks ahead, as simdutf8 does; only AVX2
                        // prefetches (measured there), the others ignore
                        // the hint.
                        let p = ptr.add(i);
                        s.prefetch(p.wrapping_add(2 * BLOCK));
                        // In bounds: `i + BLOCK <= checked + GROUP <= len`
                        // and `i >= 3`.
                        let (flags, l) = c.block(p);
                        err = s.or(err, flags);
                        last = l;
                        i += BLOCK;
                        // In bounds: `i + BLOCK <= checked + GROUP` for
                        // `k < PER_GROUP`.
                        if k < PER_GROUP && next_is_plain(p.add(BLOCK)) {
                            if c.open(err, last) {
                                end!(RunEnd::Flagged);
                            }
                            end!(RunEnd::Ascii);
                        }
                    }
                    if s.any(err) {
                        end!(RunEnd::Flagged);
                    }
                    checked = i;
                } else {
                    // Fewer than a group left: block by block, with the
                    // length test after each.
                    loop {
                        s.prefetch(ptr.wrapping_add(i + 2 * BLOCK));
                        // In bounds: `i + BLOCK <= len` and `i >= 3`.
                        let (flags, l) = c.block(ptr.add(i));
                        err = s.or(err, flags);
                        last = l;
                        i += BLOCK;
                        if len - i < BLOCK {
                            end!(RunEnd::Tail);
                        }
                        // In bounds: `i + BLOCK <= len`.
                        if next_is_plain(ptr.add(i)) {
                            if c.open(err, last) {
                                end!(RunEnd::Flagged);
                            }
                            end!(RunEnd::Ascii);
                        }
                    }
                }
            }
            peeled = false;
            if len - i < BLOCK {
                end!(RunEnd::Tail);
            }
            // In bounds: `i + BLOCK <= len`.
            if next_is_plain(ptr.add(i)) {
                if c.open(err, last) {
                    end!(RunEnd::Flagged);
                }
                end!(RunEnd::Ascii);
            }
        }
    }
}

/// `Ok(())` if `input` is well-formed UTF-8; otherwise `Err(pos)`, where
/// `input[..pos]` is known to be a prefix of well-formed UTF-8 (it may end
/// inside a character) and the first error is at or after `pos - 3`.
///
/// This part runs the short inputs' paths and the input's first ASCII run
/// ([`ascii_run`]); at the first block with a high bit set it calls `rest`,
/// the arch module's out-of-line, `#[target_feature]` instance of
/// [`validate_rest`] for the same `S` and `CHECKPOINTS`. Kept apart, an
/// all-ASCII input runs without the check's constants (9 loads, which LLVM
/// hoisted in front of the ASCII loop when one loop held both states, and
/// which competed with its loads) and without the rest's register
/// pressure: inlined, the AVX2 `validate` saved and restored six registers
/// on every call, and ascii-1KiB took 12 ns against `is_valid`'s 9 (Zen 4).
///
/// # Safety
///
/// `rest` is `validate_rest::<S, CHECKPOINTS>` (compiled with `S`'s
/// features).
#[inline(always)]
pub(crate) unsafe fn validate<S: CheckSimd, const CHECKPOINTS: bool>(
    s: S,
    input: &[u8],
    rest: unsafe fn(&[u8], usize) -> Result<(), usize>,
) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    if len < BLOCK {
        // Less than a block (the free functions send non-ASCII input of 9
        // to 63 bytes here): the registers and the partial one, without the
        // run loop's tests of the length. Measured on 16-byte text with
        // AVX2: 109 instructions per call before, 113 when these lengths
        // came after the one-or-two-block test below, 92 now.
        let c = Consts::new(s, &tables::UTF8);
        let mut err = s.zero();
        check_registers(&c, input, s.zero(), &mut err);
        return if s.any(err) { Err(0) } else { Ok(()) };
    }
    if is_one_or_two_blocks(len) {
        // SAFETY: the length is checked.
        return unsafe { one_or_two_blocks(s, input) };
    }
    // SAFETY: the caller guarantees that `rest` is the
    // rest of this kernel; `len > BLOCK`, so the last block is in bounds,
    // and `i <= len`.
    unsafe {
        let i = ascii_run(s, ptr, len, 0);
        if i == len || (len - i < BLOCK && block_is_ascii(s, ptr.add(len - BLOCK))) {
            return Ok(());
        }
        // Through `black_box`: an indirect call, which LLVM cannot inline.
        // rustc 1.95 drops `#[inline(never)]` from `#[target_feature]`
        // functions (no `noinline` in the IR), and LLVM inlined the direct
        // call, pushes and all, into its only caller.
        core::hint::black_box(rest)(input, i)
    }
}

/// [`validate`] from `i` on, where `input[..i]` is ASCII and either the
/// block at `i` is not ASCII or fewer than `BLOCK` bytes are left (and
/// the input's last block is not ASCII).
///
/// The loop alternates between two states. In a non-ASCII run it runs the
/// full check, block by block, and goes back to an ASCII run
/// ([`ascii_run_after`]: 256, then 128, then 64 bytes at a time, a tight
/// loop of loads that runs at the speed of the L1/L2 caches) at the next
/// all-ASCII block, after checking that the last non-ASCII block did not
/// end inside a character. (One loop with the ASCII test inside ran ASCII
/// at 0.4x simdutf8.)
///
/// With `CHECKPOINTS` (`validate`), a non-ASCII run is checked in groups of
/// [`GROUP`] bytes by [`non_ascii_run`], the loop it shares with
/// utf8-simd's BMP check: the error register is tested at the end of each
/// group, so that a failure reports a position at most 256 bytes before
/// the error and the exact path stays short, and between the blocks of a
/// group only the next block's first word is tested. Without them
/// (`is_valid`, which needs no position) the block loop stays: one block
/// an iteration and the error register tested only where a non-ASCII run
/// ends, which ran 64 KiB of non-ASCII text about 8% faster than the
/// groups on Zen 4 at the same instruction count
/// (docs/results/utf8-simd.md, "Decisions and dead ends").
///
/// # Safety
///
/// `input.len() > BLOCK` and `i` is as above.
#[inline(always)]
pub(crate) unsafe fn validate_rest<S: CheckSimd, const CHECKPOINTS: bool>(
    s: S,
    input: &[u8],
    mut i: usize,
) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    // SAFETY: the caller guarantees `len > BLOCK` and
    // `i <= len`; every read is in bounds, as noted at each one.
    unsafe {
        let c = Consts::new(s, &tables::UTF8);
        let zero = s.zero();
        let mut err = zero;
        // `input[..checked]` is a valid prefix that ends at a character
        // boundary, and `err` holds the errors after it.
        let mut checked = i;
        let mut prev = zero;
        if len - i >= BLOCK && CHECKPOINTS {
            let last = len - BLOCK;
            loop {
                // A non-ASCII run, starting with a block known to be
                // non-ASCII (in bounds: `i + BLOCK <= len`). At `i < 3`
                // the register before is zero; elsewhere the bytes before
                // `i` are the real input (the ASCII run's), which is what
                // the register path would shift in.
                let (end, run) = non_ascii_run(&c, ptr, len, i);
                match end {
                    RunEnd::Flagged => return Err(run.checked),
                    RunEnd::Tail => {
                        (i, checked, err, prev) = (run.i, run.checked, run.err, run.last);
                        break;
                    }
                    RunEnd::Ascii => {
                        // The next ASCII run, whose first block is ASCII:
                        // `input[..run.i]` ends at a character boundary.
                        i = ascii_run_after(s, ptr, len, run.i);
                        checked = i;
                        if i > last {
                            break;
                        }
                    }
                }
            }
        } else if len - i >= BLOCK {
            // The block loop without checkpoints (`is_valid`): one block
            // an iteration, the next block's ASCII test loaded with the
            // registers the check reads next (see above for why not the
            // groups). The same loop with the checkpoint and the length
            // folded into one limit (one test of `i` per block) measured
            // no faster for `validate` than the loop before it.
            let last = len - BLOCK;
            'runs: loop {
                // In bounds: `i + BLOCK <= len`, and `i >= 3` for the reads
                // before the block; at `i < 3` the register before is zero.
                s.prefetch(ptr.wrapping_add(i + 2 * BLOCK));
                prev = if i >= 3 {
                    check_block_mem(&c, ptr.add(i), &mut err)
                } else {
                    check_first_block(&c, ptr.add(i), &mut err)
                };
                loop {
                    i += BLOCK;
                    if i > last {
                        break 'runs;
                    }
                    // In bounds: `i + BLOCK <= len`.
                    if block_is_ascii(s, ptr.add(i)) {
                        err = s.or(err, c.incomplete(prev));
                        if s.any(err) {
                            return Err(checked);
                        }
                        break;
                    }
                    // In bounds: `i + BLOCK <= len` and `i >= BLOCK`.
                    s.prefetch(ptr.wrapping_add(i + 2 * BLOCK));
                    prev = check_block_mem(&c, ptr.add(i), &mut err);
                }
                // The next ASCII run: `err` is zero and `input[..i]` ends
                // at a character boundary.
                i = ascii_run_after(s, ptr, len, i);
                checked = i;
                prev = zero;
                if i > last {
                    break 'runs;
                }
            }
        }
        if i == len {
            err = s.or(err, c.incomplete(prev));
        } else if len >= BLOCK + S::BYTES {
            // The overlapping last block: bytes `len - BLOCK..len`, with the
            // register before it at `len - BLOCK - S::BYTES >= 0`.
            let p = ptr.add(len - BLOCK);
            if block_is_ascii(s, p) {
                // Bytes `i..len` are ASCII; only what came before can be
                // unfinished.
                err = s.or(err, c.incomplete(prev));
            } else {
                // In bounds: `p - 3 >= ptr + S::BYTES - 3`.
                let last = check_block_mem(&c, p, &mut err);
                err = s.or(err, c.incomplete(last));
            }
        } else {
            // Fewer than `BLOCK + S::BYTES` bytes in all.
            check_registers(&c, &input[i..], prev, &mut err);
        }
        if s.any(err) { Err(checked) } else { Ok(()) }
    }
}
