//! The Keiser–Lemire check for UTF-8's relatives (CESU-8, Java's Modified
//! UTF-8, WTF-8; their tables and exact errors live in utf8-variants): the
//! kernel's block loop with a caller's [`NibbleTables`] and the few checks
//! that pairs of bytes cannot express, selected by [`Rules`].
//!
//! Per register, on top of UTF-8's check:
//!
//! - **Surrogate pairing.** The tables' [`SURROGATE`] bit marks the pair
//!   `ED A0..=BF` (the first two bytes of a surrogate) instead of flagging
//!   it. With `S` that bit and `L = S & !(byte & 0x10)` ("a lead surrogate
//!   here": `A0..=AF`), a trail is `S ^ L`, and the error bit is
//!   `trail ^ L<<3` for [`Rules::Paired`] (every lead has a trail three bytes
//!   later and every trail a lead three bytes before) or `trail & L<<3` for
//!   [`Rules::Unpaired`]. `L<<3` is one more byte shift per register, of `L`
//!   carried from the register before.
//! - **No fourth-byte check** for the paired rules: their tables flag every
//!   4-byte lead as an error of its own.
//! - **Modified UTF-8** ([`Rules::PairedModifiedNul`]): the tables' [`C0_80`]
//!   bit is cleared where both low nibbles of the pair are zero (one more
//!   lookup), and a `00` byte is flagged through the "must be a
//!   continuation" bit (one saturating subtraction); ASCII blocks are ASCII
//!   without `00`, tested as the signed minimum of their registers being
//!   above zero (one operation per register, as UTF-8's OR).
//!
//! Most text has no surrogate and no `C0 80`, so each block of a non-ASCII
//! run is first checked without these rules ([`VariantConsts::check_plain`]:
//! UTF-8's check with the variant's tables, counting every surrogate marker
//! and `C0_80` pair as an error; 14 operations per register where the full
//! check takes 21, 27 for MUTF). The plain check's flags are tested once
//! per group of four blocks, like the UTF-8 kernel's error register; only a
//! group they flag is checked again in full, and the groups after it stay
//! in the full check while the last block of each holds markers (a run of
//! supplementary characters is checked once, not twice). A lead surrogate
//! ending a block is a marker, so a group never starts after an open lead
//! (see [`validate`]). Testing the flags once per group rather than once
//! per block took the AVX2 check of CESU-8 from 0.68–0.80× to 0.92–0.99×
//! the UTF-8 kernel's time on Chinese text (docs/results/utf8-variants.md,
//! "Decisions and dead ends", which has the other ratios).
//!
//! Text whose characters are all supplementary (emoji, CJK Extension B)
//! needs the full check in every block, 1.5 bytes of it for each byte of
//! UTF-8. Under the paired rules such runs take a third mode ([`pairs`]):
//! groups of 256 bytes compared with the byte pattern of surrogate pairs
//! (`ED A0..AF 80..BF ED B0..BF 80..BF`, from a lead found just before a
//! checkpoint of the full mode), three operations per register, back to
//! the full mode where a group does not match (Zen 4, 64 KiB of Emoji as
//! CESU-8: 110.8K -> 13.8K instructions with AVX2; docs/results/
//! utf8-variants.md, "Decisions and dead ends").
//!
//! The loop is the UTF-8 kernel's (ASCII runs, non-ASCII runs, checkpoints
//! every [`GROUP`] bytes), minus its tail: the caller (utf8-variants) checks
//! the last bytes, fewer than a block, and every error, with its scalar DFA
//! from a character boundary before the position returned. So the contract
//! is: `Ok(end)` or `Err(start)`, with everything before the position a
//! prefix of valid text (it may end inside a character or a surrogate
//! pair); `Err` means an error follows it.
//!
//! `xtask gen-tables --check` proves this check, written out position by
//! position, equal to each encoding's DFA on every input (docs/tables.md).
//!
//! The plain check alone, in a loop of its own ([`bmp`]) and with the
//! crate's tables of UTF-8 without 4-byte forms ([`run_bmp`]), is the check
//! of `crate::variant::bmp_str`: with those tables every surrogate is an
//! error too, so "no flag" means "UTF-8 whose characters are all in the
//! BMP", the text CESU-8 and MUTF-8 decode to itself, and which
//! utf8-variants also checks first when it validates them (Zen 4: CESU-8
//! decoding 1.8x `simd_cesu8::decode` with the loop of [`bmp`], where
//! UTF-8's validation and a scan for `F0..` made 0.9-1.1x;
//! docs/results/utf8-variants.md, "Decisions and dead ends").

use super::kernel::{BLOCK, Consts, GROUP, RunCheck, RunEnd, block_is_ascii, non_ascii_run};
use super::simd::CheckSimd;
use crate::tables::{C0_80, NibbleTables, SURROGATE};
use crate::variant::{Rules, Tables};

/// `LAST3[64 - BYTES..]`: nonzero in the last three bytes of a register,
/// where a lead surrogate's trail would be in the next register.
#[rustfmt::skip]
static LAST3: [u8; 64] = {
    let mut t = [0u8; 64];
    t[61] = 0xFF;
    t[62] = 0xFF;
    t[63] = 0xFF;
    t
};

/// `LAST1[64 - BYTES..]`: 1 in the last byte of a register, 0 elsewhere.
static LAST1: [u8; 64] = {
    let mut t = [0u8; 64];
    t[63] = 1;
    t
};

/// `MASK_C0_80[(prev | cur) & 0x0F]`: clears [`C0_80`] where both low
/// nibbles are zero.
static MASK_C0_80: [u8; 16] = {
    let mut t = [0xFFu8; 16];
    t[0] = !C0_80;
    t
};

/// The bytes a run of surrogate pairs reads as, from a pair's first byte
/// on, read through [`PAIR_MASK`]: `ED`, `A0..=AF` (a lead's second byte),
/// `80..=BF`, `ED`, `B0..=BF` (a trail's), `80..=BF`, repeated. A register
/// that starts `ph` bytes into a pair reads from `PAIR_BITS[ph..]`.
static PAIR_BITS: [u8; 72] = periodic([0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]);

/// The bits of each byte that [`PAIR_BITS`] fixes.
static PAIR_MASK: [u8; 72] = periodic([0xFF, 0xF0, 0xC0, 0xFF, 0xF0, 0xC0]);

/// `six` repeated over 72 bytes: enough for a 64-byte register at any
/// phase `0..6`.
const fn periodic(six: [u8; 6]) -> [u8; 72] {
    let mut t = [0u8; 72];
    let mut k = 0;
    while k < t.len() {
        t[k] = six[k % 6];
        k += 1;
    }
    t
}

