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
use super::vector::Vector;
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
/// The CPU has `V`'s features and `p` is valid for reads of `GROUP` bytes.
#[inline(always)]
unsafe fn pairs_group<V: Vector>(p: *const u8) -> V {
    // SAFETY: the caller guarantees V's features and `GROUP` readable bytes
    // at `p`; `k * V::BYTES + V::BYTES <= GROUP`; the pattern reads are
    // `V::BYTES <= 64` bytes from `ph < 6`, inside the 72-byte tables.
    unsafe {
        let mut flags = V::splat(0);
        for k in 0..GROUP / V::BYTES {
            let ph = (k * V::BYTES) % 6;
            let cur = V::load(p.add(k * V::BYTES));
            let bits = V::load(PAIR_BITS.as_ptr().add(ph));
            let mask = V::load(PAIR_MASK.as_ptr().add(ph));
            flags = flags.or(cur.xor(bits).and(mask));
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
/// The CPU has `V`'s features, and `GROUP <= i <= input.len()`.
#[inline(always)]
unsafe fn pairs<V: Vector>(input: &[u8], i: usize) -> (usize, bool) {
    let Some(start) = pair_start(input, i) else {
        return (i, false);
    };
    let mut t = start;
    // SAFETY: the caller guarantees V's features; in bounds: `t + GROUP <=
    // input.len()`.
    unsafe {
        while input.len() - t >= GROUP && !pairs_group::<V>(input.as_ptr().add(t)).any() {
            t += PAIRS_STEP;
        }
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
/// The CPU has `V`'s features, and `pairs_mode` is [`pairs`] for `V`
/// (compiled with them).
#[inline(always)]
unsafe fn checked<V: Vector, const PAIRED: bool, const MUTF: bool>(
    tables: &NibbleTables,
    input: &[u8],
    pairs_mode: Pairs,
) -> Result<usize, usize> {
    let (mut from, mut full, mut wait, mut skip) = (0, false, 0usize, 0);
    loop {
        // SAFETY: the caller guarantees V's features; `from` is 0 or where
        // the pairs mode says the full mode can go on.
        match unsafe { validate::<V, PAIRED, MUTF>(tables, input, from, full, skip) } {
            Stop::Done(r) => return r,
            Stop::Pairs(i) => {
                // Through `black_box`: an indirect call, which LLVM cannot
                // inline (see [`pairs`]).
                // SAFETY: `pairs_mode` is `pairs` for `V` (the caller's
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
struct VariantConsts<V> {
    base: Consts<V>,
    surrogate: V,
    /// `SURROGATE | C0_80`: the marks of Modified UTF-8.
    marks_mutf: V,
    ones: V,
    last3: V,
    /// 1 in the last byte of a register, 0 elsewhere.
    last1: V,
    mask_c0_80: V,
}

impl<V: Vector> VariantConsts<V> {
    /// # Safety
    ///
    /// The CPU has `V`'s features.
    #[inline(always)]
    unsafe fn new(t: &NibbleTables) -> Self {
        // SAFETY: the caller guarantees V's features; the LAST3 read is
        // `V::BYTES <= 64` bytes ending at the end of the array (the kernel
        // asserts `V::BYTES <= 64` in `Consts::new`).
        unsafe {
            VariantConsts {
                base: Consts::new(t),
                surrogate: V::splat(SURROGATE),
                marks_mutf: V::splat(SURROGATE | C0_80),
                ones: V::splat(0xFF),
                last3: V::load(LAST3.as_ptr().add(LAST3.len() - V::BYTES)),
                last1: V::load(LAST1.as_ptr().add(LAST1.len() - V::BYTES)),
                mask_c0_80: V::table(&MASK_C0_80),
            }
        }
    }

    /// The error bits of `cur`, the lead-surrogate markers of `cur` (for
    /// the register after it), and the bits that make the next block skip
    /// the plain check (see [`check_plain`](Self::check_plain)), given the
    /// bytes one, two and three before each byte of `cur` ([`before`];
    /// `prev3` is not read under the paired rules) and the lead markers of
    /// the register before.
    ///
    /// # Safety
    ///
    /// The CPU has `V`'s features.
    #[inline(always)]
    unsafe fn check_with<const PAIRED: bool, const MUTF: bool>(
        &self,
        cur: V,
        prev1: V,
        prev2: V,
        prev3: V,
        prev_leads: V,
    ) -> (V, V, V) {
        let c = &self.base;
        // SAFETY: the caller guarantees V's features.
        unsafe {
            let prev1_low = prev1.and(c.low_nibble);
            let mut special = c.special(cur, prev1);
            let mut must_be_cont = c.cont_expected(prev2, prev3, !PAIRED);
            // What sends the next block to this check again: surrogates
            // and (MUTF) `C0`/`C1 80..=8F` pairs, before the mask below.
            let marks = special.and(if MUTF {
                self.marks_mutf
            } else {
                self.surrogate
            });
            if MUTF {
                // C0 80: clear C0_80 where both low nibbles are zero.
                let low = prev1_low.or(cur.and(c.low_nibble));
                special = special.and(self.mask_c0_80.lookup(low));
                // 00: its high bit in `0x80 - byte` (saturating) is set
                // exactly there, and `00` is never a continuation, so the
                // XOR below flags it.
                must_be_cont = must_be_cont.or(c.high_bit.saturating_sub(cur));
            }
            // UTF-8's errors, with the surrogate marker still on bit 4.
            let errors = must_be_cont.and(c.high_bit).xor(special);
            // L: the markers of lead surrogates (bit 4 of the byte clear).
            let leads = special.and(self.surrogate).and(cur.xor(self.ones));
            let leads_3_back = leads.prev3(prev_leads);
            let errors = if PAIRED {
                // Bit 4 becomes S ^ L ^ L<<3 = "trail here" ^ "lead 3 back":
                // two XORs, which fold into the ones above.
                errors.xor(leads).xor(leads_3_back)
            } else {
                // Bit 4 becomes "trail here" & "lead 3 back".
                let marked = special.and(self.surrogate);
                let trails = marked.xor(leads);
                errors.xor(marked).or(trails.and(leads_3_back))
            };
            (errors, leads, marks)
        }
    }

    /// The error bits of `cur` with every surrogate (and, for MUTF, every
    /// `C0`/`C1 80..=8F` pair) counted as an error: UTF-8's check with the
    /// variant's tables and none of the rules on top. Zero means the
    /// register is valid and holds no surrogate (so no lead for the next
    /// register); nonzero means an error or a byte the full check must
    /// look at. This is the check of text without surrogates, which is
    /// most text: four to seven fewer operations per register than
    /// [`check_with`](Self::check_with).
    ///
    /// # Safety
    ///
    /// The CPU has `V`'s features.
    #[inline(always)]
    unsafe fn check_plain<const PAIRED: bool, const MUTF: bool>(
        &self,
        cur: V,
        prev1: V,
        prev2: V,
        prev3: V,
    ) -> V {
        let c = &self.base;
        // SAFETY: the caller guarantees V's features.
        unsafe {
            let special = c.special(cur, prev1);
            let mut must_be_cont = c.cont_expected(prev2, prev3, !PAIRED);
            if MUTF {
                // 00, as in `check_with`.
                must_be_cont = must_be_cont.or(c.high_bit.saturating_sub(cur));
            }
            must_be_cont.and(c.high_bit).xor(special)
        }
    }

    /// [`check_plain`](Self::check_plain) over the block at `p`, whose
    /// register before is `prev`: the OR of its flags, and its last
    /// register. `MEM` as for [`before`].
    ///
    /// # Safety
    ///
    /// The CPU has `V`'s features; `p` is valid for reads of `BLOCK` bytes,
    /// and with `MEM` `p - 3` for `BLOCK + 3`.
    #[inline(always)]
    unsafe fn plain_block<const PAIRED: bool, const MUTF: bool, const MEM: bool>(
        &self,
        p: *const u8,
        mut prev: V,
    ) -> (V, V) {
        // SAFETY: the caller guarantees V's features and the bytes;
        // `k * V::BYTES + V::BYTES <= BLOCK`.
        unsafe {
            let mut flags = V::splat(0);
            for k in 0..BLOCK / V::BYTES {
                let q = p.add(k * V::BYTES);
                let cur = V::load(q);
                let (p1, p2, p3) = before::<V, PAIRED, MEM>(q, cur, prev);
                flags = flags.or(self.check_plain::<PAIRED, MUTF>(cur, p1, p2, p3));
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
        mut prev: V,
        mut prev_leads: V,
    ) -> (V, V, V, V) {
        // SAFETY: the caller guarantees V's features and the bytes;
        // `k * V::BYTES + V::BYTES <= BLOCK`.
        unsafe {
            let (mut err, mut markers) = (V::splat(0), V::splat(0));
            for k in 0..BLOCK / V::BYTES {
                let q = p.add(k * V::BYTES);
                let cur = V::load(q);
                let (p1, p2, p3) = before::<V, PAIRED, MEM>(q, cur, prev);
                let (e, leads, m) = self.check_with::<PAIRED, MUTF>(cur, p1, p2, p3, prev_leads);
                err = err.or(e);
                markers = markers.or(m);
                prev = cur;
                prev_leads = leads;
            }
            (err, markers, prev, prev_leads)
        }
    }

    /// Nonzero if `last` ends inside a character or (paired rules) after a
    /// lead surrogate whose trail it does not hold.
    ///
    /// # Safety
    ///
    /// The CPU has `V`'s features.
    #[inline(always)]
    unsafe fn unfinished<const PAIRED: bool>(&self, last: V, last_leads: V) -> V {
        // SAFETY: the caller guarantees V's features.
        unsafe {
            let open = self.base.incomplete(last);
            if PAIRED {
                open.or(last_leads.and(self.last3))
            } else {
                open
            }
        }
    }
}

/// Whether the `N * BLOCK` bytes at `p` are ASCII, and (MUTF) none is `00`:
/// one test of their OR, as in the UTF-8 kernel's ASCII loop.
///
/// # Safety
///
/// The CPU has `V`'s features and `p` is valid for reads of `N * BLOCK`
/// bytes.
#[inline(always)]
unsafe fn blocks_are_plain<V: Vector, const MUTF: bool, const N: usize>(p: *const u8) -> bool {
    // SAFETY: the caller guarantees V's features and `N * BLOCK` readable
    // bytes; `k * V::BYTES + V::BYTES <= N * BLOCK`.
    unsafe {
        if !MUTF && N == 1 {
            return block_is_ascii::<V>(p);
        }
        if MUTF {
            // `01..=7F` are the bytes above zero read as signed: one
            // minimum per register (an OR for the high bit and a test for
            // `00` took two, and ASCII ran at 0.55-0.66x the UTF-8 kernel).
            let mut min = V::load(p);
            for k in 1..N * BLOCK / V::BYTES {
                min = min.min_signed(V::load(p.add(k * V::BYTES)));
            }
            return min.all_positive();
        }
        let mut any = V::splat(0);
        for k in 0..N * BLOCK / V::BYTES {
            any = any.or(V::load(p.add(k * V::BYTES)));
        }
        any.is_ascii()
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
/// The CPU has `V`'s features, and with `MEM` `q - 3` is valid for reads
/// of `V::BYTES + 3` bytes.
#[inline(always)]
unsafe fn before<V: Vector, const PAIRED: bool, const MEM: bool>(
    q: *const u8,
    cur: V,
    prev: V,
) -> (V, V, V) {
    // SAFETY: the caller guarantees V's features and, with `MEM`, the
    // bytes `q - 3..q + V::BYTES`, which hold every load below.
    unsafe {
        let zero = V::splat(0);
        if MEM {
            let prev3 = if PAIRED { zero } else { V::load(q.sub(3)) };
            (V::load(q.sub(1)), V::load(q.sub(2)), prev3)
        } else {
            let prev3 = if PAIRED { zero } else { cur.prev3(prev) };
            (cur.prev1(prev), cur.prev2(prev), prev3)
        }
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
/// The CPU has `V`'s features; `from <= input.len()`, and `from` is 0 or a
/// point the full mode can start at: `input[..from]` is valid, and
/// no lead surrogate is open at `from` whose trail the checks at `from`
/// and after would not see (see [`pairs`]).
#[inline(always)]
pub(super) unsafe fn validate<V: Vector, const PAIRED: bool, const MUTF: bool>(
    tables: &NibbleTables,
    input: &[u8],
    from: usize,
    full: bool,
    mut pairs_skip: usize,
) -> Stop {
    let len = input.len();
    let ptr = input.as_ptr();
    // SAFETY: the caller guarantees V's features; every read is in bounds,
    // as noted at each one.
    unsafe {
        let c = VariantConsts::<V>::new(tables);
        let zero = V::splat(0);
        let mut err = zero;
        let mut i = from;
        let mut checked;
        // Whether the next non-ASCII run starts in the full mode.
        let mut start_full = full;
        'runs: loop {
            // An ASCII run; `input[..i]` ends at a character boundary, after
            // no lead surrogate (at `from`: see the contract). In bounds:
            // `i <= len`.
            i = ascii_run::<V, MUTF>(ptr, len, i);
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
                        V::prefetch(ptr.wrapping_add(i + 2 * BLOCK));
                        // In bounds: `i + BLOCK <= len`, and `i - 3 >= 0` where
                        // `i >= 3`.
                        let (flags, last) = if i >= 3 {
                            c.plain_block::<PAIRED, MUTF, true>(ptr.add(i), prev)
                        } else {
                            c.plain_block::<PAIRED, MUTF, false>(ptr.add(i), prev)
                        };
                        err = err.or(flags);
                        prev = last;
                        i += BLOCK;
                        if i - checked >= GROUP {
                            if err.any() {
                                break;
                            }
                            checked = i;
                        }
                        if len - i < BLOCK {
                            if err.any() {
                                break;
                            }
                            // The last bytes are the caller's.
                            break 'runs;
                        }
                        // In bounds: `i + BLOCK <= len`.
                        if blocks_are_plain::<V, MUTF, 1>(ptr.add(i)) {
                            // A lead surrogate at the end of a block is a
                            // marker, so only a character can be open here.
                            if err.or(c.base.incomplete(prev)).any() {
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
                    V::prefetch(ptr.wrapping_add(i + 2 * BLOCK));
                    // In bounds: as in the plain mode.
                    let (e, markers, last, leads) = if i >= 3 {
                        c.full_block::<PAIRED, MUTF, true>(ptr.add(i), prev, prev_leads)
                    } else {
                        c.full_block::<PAIRED, MUTF, false>(ptr.add(i), prev, prev_leads)
                    };
                    err = err.or(e);
                    prev = last;
                    prev_leads = leads;
                    i += BLOCK;
                    // Whether the next group tries the plain mode: at a
                    // checkpoint whose last block held no marker (then no
                    // lead is open: leads are markers).
                    let mut plain = false;
                    let mut markers_seen = false;
                    if i - checked >= GROUP {
                        if err.any() {
                            return Stop::Done(Err(checked));
                        }
                        checked = i;
                        markers_seen = markers.any();
                        plain = !markers_seen;
                    }
                    if len - i < BLOCK {
                        // The last bytes are the caller's, with what this
                        // block left open.
                        break 'runs;
                    }
                    // In bounds: `i + BLOCK <= len`.
                    if blocks_are_plain::<V, MUTF, 1>(ptr.add(i)) {
                        err = err.or(c.unfinished::<PAIRED>(prev, prev_leads));
                        if err.any() {
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
        Stop::Done(if err.any() { Err(checked) } else { Ok(i) })
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
/// The CPU has `V`'s features, `ptr` is valid for reads of `len` bytes and
/// `i <= len`.
#[inline(always)]
unsafe fn ascii_run<V: Vector, const MUTF: bool>(
    ptr: *const u8,
    len: usize,
    mut i: usize,
) -> usize {
    // SAFETY: the caller guarantees V's features and the bytes; in bounds:
    // `i + BLOCK <= len`, `i + 2 * BLOCK <= len`, `i + BLOCK <= len`.
    unsafe {
        if len - i >= 4 * BLOCK && blocks_are_plain::<V, MUTF, 1>(ptr.add(i)) {
            i += BLOCK - ptr.add(i).addr() % BLOCK;
        }
        while len - i >= 2 * BLOCK && blocks_are_plain::<V, MUTF, 2>(ptr.add(i)) {
            i += 2 * BLOCK;
        }
        while len - i >= BLOCK && blocks_are_plain::<V, MUTF, 1>(ptr.add(i)) {
            i += BLOCK;
        }
        i
    }
}

/// The blocks of the BMP check for the group loop it shares with the
/// UTF-8 kernel ([`non_ascii_run`]): [`validate`]'s plain check with the
/// tables of UTF-8 without 4-byte forms (and, with `NUL`, without `00`).
struct BmpCheck<V, const NUL: bool>(VariantConsts<V>);

impl<V: Vector, const NUL: bool> RunCheck<V> for BmpCheck<V, NUL> {
    #[inline(always)]
    unsafe fn first(&self, p: *const u8) -> (V, V) {
        // The bytes before the input read as spaces, which every table
        // treats as zeros (a zero register would be three `00` bytes to
        // `NUL`'s tables).
        // SAFETY: the caller guarantees V's features and the bytes.
        unsafe { self.0.plain_block::<true, false, false>(p, V::splat(b' ')) }
    }

    #[inline(always)]
    unsafe fn block(&self, p: *const u8) -> (V, V) {
        // SAFETY: the caller guarantees V's features and the bytes `p - 3..
        // p + BLOCK` (the register passed is not read: `MEM`).
        unsafe { self.0.plain_block::<true, false, true>(p, V::splat(0)) }
    }

    #[inline(always)]
    unsafe fn plain(&self, p: *const u8) -> bool {
        // SAFETY: the caller guarantees V's features and the bytes.
        unsafe { blocks_are_plain::<V, NUL, 1>(p) }
    }

    #[inline(always)]
    unsafe fn open(&self, err: V, last: V) -> bool {
        // A character left open, or (`NUL`) a `00` in the run's last byte,
        // which no pair saw (the tables flag `00` as the first byte of a
        // pair).
        // SAFETY: the caller guarantees V's features.
        unsafe {
            let mut open = err.or(self.0.base.incomplete(last));
            if NUL {
                open = open.or(self.0.last1.saturating_sub(last));
            }
            open.any()
        }
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
/// # Safety
///
/// The CPU has `V`'s features.
#[inline(always)]
unsafe fn bmp<V: Vector, const NUL: bool>(
    tables: &NibbleTables,
    input: &[u8],
) -> Result<usize, usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    // SAFETY: the caller guarantees V's features; every read is in bounds,
    // as noted at each one.
    unsafe {
        let c = BmpCheck::<V, NUL>(VariantConsts::<V>::new(tables));
        let mut i = 0;
        loop {
            // In bounds: `i <= len`. Without `NUL` a plain block is an
            // ASCII one, and the UTF-8 kernel's run (256 bytes a test, the
            // input's last 256 in one) is the one to take: this module's
            // took 1,000 bytes of ASCII at 0.70x `simd_cesu8::decode`.
            i = if NUL {
                ascii_run::<V, NUL>(ptr, len, i)
            } else {
                super::kernel::ascii_run::<V>(ptr, len, i)
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
                    return if run.err.any() {
                        Err(run.checked)
                    } else if run.i == len {
                        // The run's last register ends the input.
                        if c.open(V::splat(0), run.last) {
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
/// The CPU has `V`'s features, `ptr` is valid for reads of `len` bytes,
/// and `i < len`.
#[inline(always)]
unsafe fn bmp_tail<V: Vector, const NUL: bool>(
    c: &BmpCheck<V, NUL>,
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
    // SAFETY: the caller guarantees V's features and the bytes; `len -
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
/// The CPU has `V`'s features, and `pairs_mode` is [`pairs`] for `V`
/// (compiled with them).
#[inline(always)]
unsafe fn run<V: Vector>(t: &Tables, input: &[u8], pairs_mode: Pairs) -> Result<usize, usize> {
    // SAFETY: the caller guarantees V's features and `pairs_mode`.
    unsafe {
        match t.rules {
            Rules::Paired => checked::<V, true, false>(&t.nibbles, input, pairs_mode),
            Rules::PairedModifiedNul => checked::<V, true, true>(&t.nibbles, input, pairs_mode),
            Rules::Unpaired => checked::<V, false, false>(&t.nibbles, input, pairs_mode),
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
/// # Safety
///
/// The CPU has `V`'s features.
#[inline(always)]
unsafe fn run_bmp<V: Vector, const NUL: bool>(input: &[u8]) -> Result<usize, usize> {
    let tables = if NUL {
        &crate::tables::UTF8_BMP_WITHOUT_NUL
    } else {
        &crate::tables::UTF8_BMP
    };
    // SAFETY: the caller guarantees V's features.
    unsafe { bmp::<V, NUL>(tables, input) }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The `#[target_feature]` entry points, one per x86-64 kernel of the
    //! registry, with the same features.

    use super::{Tables, pairs, run, run_bmp};
    use core::arch::x86_64::{__m128i, __m256i, __m512i};

    codec_arch::enable! { avx512;
        pub(super) fn avx512(t: &Tables, input: &[u8]) -> Result<usize, usize> {
            // SAFETY: compiled for, and (see `AVX512`) only called with, the
            // features `__m512i`'s `Vector` methods use; the pairs mode is
            // this kernel's.
            unsafe { run::<__m512i>(t, input, avx512_pairs) }
        }
    }

    codec_arch::enable! { avx2;
        pub(super) fn avx2(t: &Tables, input: &[u8]) -> Result<usize, usize> {
            // SAFETY: as for `avx512`, with AVX2 and `__m256i`.
            unsafe { run::<__m256i>(t, input, avx2_pairs) }
        }
    }

    codec_arch::enable! { sse41;
        pub(super) fn sse41(t: &Tables, input: &[u8]) -> Result<usize, usize> {
            // SAFETY: as for `avx512`, with SSSE3, SSE4.1 and `__m128i`.
            unsafe { run::<__m128i>(t, input, sse41_pairs) }
        }
    }

    // The pairs mode of each, out of line (see `pairs`).

    codec_arch::enable! { avx512;
        /// # Safety
        ///
        /// As for `pairs`: `GROUP <= i <= input.len()`.
        unsafe fn avx512_pairs(input: &[u8], i: usize) -> (usize, bool) {
            // SAFETY: compiled for the features `__m512i`'s methods use, and
            // called only from `avx512`, which has them; the caller guarantees
            // `i`.
            unsafe { pairs::<__m512i>(input, i) }
        }
    }

    codec_arch::enable! { avx2;
        /// # Safety
        ///
        /// As for `avx512_pairs`.
        unsafe fn avx2_pairs(input: &[u8], i: usize) -> (usize, bool) {
            // SAFETY: as for `avx512_pairs`, with AVX2 and `__m256i`.
            unsafe { pairs::<__m256i>(input, i) }
        }
    }

    codec_arch::enable! { sse41;
        /// # Safety
        ///
        /// As for `avx512_pairs`.
        unsafe fn sse41_pairs(input: &[u8], i: usize) -> (usize, bool) {
            // SAFETY: as for `avx512_pairs`, with SSSE3, SSE4.1 and `__m128i`.
            unsafe { pairs::<__m128i>(input, i) }
        }
    }

    // The BMP check, in functions of its own so that the variant entries
    // above keep their code (their three rule sets share one function's
    // register allocation, which moved with every change tried there).

    codec_arch::enable! { avx512;
        pub(super) fn avx512_bmp<const NUL: bool>(input: &[u8]) -> Result<usize, usize> {
            // SAFETY: as for `avx512`.
            unsafe { run_bmp::<__m512i, NUL>(input) }
        }
    }

    codec_arch::enable! { avx2;
        pub(super) fn avx2_bmp<const NUL: bool>(input: &[u8]) -> Result<usize, usize> {
            // SAFETY: as for `avx2`.
            unsafe { run_bmp::<__m256i, NUL>(input) }
        }
    }

    codec_arch::enable! { sse41;
        pub(super) fn sse41_bmp<const NUL: bool>(input: &[u8]) -> Result<usize, usize> {
            // SAFETY: as for `sse41`.
            unsafe { run_bmp::<__m128i, NUL>(input) }
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
    // SAFETY: this module is compiled with NEON (the `cfg` above), all that
    // `uint8x16_t`'s `Vector` methods use.
    check: |t, input| unsafe { run::<core::arch::aarch64::uint8x16_t>(t, input, neon_pairs) },
    // SAFETY: as above.
    bmp: |input| unsafe { run_bmp::<core::arch::aarch64::uint8x16_t, false>(input) },
    // SAFETY: as above.
    bmp_without_nul: |input| unsafe { run_bmp::<core::arch::aarch64::uint8x16_t, true>(input) },
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
    // SAFETY: this module is compiled with NEON (the `cfg` above); the
    // caller guarantees `i`.
    unsafe { pairs::<core::arch::aarch64::uint8x16_t>(input, i) }
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
