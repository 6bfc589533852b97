//! Whole-buffer validation: a fast pass with the shift DFA that only says
//! whether a block is good, and a precise pass with the Hoehrmann table that
//! finds the exact error position once a block has failed.
//!
//! # How the fast pass is fast
//!
//! A byte-at-a-time walk of [`TRANSITION`](crate::table::TRANSITION) costs a
//! class load, an add and a transition load per byte, all on one dependency
//! chain through the state (about 0.5 GB/s). The fast pass breaks that chain:
//!
//! - **Shift DFA.** [`SHIFT`] holds one `u64` per byte with every state's
//!   transition in six bits. The load depends only on the byte, so the chain
//!   through the state is a single shift.
//! - **Four streams.** The input is cut in four at character boundaries
//!   (UTF-8 is self-synchronising: any byte that is not a continuation byte
//!   starts a character), and the four parts run through four independent
//!   automata in the same loop, so their chains overlap.
//! - **BMI2.** On x86-64 (see `crate::arch`), the fast pass is also
//!   compiled for BMI2 and chosen at run time when the CPU has it: `shrx`
//!   shifts in one micro-operation without touching the flags, where the
//!   baseline `shr r64, cl` takes several and depends on the previous
//!   flags, which serialises the streams.
//! - **ASCII.** A leading run of ASCII is skipped 256 bytes at a time with
//!   vector ORs (then 16 at a time), and later, a round of four 16-byte
//!   blocks that is all ASCII, met between characters, is skipped with
//!   word tests.
//!
//! The fast pass checks the state once per block. When a block ends in
//! REJECT, the precise pass restarts at the last character boundary before
//! that block (everything before it is known to be valid) and walks byte by
//! byte, tracking where the current character started, until it rejects.

use codec_core::Utf8Error;

use crate::arch::first_bad_region;
use codec_core::utf8::last_char_start as last_boundary;

use crate::table::{ACCEPT, REJECT, SHIFT, SHIFT_ACCEPT, SHIFT_MASK, SHIFT_REJECT, next_state};

/// The bytes a stream steps through between two state checks, and the size
/// of the ASCII blocks it can skip.
pub(crate) const BLOCK: usize = 16;

/// How many independent automata the fast pass runs side by side.
///
/// Measured on the lipsum texts (min of 300 runs, BMI2): four streams beat
/// two by 5–25% on Chinese, Korean and Hindi and lose 6% on Russian; one
/// stream is limited by the latency of its shift chain.
const STREAMS: usize = 4;

/// Inputs shorter than this run as one stream: cutting them in parts does
/// not pay for its set-up.
pub(crate) const STREAMS_MIN: usize = 2 * STREAMS * BLOCK;

/// `Ok(())` if `input` is well-formed UTF-8, else exactly the error
/// [`core::str::from_utf8`] reports (same `valid_up_to` and `error_len`),
/// with its [kind](codec_core::Utf8ErrorKind).
///
/// ```
/// assert!(utf8_dfa::validate("añ吕😀".as_bytes()).is_ok());
/// let e = utf8_dfa::validate(b"caf\xC3").unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (3, None));
/// ```
pub fn validate(input: &[u8]) -> Result<(), Utf8Error> {
    match first_bad_region::<true>(input) {
        None => Ok(()),
        Some(from) => Err(precise(input, from)),
    }
}

/// [`validate`] without the run-time choice of a CPU-specific fast pass: the
/// portable pass on every CPU. For tests, which must cover both passes
/// whatever machine runs them, and benchmarks.
#[doc(hidden)]
pub fn validate_portable(input: &[u8]) -> Result<(), Utf8Error> {
    match first_bad_region_portable::<true>(input) {
        None => Ok(()),
        Some(from) => Err(precise(input, from)),
    }
}

/// [`validate`] with one automaton only, whose work is proportional to the
/// distance to the first error rather than to four times it: for lossy
/// conversion, which validates again after each error.
pub(crate) fn validate_one_stream(input: &[u8]) -> Result<(), Utf8Error> {
    match first_bad_region::<false>(input) {
        None => Ok(()),
        Some(from) => Err(precise(input, from)),
    }
}

/// Whether `input` is well-formed UTF-8; the same fast pass as [`validate`]
/// without the error position.
#[must_use]
pub fn is_valid(input: &[u8]) -> bool {
    first_bad_region::<true>(input).is_none()
}