/// How far a group of the pairs mode ([`pairs_group`]) moves: the whole
/// pairs in the [`GROUP`] bytes it reads, so that every group starts at a
/// pair's first byte (the last four bytes read are read again).
const PAIRS_STEP: usize = GROUP - GROUP % 6;

/// Zero if and only if the [`GROUP`] bytes at `p` are surrogate pairs, the
/// first starting at `p` (the last one cut off after 4 bytes): per
/// register an XOR with the pattern, an AND with its mask and an OR into
/// the flags, against the 21 operations per register of the full check.
/// This is the check of text whose characters are all supplementary
/// (emoji, CJK Extension B), where every block needs the full check.
///
/// # Safety
///
/// `p` is valid for reads of `GROUP` bytes.
#[inline(always)]
unsafe fn pairs_group<S: CheckSimd>(s: S, p: *const u8) -> S::V {
    // SAFETY: the caller guarantees `GROUP` readable bytes
    // at `p`; `k * S::BYTES + S::BYTES <= GROUP`; the pattern reads are
    // `S::BYTES <= 64` bytes from `ph < 6`, inside the 72-byte tables.
    unsafe {
        let mut flags = s.zero();
        for k in 0..GROUP / S::BYTES {
            let ph = (k * S::BYTES) % 6;
            let cur = s.load(p.add(k * S::BYTES));
            let bits = s.load(PAIR_BITS.as_ptr().add(ph));
            let mask = s.load(PAIR_MASK.as_ptr().add(ph));
            flags = s.or(flags, s.and(s.xor(cur, bits), mask));
        }
        flags
    }
}

/// The first byte of a lead surrogate at one of `i - 7 ..= i - 2` (one of
/// any six positions in a run of pairs), if any: where the pairs mode can
/// start after the full check accepted everything before `i`. At those
/// positions the full check has already seen that the character before is
/// finished and that no lead is open (a lead three bytes before would want
/// a trail where this lead's second byte is, at `t + 1 < i`).
fn pair_start(input: &[u8], i: usize) -> Option<usize> {
    let before = input.get(i.checked_sub(7)?..i)?;
    let k = before
        .windows(2)
        .position(|w| w[0] == 0xED && w[1] & 0xF0 == 0xA0)?;
    Some(i - 7 + k)
}

/// Where [`validate`] stopped.
pub(super) enum Stop {
    /// Its answer, with the contract of the module docs.
    Done(Result<usize, usize>),
    /// At a checkpoint `i` of the full mode whose last block held a
    /// surrogate, for the pairs mode ([`pairs`]): `input[..i]` is valid but
    /// for what is open at `i`, and `i >= GROUP`.
    Pairs(usize),
}

/// The pairs mode at [`Stop::Pairs`]`(i)`: from a lead shortly before `i`
/// ([`pair_start`]), groups of [`pairs_group`] while they pass. Returns
/// where [`validate`] goes on, in its full mode, and whether two groups or
/// more passed (a run long enough to try again at the next checkpoint):
///
/// - `t` after the groups that passed: `input[..t]` is valid and `t`
///   follows a trail, so no lead is open there.
/// - `start` if none passed: the lead's first byte, which the full mode
///   saw follow a finished character and no open lead.
/// - `i` if there is no lead: then none whose trail would reach `i` or
///   later (their markers would be at `i - 3 .. i`); the full mode goes on
///   at `i` as if it had not stopped.
///
/// Out of line, called from [`checked`] through a pointer ([`Pairs`]),
/// with [`validate`] left at each call: with this loop inside the full
/// mode's loop (inlined, or called there), the three rule sets' shared
/// function allocated that loop's registers differently, and text whose
/// every attempt fails (pairs mixed with spaces) ran 8% more instructions
/// with the call, 21% with everything inlined (LLVM kept the bytes
/// [`pair_start`] reads, and six offsets into them, up to date in every
/// block).
///
/// # Safety
///
/// `GROUP <= i <= input.len()`.
#[inline(always)]
unsafe fn pairs<S: CheckSimd>(s: S, input: &[u8], i: usize) -> (usize, bool) {
    let Some(start) = pair_start(input, i) else {
        return (i, false);
    };
    let mut t = start;
    // In bounds: `t + GROUP <= input.len()`.
    // SAFETY: as the loop condition says.
    while input.len() - t >= GROUP && !s.any(unsafe { pairs_group(s, input.as_ptr().add(t)) }) {
        t += PAIRS_STEP;
    }
    (t, t - start >= 2 * PAIRS_STEP)
}

/// [`pairs`] for one vector type, compiled with its features.
type Pairs = unsafe fn(&[u8], usize) -> (usize, bool);

/// The most checkpoints [`checked`] lets pass without trying the pairs
/// mode after attempts that failed: 64 groups, 16 KiB.
const PAIRS_WAIT_MAX: usize = 63;

/// [`validate`] with the pairs mode: each [`Stop::Pairs`] runs
/// `pairs_mode`, and [`validate`] goes on in the full mode where it
/// stopped. After an attempt that passed fewer than two groups, the next
/// `wait` such checkpoints (1, 3, 7, ... up to [`PAIRS_WAIT_MAX`]) do not
/// stop: in text that mixes pairs with other characters every attempt
/// fails, and costs a tenth to a fifth of a group of the full mode; where
/// runs of pairs are a little longer than a group, one in a few passes,
/// and resetting the wait after such an attempt ran 60 emoji and one
/// Chinese character, repeated, 9% slower than without the mode (AVX-512,
/// Zen 4), 0-3% after.
///
/// # Safety
///
/// `pairs_mode` is [`pairs`] for `S` (compiled with its features).
#[inline(always)]
unsafe fn checked<S: CheckSimd, const PAIRED: bool, const MUTF: bool>(
    s: S,
    tables: &NibbleTables,
    input: &[u8],
    pairs_mode: Pairs,
) -> Result<usize, usize> {
    let (mut from, mut full, mut wait, mut skip) = (0, false, 0usize, 0);
    loop {
        // SAFETY: `from` is 0 or where the pairs mode says the full mode
        // can go on.
        match unsafe { validate::<S, PAIRED, MUTF>(s, tables, input, from, full, skip) } {
            Stop::Done(r) => return r,
            Stop::Pairs(i) => {
                // Through `black_box`: an indirect call, which LLVM cannot
                // inline (see [`pairs`]).
                // SAFETY: `pairs_mode` is `pairs` for `S` (the caller's
                // guarantee), and `GROUP <= i <= input.len()`.
                let (at, long_run) = unsafe { core::hint::black_box(pairs_mode)(input, i) };
                if long_run {
                    wait = 0;
                } else {
                    wait = (2 * wait + 1).min(PAIRS_WAIT_MAX);
                }
                (from, full, skip) = (at, true, wait);
            }
        }
    }
}

/// The constants of the variant check.
#[derive(Clone, Copy)]
struct VariantConsts<S: CheckSimd> {
    base: Consts<S>,
    surrogate: S::V,
    /// `SURROGATE | C0_80`: the marks of Modified UTF-8.
    marks_mutf: S::V,
    ones: S::V,
    last3: S::V,
    /// 1 in the last byte of a register, 0 elsewhere.
    last1: S::V,
    mask_c0_80: S::V,
}

impl<S: CheckSimd> VariantConsts<S> {
    #[inline(always)]
    fn new(s: S, t: &NibbleTables) -> Self {
        VariantConsts {
            base: Consts::new(s, t),
            surrogate: s.splat8(SURROGATE),
            marks_mutf: s.splat8(SURROGATE | C0_80),
            ones: s.splat8(0xFF),
            // SAFETY: `S::BYTES <= 64` bytes ending at the end of the array
            // (the kernel asserts `S::BYTES <= 64` in `Consts::new`).
            last3: unsafe { s.load(LAST3.as_ptr().add(LAST3.len() - S::BYTES)) },
            // SAFETY: as above.
            last1: unsafe { s.load(LAST1.as_ptr().add(LAST1.len() - S::BYTES)) },
            mask_c0_80: s.broadcast16(&MASK_C0_80),
        }
    }

    /// The error bits of `cur`, the lead-surrogate markers of `cur` (for
    /// the register after it), and the bits that make the next block skip
    /// the plain check (see [`check_plain`](Self::check_plain)), given the
    /// bytes one, two and three before each byte of `cur` ([`before`];
    /// `prev3` is not read under the paired rules) and the lead markers of
    /// the register before.
    #[inline(always)]
    fn check_with<const PAIRED: bool, const MUTF: bool>(
        &self,
        cur: S::V,
        prev1: S::V,
        prev2: S::V,
        prev3: S::V,
        prev_leads: S::V,
    ) -> (S::V, S::V, S::V) {
        let c = &self.base;
        let s = c.s;
        let prev1_low = s.and(prev1, c.low_nibble);
        let mut special = c.special(cur, prev1);
        let mut must_be_cont = c.cont_expected(prev2, prev3, !PAIRED);
        // What sends the next block to this check again: surrogates
        // and (MUTF) `C0`/`C1 80..=8F` pairs, before the mask below.
        let marks = s.and(
            special,
            if MUTF {
                self.marks_mutf
            } else {
                self.surrogate
            },
        );
        if MUTF {
            // C0 80: clear C0_80 where both low nibbles are zero.
            let low = s.or(prev1_low, s.and(cur, c.low_nibble));
            special = s.and(special, s.lookup(self.mask_c0_80, low));
            // 00: its high bit in `0x80 - byte` (saturating) is set
            // exactly there, and `00` is never a continuation, so the
            // XOR below flags it.
            must_be_cont = s.or(must_be_cont, s.sub_sat_u8(c.high_bit, cur));
        }
        // UTF-8's errors, with the surrogate marker still on bit 4.
        let errors = s.xor(s.and(must_be_cont, c.high_bit), special);
        // L: the markers of lead surrogates (bit 4 of the byte clear).
        let leads = s.and(s.and(special, self.surrogate), s.xor(cur, self.ones));
        let leads_3_back = s.prev3(leads, prev_leads);
        let errors = if PAIRED {
            // Bit 4 becomes S ^ L ^ L<<3 = "trail here" ^ "lead 3 back":
            // two XORs, which fold into the ones above.
            s.xor(s.xor(errors, leads), leads_3_back)
        } else {
            // Bit 4 becomes "trail here" & "lead 3 back".
            let marked = s.and(special, self.surrogate);
            let trails = s.xor(marked, leads);
            s.or(s.xor(errors, marked), s.and(trails, leads_3_back))
        };
        (errors, leads, marks)
    }

    /// The error bits of `cur` with every surrogate (and, for MUTF, every
    /// `C0`/`C1 80..=8F` pair) counted as an error: UTF-8's check with the
    /// variant's tables and none of the rules on top. Zero means the
    /// register is valid and holds no surrogate (so no lead for the next
    /// register); nonzero means an error or a byte the full check must
    /// look at. This is the check of text without surrogates, which is
    /// most text: four to seven fewer operations per register than
    /// [`check_with`](Self::check_with).
    #[inline(always)]
    fn check_plain<const PAIRED: bool, const MUTF: bool>(
        &self,
        cur: S::V,
        prev1: S::V,
        prev2: S::V,
        prev3: S::V,
    ) -> S::V {
        let c = &self.base;
        let s = c.s;
        let special = c.special(cur, prev1);
        let mut must_be_cont = c.cont_expected(prev2, prev3, !PAIRED);
        if MUTF {
            // 00, as in `check_with`.
            must_be_cont = s.or(must_be_cont, s.sub_sat_u8(c.high_bit, cur));
        }
        s.xor(s.and(must_be_cont, c.high_bit), special)
    }