/// The fast pass, for any CPU; `SPLIT` allows cutting the input in parts.
#[inline(always)]
pub(crate) fn first_bad_region_portable<const SPLIT: bool>(input: &[u8]) -> Option<usize> {
    if input.len() < STREAMS_MIN {
        return finish_stream(input, 0, input.len(), SHIFT_ACCEPT).err();
    }
    // Everything before `ascii` is ASCII, so `ascii` is a character boundary.
    let ascii = ascii_prefix(input);
    let rest = &input[ascii..];
    let bad = if !SPLIT || rest.len() < STREAMS_MIN {
        finish_stream(rest, 0, rest.len(), SHIFT_ACCEPT).err()
    } else {
        streams(rest)
    };
    bad.map(|from| ascii + from)
}

/// The bytes skipped at once at the start of an input while they are ASCII.
const ASCII_CHUNK: usize = 256;

/// The length of the leading ASCII of `input`, in whole [`ASCII_CHUNK`]s
/// and then whole [`BLOCK`]s.
///
/// Without it, pure ASCII ran at 0.63× std (22 against 35 GB/s on the Latin
/// text): the streams loop tests 64 bytes per iteration but also carries
/// the states. The chunk loop ORs 256 bytes and tests once, which the
/// compiler turns into vector ORs (64-byte chunks: 1.12× std, 128: 1.55×,
/// 256: 1.84×). The block loop after it keeps inputs of a few hundred bytes
/// out of the streams' set-up (200 ASCII bytes took 30 ns against std's 14
/// without it).
#[inline(always)]
fn ascii_prefix(input: &[u8]) -> usize {
    let mut pos = 0;
    for chunk in input.chunks_exact(ASCII_CHUNK) {
        if chunk.iter().fold(0, |acc, &b| acc | b) >= 0x80 {
            break;
        }
        pos += ASCII_CHUNK;
    }
    for block in blocks(&input[pos..]).0 {
        if !is_ascii(block) {
            break;
        }
        pos += BLOCK;
    }
    pos
}

/// The fast pass for inputs of at least [`STREAMS_MIN`] bytes: [`STREAMS`]
/// automata over as many parts of the input, in the same loop.
#[inline(always)]
fn streams(input: &[u8]) -> Option<usize> {
    // Part `j` starts at the first byte at or after `j * len / STREAMS` that
    // is not a continuation byte. If there is none within four bytes, those
    // four continuation bytes are an error anyway: run one stream.
    let mut starts = [0; STREAMS];
    for (j, start) in starts.iter_mut().enumerate().skip(1) {
        let cut = j * (input.len() / STREAMS);
        match input[cut..cut + 4].iter().position(|&b| b & 0xC0 != 0x80) {
            Some(i) => *start = cut + i,
            None => return finish_stream(input, 0, input.len(), SHIFT_ACCEPT).err(),
        }
    }
    let end = |j: usize| starts.get(j + 1).copied().unwrap_or(input.len());
    let parts: [&[u8]; STREAMS] = core::array::from_fn(|j| &input[starts[j]..end(j)]);
    // Every part has at least `len / STREAMS - 3` bytes.
    let blocks = parts.iter().map(|p| p.len() / BLOCK).min().unwrap_or(0);
    let mut state = [SHIFT_ACCEPT; STREAMS];
    // How many blocks of each part are done.
    let mut done = 0;
    while done < blocks {
        let block: [&[u8; BLOCK]; STREAMS] =
            core::array::from_fn(|j| block_at(parts[j], done * BLOCK));
        let ored = state.iter().fold(0, |acc, s| acc | s);
        if ored & SHIFT_MASK == SHIFT_ACCEPT && block.iter().all(|b| is_ascii(b)) {
            done += 1;
            continue;
        }
        let mut next = state;
        for i in 0..BLOCK {
            for j in 0..STREAMS {
                next[j] = SHIFT[block[j][i] as usize].wrapping_shr(next[j] as u32);
            }
        }
        if next.iter().any(|s| s & SHIFT_MASK == SHIFT_REJECT) {
            // Leave every stream at the start of this block: the one-stream
            // code below finds which failed first, and where.
            break;
        }
        state = next;
        done += 1;
    }
    // Finish the parts in order. Each but the last must end between
    // characters, because the next part starts with a byte that is not a
    // continuation byte.
    for j in 0..STREAMS {
        let last = finish_stream(input, starts[j] + done * BLOCK, end(j), state[j]);
        match last {
            Err(from) => return Some(from),
            Ok(s) if j + 1 < STREAMS && s & SHIFT_MASK != SHIFT_ACCEPT => {
                return Some(last_boundary(input, end(j)));
            }
            Ok(_) => {}
        }
    }
    None
}