    /// [`check_plain`](Self::check_plain) over the block at `p`, whose
    /// register before is `prev`: the OR of its flags, and its last
    /// register. `MEM` as for [`before`].
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BLOCK` bytes, and with `MEM` `p - 3` for
    /// `BLOCK + 3`.
    #[inline(always)]
    unsafe fn plain_block<const PAIRED: bool, const MUTF: bool, const MEM: bool>(
        &self,
        p: *const u8,
        mut prev: S::V,
    ) -> (S::V, S::V) {
        let s = self.base.s;
        // SAFETY: the caller guarantees the bytes;
        // `k * S::BYTES + S::BYTES <= BLOCK`.
        unsafe {
            let mut flags = s.zero();
            for k in 0..BLOCK / S::BYTES {
                let q = p.add(k * S::BYTES);
                let cur = s.load(q);
                let (p1, p2, p3) = before::<S, PAIRED, MEM>(s, q, cur, prev);
                flags = s.or(flags, self.check_plain::<PAIRED, MUTF>(cur, p1, p2, p3));
                prev = cur;
            }
            (flags, prev)
        }
    }

    /// [`check_with`](Self::check_with) over the block at `p`, whose
    /// register before is `prev` with the lead markers `prev_leads`: the
    /// OR of its error bits, the OR of its markers, and its last register
    /// and that register's lead markers. `MEM` as for [`before`].
    ///
    /// # Safety
    ///
    /// As for [`plain_block`](Self::plain_block).
    #[inline(always)]
    unsafe fn full_block<const PAIRED: bool, const MUTF: bool, const MEM: bool>(
        &self,
        p: *const u8,
        mut prev: S::V,
        mut prev_leads: S::V,
    ) -> (S::V, S::V, S::V, S::V) {
        let s = self.base.s;
        // SAFETY: the caller guarantees the bytes;
        // `k * S::BYTES + S::BYTES <= BLOCK`.
        unsafe {
            let (mut err, mut markers) = (s.zero(), s.zero());
            for k in 0..BLOCK / S::BYTES {
                let q = p.add(k * S::BYTES);
                let cur = s.load(q);
                let (p1, p2, p3) = before::<S, PAIRED, MEM>(s, q, cur, prev);
                let (e, leads, m) = self.check_with::<PAIRED, MUTF>(cur, p1, p2, p3, prev_leads);
                err = s.or(err, e);
                markers = s.or(markers, m);
                prev = cur;
                prev_leads = leads;
            }
            (err, markers, prev, prev_leads)
        }
    }

    /// Nonzero if `last` ends inside a character or (paired rules) after a
    /// lead surrogate whose trail it does not hold.
    #[inline(always)]
    fn unfinished<const PAIRED: bool>(&self, last: S::V, last_leads: S::V) -> S::V {
        let s = self.base.s;
        let open = self.base.incomplete(last);
        if PAIRED {
            s.or(open, s.and(last_leads, self.last3))
        } else {
            open
        }
    }
}

/// Whether the `N * BLOCK` bytes at `p` are ASCII, and (MUTF) none is `00`:
/// one test of their OR, as in the UTF-8 kernel's ASCII loop.
///
/// # Safety
///
/// `p` is valid for reads of `N * BLOCK` bytes.
#[inline(always)]
unsafe fn blocks_are_plain<S: CheckSimd, const MUTF: bool, const N: usize>(
    s: S,
    p: *const u8,
) -> bool {
    // SAFETY: the caller guarantees `N * BLOCK` readable bytes;
    // `k * S::BYTES + S::BYTES <= N * BLOCK`.
    unsafe {
        if !MUTF && N == 1 {
            return block_is_ascii(s, p);
        }
        if MUTF {
            // `01..=7F` are the bytes above zero read as signed: one
            // minimum per register (an OR for the high bit and a test for
            // `00` took two, and ASCII ran at 0.55-0.66x the UTF-8 kernel).
            let mut min = s.load(p);
            for k in 1..N * BLOCK / S::BYTES {
                min = s.min_i8(min, s.load(p.add(k * S::BYTES)));
            }
            return s.all_positive(min);
        }
        let mut any = s.zero();
        for k in 0..N * BLOCK / S::BYTES {
            any = s.or(any, s.load(p.add(k * S::BYTES)));
        }
        s.is_ascii(any)
    }
}

/// The bytes one, two and three places before each byte of `cur`, the
/// register at `q`: loaded from memory (`MEM`, where `q - 3` is in the
/// input), as the UTF-8 kernel's `check_block_mem` does (three loads
/// instead of a lane-crossing permute and three `alignr` on the shuffle
/// port, AVX2), else shifted in from `prev`, the register before. Under
/// the paired rules the third is zero and not read.
///
/// # Safety
///
/// With `MEM`, `q - 3` is valid for reads of `S::BYTES + 3` bytes.
#[inline(always)]
unsafe fn before<S: CheckSimd, const PAIRED: bool, const MEM: bool>(
    s: S,
    q: *const u8,
    cur: S::V,
    prev: S::V,
) -> (S::V, S::V, S::V) {
    let zero = s.zero();
    if MEM {
        // SAFETY: the caller guarantees the bytes `q - 3..q + S::BYTES`,
        // which hold every load below.
        unsafe {
            let prev3 = if PAIRED { zero } else { s.load(q.sub(3)) };
            (s.load(q.sub(1)), s.load(q.sub(2)), prev3)
        }
    } else {
        let prev3 = if PAIRED { zero } else { s.prev3(cur, prev) };
        (s.prev1(cur, prev), s.prev2(cur, prev), prev3)
    }
}

/// The variant check over the whole blocks of `input`; see the module docs
/// for the contract.
///
/// A non-ASCII run alternates between two modes, each a loop of the UTF-8
/// kernel's shape (one block per iteration; the error register tested only
/// every [`GROUP`] bytes, where the run ends and where the input ends):
///
/// - **plain**: [`check_plain`](VariantConsts::check_plain) per block, its
///   flags (errors and markers alike) ORed into `err`. Where that register
///   is tested and found nonzero, the run goes back to `checked`, the start
///   of the group, and checks the group again in the full mode.
/// - **full**: [`check_with`](VariantConsts::check_with) per block, with
///   the pairing state carried from block to block. At a checkpoint whose
///   last block held no marker (so no lead is open), the next group tries
///   the plain mode again.
///
/// So a group is checked at most twice, and a run of surrogates stays in
/// the full mode. The shape before it decided after every block, from a
/// test of the plain flags, whether to check that block again: one more
/// `vptest` per block (a port-5 µop on Intel, where the AVX2 check is
/// shuffle-bound) and two more branches; see docs/results/utf8-variants.md,
/// "Decisions and dead ends".
///
/// Under the paired rules a third mode takes runs of supplementary
/// characters, outside this function ([`checked`]): at a checkpoint of the
/// full mode whose last block held a marker, past the first `pairs_skip`
/// such checkpoints, it returns [`Stop::Pairs`]; the caller runs the pairs
/// mode and calls it again `from` where that mode stopped, in the full
/// mode (`full`).
///
/// # Safety
///
/// `from <= input.len()`, and `from` is 0 or a
/// point the full mode can start at: `input[..from]` is valid, and
/// no lead surrogate is open at `from` whose trail the checks at `from`
/// and after would not see (see [`pairs`]).
#[inline(always)]
pub(super) unsafe fn validate<S: CheckSimd, const PAIRED: bool, const MUTF: bool>(
    s: S,
    tables: &NibbleTables,
    input: &[u8],
    from: usize,
    full: bool,
    mut pairs_skip: usize,
) -> Stop {
    let len = input.len();
    let ptr = input.as_ptr();
    // SAFETY: every read is in bounds, as noted at each one.
    unsafe {
        let c = VariantConsts::new(s, tables);
        let zero = s.zero();
        let mut err = zero;
        let mut i = from;
        let mut checked;
        // Whether the next non-ASCII run starts in the full mode.
        let mut start_full = full;
        'runs: loop {
            // An ASCII run; `input[..i]` ends at a character boundary, after
            // no lead surrogate (at `from`: see the contract). In bounds:
            // `i <= len`.
            i = ascii_run::<S, MUTF>(s, ptr, len, i);
            checked = i;
            if len - i < BLOCK {
                break 'runs;
            }
            // A non-ASCII run, starting with a block known to be one, in
            // the plain mode. The bytes before each register ([`before`])
            // come from memory where `i >= 3` (the branch taken once per
            // block: inside the register loop LLVM left that loop rolled
            // with the branch in it); at a run's start the bytes before `i`
            // are the ASCII run's, which the tables treat as the zero
            // register the shifting path starts from. `prev` is read only
            // where `i < 3`, that is in a run's first block.
            let mut prev = zero;
            'modes: loop {
                // (Skipped where the caller asked for the full mode: after
                // the pairs mode, `from` is in a run of surrogates.)
                if !core::mem::take(&mut start_full) {
                    // The plain mode: `err` holds the flags of the blocks since
                    // `checked`, which follows no open lead. The same tests, in
                    // the same order, as the UTF-8 kernel's block loop.
                    loop {
                        // Two blocks ahead, as the UTF-8 kernel does.
                        s.prefetch(ptr.wrapping_add(i + 2 * BLOCK));
                        // In bounds: `i + BLOCK <= len`, and `i - 3 >= 0` where
                        // `i >= 3`.
                        let (flags, last) = if i >= 3 {
                            c.plain_block::<PAIRED, MUTF, true>(ptr.add(i), prev)
                        } else {
                            c.plain_block::<PAIRED, MUTF, false>(ptr.add(i), prev)
                        };
                        err = s.or(err, flags);
                        prev = last;
                        i += BLOCK;
                        if i - checked >= GROUP {
                            if s.any(err) {
                                break;
                            }
                            checked = i;
                        }
                        if len - i < BLOCK {
                            if s.any(err) {
                                break;
                            }
                            // The last bytes are the caller's.
                            break 'runs;
                        }
                        // In bounds: `i + BLOCK <= len`.
                        if blocks_are_plain::<S, MUTF, 1>(s, ptr.add(i)) {
                            // A lead surrogate at the end of a block is a
                            // marker, so only a character can be open here.
                            if s.any(s.or(err, c.base.incomplete(prev))) {
                                break;
                            }
                            continue 'runs;
                        }
                    }
                }
                // Flagged: back to the group's start, which follows no
                // open lead (a lead is a marker, and every group starts
                // after a block without one), in the full mode. (Or
                // `from`, which follows none either.)
                i = checked;
                err = zero;
                prev = zero;
                let mut prev_leads = zero;
                loop {
                    s.prefetch(ptr.wrapping_add(i + 2 * BLOCK));
                    // In bounds: as in the plain mode.
                    let (e, markers, last, leads) = if i >= 3 {
                        c.full_block::<PAIRED, MUTF, true>(ptr.add(i), prev, prev_leads)
                    } else {
                        c.full_block::<PAIRED, MUTF, false>(ptr.add(i), prev, prev_leads)
                    };
                    err = s.or(err, e);
                    prev = last;
                    prev_leads = leads;
                    i += BLOCK;
                    // Whether the next group tries the plain mode: at a
                    // checkpoint whose last block held no marker (then no
                    // lead is open: leads are markers).
                    let mut plain = false;
                    let mut markers_seen = false;
                    if i - checked >= GROUP {
                        if s.any(err) {
                            return Stop::Done(Err(checked));
                        }
                        checked = i;
                        markers_seen = s.any(markers);
                        plain = !markers_seen;
                    }
                    if len - i < BLOCK {
                        // The last bytes are the caller's, with what this
                        // block left open.
                        break 'runs;
                    }
                    // In bounds: `i + BLOCK <= len`.
                    if blocks_are_plain::<S, MUTF, 1>(s, ptr.add(i)) {
                        err = s.or(err, c.unfinished::<PAIRED>(prev, prev_leads));
                        if s.any(err) {
                            return Stop::Done(Err(checked));
                        }
                        continue 'runs;
                    }
                    if plain {
                        continue 'modes;
                    }
                    // The pairs mode (the caller's), at a checkpoint whose
                    // last block held a surrogate, after the first
                    // `pairs_skip` such checkpoints. `input[..i]` is valid
                    // but for what is open at `i`, and `i >= GROUP`.
                    if PAIRED && markers_seen {
                        if pairs_skip == 0 {
                            return Stop::Pairs(i);
                        }
                        pairs_skip -= 1;
                    }
                }
            }
        }
        Stop::Done(if s.any(err) { Err(checked) } else { Ok(i) })
    }
}

/// The ASCII run at `i` (with `MUTF`, ASCII without `00`), as in the UTF-8
/// kernel: realigned to a 64-byte address (the bytes skipped are in the
/// block just tested) and skipped two blocks, then one, at a time. Returns
/// where it ends: at a block that is not plain, or where fewer than a
/// block is left.
///
/// # Safety
///
/// `ptr` is valid for reads of `len` bytes and `i <= len`.
#[inline(always)]
unsafe fn ascii_run<S: CheckSimd, const MUTF: bool>(
    s: S,
    ptr: *const u8,
    len: usize,
    mut i: usize,
) -> usize {
    // SAFETY: the caller guarantees the bytes; in bounds:
    // `i + BLOCK <= len`, `i + 2 * BLOCK <= len`, `i + BLOCK <= len`.
    unsafe {
        if len - i >= 4 * BLOCK && blocks_are_plain::<S, MUTF, 1>(s, ptr.add(i)) {
            i += BLOCK - ptr.add(i).addr() % BLOCK;
        }
        while len - i >= 2 * BLOCK && blocks_are_plain::<S, MUTF, 2>(s, ptr.add(i)) {
            i += 2 * BLOCK;
        }
        while len - i >= BLOCK && blocks_are_plain::<S, MUTF, 1>(s, ptr.add(i)) {
            i += BLOCK;
        }
        i
    }
}

/// The blocks of the BMP check for the group loop it shares with the
/// UTF-8 kernel ([`non_ascii_run`]): [`validate`]'s plain check with the
/// tables of UTF-8 without 4-byte forms (and, with `NUL`, without `00`).
struct BmpCheck<S: CheckSimd, const NUL: bool>(VariantConsts<S>);

impl<S: CheckSimd, const NUL: bool> RunCheck<S> for BmpCheck<S, NUL> {
    #[inline(always)]
    fn simd(&self) -> S {
        self.0.base.s
    }

    #[inline(always)]
    unsafe fn first(&self, p: *const u8) -> (S::V, S::V) {
        // The bytes before the input read as spaces, which every table
        // treats as zeros (a zero register would be three `00` bytes to
        // `NUL`'s tables).
        let spaces = self.simd().splat8(b' ');
        // SAFETY: the caller guarantees the bytes.
        unsafe { self.0.plain_block::<true, false, false>(p, spaces) }
    }

    #[inline(always)]
    unsafe fn block(&self, p: *const u8) -> (S::V, S::V) {
        let zero = self.simd().zero();
        // SAFETY: the caller guarantees the bytes `p - 3..p + BLOCK` (the
        // register passed is not read: `MEM`).
        unsafe { self.0.plain_block::<true, false, true>(p, zero) }
    }

    #[inline(always)]
    unsafe fn plain(&self, p: *const u8) -> bool {
        // SAFETY: the caller guarantees the bytes.
        unsafe { blocks_are_plain::<S, NUL, 1>(self.simd(), p) }
    }

    #[inline(always)]
    fn open(&self, err: S::V, last: S::V) -> bool {
        // A character left open, or (`NUL`) a `00` in the run's last byte,
        // which no pair saw (the tables flag `00` as the first byte of a
        // pair).
        let s = self.simd();
        let mut open = s.or(err, self.0.base.incomplete(last));
        if NUL {
            open = s.or(open, s.sub_sat_u8(self.0.last1, last));
        }
        s.any(open)
    }
}

/// The BMP check over the whole blocks of `input` (see [`run_bmp`]):
/// [`validate`]'s plain mode alone, in the group loop of the UTF-8
/// kernel's `validate` ([`non_ascii_run`]), with the contract of
/// [`validate`]; `Err(checked)` at the first group whose flags are set.
///
/// Not [`validate`]'s plain-mode loop: its per-block tests of the
/// checkpoint, the length and the next block took 20 of its 53
/// instructions a block (AVX2); the group loop with a scalar first test of
/// the next block ([`first_word_is_ascii`](super::kernel::first_word_is_ascii))
/// leaves the check itself, 28 vector operations a block (CESU-8 decode of
/// 64 KiB of Chinese: 56.7K -> 41.7K instructions; docs/results/
/// utf8-variants.md, "Decisions and dead ends").
///
#[inline(always)]
fn bmp<S: CheckSimd, const NUL: bool>(
    s: S,
    tables: &NibbleTables,
    input: &[u8],
) -> Result<usize, usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    // SAFETY: every read is in bounds, as noted at each one.
    unsafe {
        let c = BmpCheck::<S, NUL>(VariantConsts::new(s, tables));
        let mut i = 0;
        loop {
            // In bounds: `i <= len`. Without `NUL` a plain block is an
            // ASCII one, and the UTF-8 kernel's run (256 bytes a test, the
            // input's last 256 in one) is the one to take: this module's
            // took 1,000 bytes of ASCII at 0.70x `simd_cesu8::decode`.
            i = if NUL {
                ascii_run::<S, NUL>(s, ptr, len, i)
            } else {
                super::kernel::ascii_run(s, ptr, len, i)
            };
            if i == len {
                // ASCII to the end (and, with `NUL`, no `00`).
                return Ok(len);
            }
            if len - i < BLOCK {
                // After ASCII: a character boundary.
                return bmp_tail(&c, ptr, len, i, i);
            }
            // A non-ASCII run, from a block that is not plain (in bounds:
            // `i + BLOCK <= len`).
            let (end, run) = non_ascii_run(&c, ptr, len, i);
            match end {
                RunEnd::Flagged => return Err(run.checked),
                RunEnd::Tail => {
                    return if s.any(run.err) {
                        Err(run.checked)
                    } else if run.i == len {
                        // The run's last register ends the input.
                        if c.open(s.zero(), run.last) {
                            Err(run.checked)
                        } else {
                            Ok(len)
                        }
                    } else {
                        bmp_tail(&c, ptr, len, run.i, run.checked)
                    };
                }
                RunEnd::Ascii => i = run.i,
            }
        }
    }
}

/// [`bmp`]'s last bytes, fewer than a block from `i < len`, where
/// `input[..i]` (at `ptr`, `len` bytes) is accepted and `checked` is as for
/// `Err`: as the block that ends at the last byte, overlapping bytes
/// already checked (which finds nothing new there: the bytes before it are
/// read from memory), and then the whole input is answered: `Ok(len)` only
/// where the end was checked too. The caller's scalar check of these bytes
/// (a scan for F0.. and 00, then UTF-8's validation), which is left for
/// inputs of 64 to 66 bytes, cost 8-10 ns a call, as much as the kernel on
/// 100 bytes. (A function, not a closure in [`bmp`]: a closure does not
/// take its `#[target_feature]`s, and every vector operation in it became
/// a call: 100 bytes took 120-310 ns.)
///
/// # Safety
///
/// `ptr` is valid for reads of `len` bytes, and `i < len`.
#[inline(always)]
unsafe fn bmp_tail<S: CheckSimd, const NUL: bool>(
    c: &BmpCheck<S, NUL>,
    ptr: *const u8,
    len: usize,
    i: usize,
    checked: usize,
) -> Result<usize, usize> {
    if len < BLOCK + 3 {
        // Left to the caller: the block's three bytes before it must be
        // input.
        return Ok(i);
    }
    // SAFETY: the caller guarantees the bytes; `len -
    // BLOCK - 3 >= 0`, so the block and the three bytes before it are in
    // bounds.
    unsafe {
        let p = ptr.add(len - BLOCK);
        if c.plain(p) {
            // ASCII (and, with `NUL`, no `00`) to the end: any character
            // before it ended before it, where the check already ran (it
            // covers the pair at the block's first byte).
            return Ok(len);
        }
        let (flags, last) = c.block(p);
        if c.open(flags, last) {
            Err(checked)
        } else {
            Ok(len)
        }
    }
}

/// [`checked`] with the rules `t.rules` chose, for one vector type.
///
/// # Safety
///
/// `pairs_mode` is [`pairs`] for `S` (compiled with its features).
#[inline(always)]
unsafe fn run<S: CheckSimd>(
    s: S,
    t: &Tables,
    input: &[u8],
    pairs_mode: Pairs,
) -> Result<usize, usize> {
    // SAFETY: the caller guarantees `pairs_mode`.
    unsafe {
        match t.rules {
            Rules::Paired => checked::<S, true, false>(s, &t.nibbles, input, pairs_mode),
            Rules::PairedModifiedNul => checked::<S, true, true>(s, &t.nibbles, input, pairs_mode),
            Rules::Unpaired => checked::<S, false, false>(s, &t.nibbles, input, pairs_mode),
        }
    }
}

/// The check of UTF-8 without 4-byte forms (and, with `NUL`, without `00`):
/// [`bmp`], the plain check alone, with [`tables::UTF8_BMP`] (or
/// [`tables::UTF8_BMP_WITHOUT_NUL`]), whose `SURROGATE` class is an error
/// like every other; `Err(checked)` at the first group it flags. Same
/// contract as [`validate`], but for `Ok(input.len())`, which means the
/// last bytes and the end were checked too ([`bmp_tail`]); below that the
/// caller (`crate::variant::bmp_str`) checks the last bytes.
///
/// Without `00`, the tables' `NUL_BYTE` class flags it as the first byte of
/// a pair, instead of MUTF-8's test of each byte (a saturating subtraction
/// and an OR per register; MUTF-8 decode 1.44-1.47x -> 1.60-1.64x
/// `simd_cesu8`'s on Zen 4, CESU-8's speed). Where a pair cannot see it, the code does: the bytes
/// before the input read as spaces, a run that ends before ASCII blocks
/// checks its last byte, and the caller checks the input's last bytes.
///
/// The tables are the crate's own constant, never a caller's: a `&str` is
/// made of what this accepts.
///
/// [`tables::UTF8_BMP`]: crate::tables::UTF8_BMP
/// [`tables::UTF8_BMP_WITHOUT_NUL`]: crate::tables::UTF8_BMP_WITHOUT_NUL
///
#[inline(always)]
fn run_bmp<S: CheckSimd, const NUL: bool>(s: S, input: &[u8]) -> Result<usize, usize> {
    let tables = if NUL {
        &crate::tables::UTF8_BMP_WITHOUT_NUL
    } else {
        &crate::tables::UTF8_BMP
    };
    bmp::<S, NUL>(s, tables, input)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The `#[target_feature]` entry points, one per x86-64 kernel of the
    //! registry, with the same features as its token.

    use super::{Tables, pairs, run, run_bmp};
    use codec_arch::x86_64::{Avx2, Avx512, Sse41};

    codec_arch::enable! { avx512;
        pub(super) fn avx512(t: &Tables, input: &[u8]) -> Result<usize, usize> {
            // SAFETY: the pairs mode is this kernel's, compiled with the
            // same features.
            unsafe { run(Avx512::new(), t, input, avx512_pairs) }
        }
    }

    codec_arch::enable! { avx2;
        pub(super) fn avx2(t: &Tables, input: &[u8]) -> Result<usize, usize> {
            // SAFETY: as for `avx512`.
            unsafe { run(Avx2::new(), t, input, avx2_pairs) }
        }
    }

    codec_arch::enable! { sse41;
        pub(super) fn sse41(t: &Tables, input: &[u8]) -> Result<usize, usize> {
            // SAFETY: as for `avx512`.
            unsafe { run(Sse41::new(), t, input, sse41_pairs) }
        }
    }

    // The pairs mode of each, out of line (see `pairs`).

    codec_arch::enable! { avx512;
        /// # Safety
        ///
        /// As for `pairs`: `GROUP <= i <= input.len()`.
        unsafe fn avx512_pairs(input: &[u8], i: usize) -> (usize, bool) {
            // SAFETY: the caller guarantees `i`.
            unsafe { pairs(Avx512::new(), input, i) }
        }
    }

    codec_arch::enable! { avx2;
        /// # Safety
        ///
        /// As for `avx512_pairs`.
        unsafe fn avx2_pairs(input: &[u8], i: usize) -> (usize, bool) {
            // SAFETY: the caller guarantees `i`.
            unsafe { pairs(Avx2::new(), input, i) }
        }
    }

    codec_arch::enable! { sse41;
        /// # Safety
        ///
        /// As for `avx512_pairs`.
        unsafe fn sse41_pairs(input: &[u8], i: usize) -> (usize, bool) {
            // SAFETY: the caller guarantees `i`.
            unsafe { pairs(Sse41::new(), input, i) }
        }
    }

    // The BMP check, in functions of its own so that the variant entries
    // above keep their code (their three rule sets share one function's
    // register allocation, which moved with every change tried there).

    codec_arch::enable! { avx512;
        pub(super) fn avx512_bmp<const NUL: bool>(input: &[u8]) -> Result<usize, usize> {
            run_bmp::<_, NUL>(Avx512::new(), input)
        }
    }

    codec_arch::enable! { avx2;
        pub(super) fn avx2_bmp<const NUL: bool>(input: &[u8]) -> Result<usize, usize> {
            run_bmp::<_, NUL>(Avx2::new(), input)
        }
    }

    codec_arch::enable! { sse41;
        pub(super) fn sse41_bmp<const NUL: bool>(input: &[u8]) -> Result<usize, usize> {
            run_bmp::<_, NUL>(Sse41::new(), input)
        }
    }
}

/// A SIMD kernel's variant entry points: a field of its `arch::Kernel`
/// (by `&'static` reference), needing the kernel's features.
pub(crate) struct Entry {
    check: unsafe fn(&Tables, &[u8]) -> Result<usize, usize>,
    /// The BMP check ([`run_bmp`]), `00` allowed.
    bmp: BlockCheck,
    /// The BMP check, `00` forbidden.
    bmp_without_nul: BlockCheck,
    /// CESU-8's surrogate pairs to UTF-8 (`super::pairs`).
    pairs_to_utf8: Pairing,
    /// UTF-8's 4-byte characters to surrogate pairs (`super::pairs`).
    utf8_to_pairs: Pairing,
}

/// A conversion between surrogate pairs and 4-byte UTF-8 at the start of an
/// input, with the answer of `crate::variant::pairs_to_utf8` or
/// `utf8_to_pairs`.
type Pairing = unsafe fn(&[u8], &mut [u8]) -> (usize, usize);

/// A check over the whole blocks of an input, with [`validate`]'s answer.
type BlockCheck = unsafe fn(&[u8]) -> Result<usize, usize>;

impl Entry {
    /// The BMP check, `00` forbidden if `nul`.
    fn bmp_check(&self, nul: bool) -> BlockCheck {
        if nul { self.bmp_without_nul } else { self.bmp }
    }
}

/// The AVX-512 kernel's variant entry points. A test checks that every
/// SIMD kernel of `arch::kernels` has its own.
#[cfg(target_arch = "x86_64")]
pub(crate) static AVX512: Entry = Entry {
    // SAFETY: called only through the kernel that holds this entry,
    // once it is found available, and it needs the same features.
    check: |t, input| unsafe { x86::avx512(t, input) },
    // SAFETY: as above.
    bmp: |input| unsafe { x86::avx512_bmp::<false>(input) },
    // SAFETY: as above.
    bmp_without_nul: |input| unsafe { x86::avx512_bmp::<true>(input) },
    // SAFETY: as above (AVX-512 implies AVX2). The pairs take no wider
    // registers: each pass is four pairs of 16 bytes' loads.
    pairs_to_utf8: |input, out| unsafe { super::pairs::x86::avx2_to_utf8(input, out) },
    // SAFETY: as above.
    utf8_to_pairs: |input, out| unsafe { super::pairs::x86::avx2_to_pairs(input, out) },
};

/// The AVX2 kernel's variant entry points.
#[cfg(target_arch = "x86_64")]
pub(crate) static AVX2: Entry = Entry {
    // SAFETY: as in `AVX512`.
    check: |t, input| unsafe { x86::avx2(t, input) },
    // SAFETY: as above.
    bmp: |input| unsafe { x86::avx2_bmp::<false>(input) },
    // SAFETY: as above.
    bmp_without_nul: |input| unsafe { x86::avx2_bmp::<true>(input) },
    // SAFETY: as above.
    pairs_to_utf8: |input, out| unsafe { super::pairs::x86::avx2_to_utf8(input, out) },
    // SAFETY: as above.
    utf8_to_pairs: |input, out| unsafe { super::pairs::x86::avx2_to_pairs(input, out) },
};

/// The SSE4.1 kernel's variant entry points.
#[cfg(target_arch = "x86_64")]
pub(crate) static SSE41: Entry = Entry {
    // SAFETY: as in `AVX512`.
    check: |t, input| unsafe { x86::sse41(t, input) },
    // SAFETY: as above.
    bmp: |input| unsafe { x86::sse41_bmp::<false>(input) },
    // SAFETY: as above.
    bmp_without_nul: |input| unsafe { x86::sse41_bmp::<true>(input) },
    // SAFETY: as above.
    pairs_to_utf8: |input, out| unsafe { super::pairs::x86::sse41_to_utf8(input, out) },
    // SAFETY: as above.
    utf8_to_pairs: |input, out| unsafe { super::pairs::x86::sse41_to_pairs(input, out) },
};

/// The NEON kernel's variant entry points. NEON is part of the target
/// wherever this module is compiled: always available.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) static NEON: Entry = Entry {
    // SAFETY: the pairs mode is NEON's (`neon_pairs`).
    check: |t, input| unsafe { run(super::aarch64::neon::token(), t, input, neon_pairs) },
    bmp: |input| run_bmp::<_, false>(super::aarch64::neon::token(), input),
    bmp_without_nul: |input| run_bmp::<_, true>(super::aarch64::neon::token(), input),
    pairs_to_utf8: super::pairs::neon::to_utf8,
    utf8_to_pairs: super::pairs::neon::to_pairs,
};

/// The pairs mode of the `neon` kernel.
///
/// # Safety
///
/// As for [`pairs`]: `GROUP <= i <= input.len()`.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
unsafe fn neon_pairs(input: &[u8], i: usize) -> (usize, bool) {
    // SAFETY: the caller guarantees `i`.
    unsafe { pairs(super::aarch64::neon::token(), input, i) }
}

/// The entry of `kernel`, if it has one and this CPU can run it.
fn entry_for(kernel: &super::Kernel) -> Option<&'static Entry> {
    kernel.variants.filter(|_| kernel.is_available())
}

/// Whether `kernel` has variant entry points (whether or not this CPU can
/// run it).
pub(crate) fn has_entry(kernel: &super::Kernel) -> bool {
    kernel.variants.is_some()
}

/// The entry of the kernel the dispatch chose, if it has one (the
/// portable kernel has none).
#[inline]
fn chosen() -> Option<&'static Entry> {
    super::chosen_kernel().variants
}

/// The variant check with the fastest kernel this CPU runs. Where none
/// runs, `Ok(0)`: the caller's scalar path does everything.
pub(crate) fn check_blocks(t: &Tables, input: &[u8]) -> Result<usize, usize> {
    match chosen() {
        // SAFETY: the entry was chosen because its kernel is available.
        Some(e) => unsafe { (e.check)(t, input) },
        None => Ok(0),
    }
}