/// The [`BLOCK`] bytes at `pos`, which the caller keeps in bounds (an
/// all-zero block otherwise, which is never taken).
#[inline(always)]
fn block_at(input: &[u8], pos: usize) -> &[u8; BLOCK] {
    input
        .get(pos..pos + BLOCK)
        .and_then(|b| b.try_into().ok())
        .unwrap_or(&[0; BLOCK])
}

/// Runs one stream over `input[pos..end]` from shift state `state`, where
/// `input[..pos]` is valid apart from the character in progress. Returns the
/// final state, or a boundary from which [`precise`] finds the first error.
/// An unfinished character at `end` is not an error here.
#[inline(always)]
fn finish_stream(input: &[u8], mut pos: usize, end: usize, mut state: u64) -> Result<u64, usize> {
    let (blocks, tail) = blocks(&input[pos..end]);
    for block in blocks {
        if state & SHIFT_MASK == SHIFT_ACCEPT && is_ascii(block) {
            pos += BLOCK;
            continue;
        }
        let next = run(state, block);
        if next & SHIFT_MASK == SHIFT_REJECT {
            return Err(boundary(input, pos, state));
        }
        state = next;
        pos += BLOCK;
    }
    let next = run(state, tail);
    if next & SHIFT_MASK == SHIFT_REJECT {
        return Err(boundary(input, pos, state));
    }
    if end == input.len() && next & SHIFT_MASK != SHIFT_ACCEPT {
        // Unfinished at the very end: `precise` reports it as incomplete.
        return Err(last_boundary(input, end));
    }
    Ok(next)
}

/// `bytes` as whole blocks and a tail shorter than a block (what
/// `slice::as_chunks` does, which needs Rust 1.88).
#[inline(always)]
fn blocks(bytes: &[u8]) -> (impl Iterator<Item = &[u8; BLOCK]>, &[u8]) {
    let chunks = bytes.chunks_exact(BLOCK);
    let tail = chunks.remainder();
    // Every chunk has BLOCK bytes; the fallback is never taken and is
    // optimised away.
    (chunks.map(|c| c.try_into().unwrap_or(&[0; BLOCK])), tail)
}

/// Steps the shift DFA through `bytes`.
#[inline(always)]
fn run(mut state: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        state = SHIFT[b as usize].wrapping_shr(state as u32);
    }
    state
}

/// Whether a block is all ASCII: one OR of its two words, one mask.
#[inline(always)]
fn is_ascii(block: &[u8; BLOCK]) -> bool {
    let (lo, hi) = block.split_at(8);
    let lo = u64::from_le_bytes([lo[0], lo[1], lo[2], lo[3], lo[4], lo[5], lo[6], lo[7]]);
    let hi = u64::from_le_bytes([hi[0], hi[1], hi[2], hi[3], hi[4], hi[5], hi[6], hi[7]]);
    (lo | hi) & 0x8080_8080_8080_8080 == 0
}

/// The character boundary at or before `pos`, given the shift state there:
/// `pos` itself between characters, else the lead byte of the character in
/// progress (at most three bytes back).
fn boundary(input: &[u8], pos: usize, state: u64) -> usize {
    if state & SHIFT_MASK == SHIFT_ACCEPT {
        pos
    } else {
        last_boundary(input, pos)
    }
}

/// The exact error in `input`, searched from the character boundary `from`
/// (with `input[..from]` valid) with the Hoehrmann table, tracking the start
/// of the character in progress.
///
/// A REJECT at byte `i` of the character that started at `start` means
/// `valid_up_to == start` and `error_len == max(1, i - start)`: the maximal
/// invalid subpart is the bytes before the rejecting one, or that byte alone
/// if it was a lead. A non-ACCEPT state at the end means `error_len == None`.
/// [`Utf8Error::at`] computes both from the bytes; the debug assertions
/// check that the automaton agrees.
#[cold]
#[inline(never)]
pub(crate) fn precise(input: &[u8], from: usize) -> Utf8Error {
    let mut state = ACCEPT;
    let mut start = from;
    for (i, &b) in input.iter().enumerate().skip(from) {
        state = next_state(state, b);
        if state == ACCEPT {
            start = i + 1;
        } else if state == REJECT {
            let e = Utf8Error::at(input, start);
            debug_assert_eq!(e.error_len(), Some((i - start).max(1)));
            return e;
        }
    }
    // Reaching the end between characters would mean the caller passed a
    // valid input; the error below (Incomplete at the end) is then wrong but
    // harmless, and the tests make sure it never happens.
    debug_assert_ne!(state, ACCEPT, "precise pass found no error");
    Utf8Error::at(input, start)
}