/// The BMP check ([`run_bmp`]; `nul`: `00` forbidden) with the fastest
/// kernel this CPU runs, with the contract of [`check_blocks`].
pub(crate) fn bmp_blocks(nul: bool, input: &[u8]) -> Result<usize, usize> {
    match chosen() {
        // SAFETY: the entry was chosen because its kernel is available.
        Some(e) => unsafe { (e.bmp_check(nul))(input) },
        None => Ok(0),
    }
}

/// [`bmp_blocks`] with `kernel`, if it has an entry point and this CPU can
/// run it.
pub(crate) fn bmp_blocks_with(
    kernel: &super::Kernel,
    nul: bool,
    input: &[u8],
) -> Option<Result<usize, usize>> {
    let e = entry_for(kernel)?;
    // SAFETY: `entry_for` found the kernel available on this CPU.
    Some(unsafe { (e.bmp_check(nul))(input) })
}

/// The variant check with `kernel`, if it has an entry point and this CPU
/// can run it.
pub(crate) fn check_blocks_with(
    kernel: &super::Kernel,
    t: &Tables,
    input: &[u8],
) -> Option<Result<usize, usize>> {
    let e = entry_for(kernel)?;
    // SAFETY: `entry_for` found the kernel available on this CPU.
    Some(unsafe { (e.check)(t, input) })
}

/// CESU-8's surrogate pairs at the start of `input` to UTF-8 in `out`, with
/// the fastest kernel this CPU runs; `(0, 0)` where none runs.
pub(crate) fn pairs_to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
    match chosen() {
        // SAFETY: the entry was chosen because its kernel is available.
        Some(e) => unsafe { (e.pairs_to_utf8)(input, out) },
        None => (0, 0),
    }
}

/// [`pairs_to_utf8`] with `kernel`, if it has an entry point and this CPU
/// can run it.
pub(crate) fn pairs_to_utf8_with(
    kernel: &super::Kernel,
    input: &[u8],
    out: &mut [u8],
) -> Option<(usize, usize)> {
    let e = entry_for(kernel)?;
    // SAFETY: `entry_for` found the kernel available on this CPU.
    Some(unsafe { (e.pairs_to_utf8)(input, out) })
}

/// UTF-8's 4-byte characters at the start of `input` to surrogate pairs in
/// `out`, with the fastest kernel this CPU runs; `(0, 0)` where none runs.
pub(crate) fn utf8_to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
    match chosen() {
        // SAFETY: the entry was chosen because its kernel is available.
        Some(e) => unsafe { (e.utf8_to_pairs)(input, out) },
        None => (0, 0),
    }
}

/// [`utf8_to_pairs`] with `kernel`, if it has an entry point and this CPU
/// can run it.
pub(crate) fn utf8_to_pairs_with(
    kernel: &super::Kernel,
    input: &[u8],
    out: &mut [u8],
) -> Option<(usize, usize)> {
    let e = entry_for(kernel)?;
    // SAFETY: `entry_for` found the kernel available on this CPU.
    Some(unsafe { (e.utf8_to_pairs)(input, out) })
}
