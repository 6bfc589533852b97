//! Whole-buffer validation: a fast pass with the shift DFA that only says
//! whether a block is good, and a precise pass with the Hoehrmann table that
//! finds the exact error position once a block has failed.
//!
//! # How the fast pass is fast
//!
//! A byte-at-a-time walk of [`TRANSITION`](crate::table::TRANSITION) costs a
//! class load, an add and a transition load per byte, all on one dependency
//! chain through the state. The fast pass breaks that chain three ways:
//!
//! - **Shift DFA.** [`SHIFT`] holds one `u64` per byte with every state's
//!   transition in six bits. The load depends only on the byte, so the chain
//!   through the state is a single shift (one cycle).
//! - **Two streams.** The input is cut in two at a character boundary near
//!   its middle (UTF-8 is self-synchronising: any byte that is not a
//!   continuation byte starts a character), and the two halves run through
//!   two independent automata in the same loop, so their chains overlap.
//! - **ASCII blocks.** A block of [`BLOCK`] bytes that is all ASCII, met
//!   between characters, is skipped with one word test instead of being
//!   stepped through.
//!
//! The fast pass checks the state once per block. When a block ends in
//! REJECT, the precise pass restarts at the last character boundary before
//! that block (everything before it is known to be valid) and walks byte by
//! byte, tracking where the current character started, until it rejects.

use codec_core::Utf8Error;

use crate::table::{ACCEPT, REJECT, SHIFT, SHIFT_ACCEPT, SHIFT_MASK, SHIFT_REJECT, next_state};

/// The bytes a stream steps through between two state checks, and the size
/// of the ASCII blocks it can skip.
pub(crate) const BLOCK: usize = 16;

/// Inputs shorter than this run as one stream: cutting them in two does not
/// pay for its set-up.
const TWO_STREAMS_MIN: usize = 4 * BLOCK;

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
    match first_bad_region(input) {
        None => Ok(()),
        Some(from) => Err(precise(input, from)),
    }
}

/// Whether `input` is well-formed UTF-8; the same fast pass as [`validate`]
/// without the error position.
pub fn is_valid(input: &[u8]) -> bool {
    first_bad_region(input).is_none()
}

/// `None` if `input` is valid; otherwise a character boundary `from` such
/// that `input[..from]` is valid and the first error is at or after it.
#[inline]
fn first_bad_region(input: &[u8]) -> Option<usize> {
    if input.len() < TWO_STREAMS_MIN {
        return finish_stream(input, 0, input.len(), SHIFT_ACCEPT).err();
    }
    two_streams(input)
}

/// The fast pass for inputs of at least [`TWO_STREAMS_MIN`] bytes.
fn two_streams(input: &[u8]) -> Option<usize> {
    // Stream B starts at the first byte at or after the middle that is not a
    // continuation byte. If there is none within four bytes, those four
    // continuation bytes are an error anyway: run one stream.
    let half = input.len() / 2;
    let Some(mid) = input[half..half + 4]
        .iter()
        .position(|&b| b & 0xC0 != 0x80)
        .map(|i| half + i)
    else {
        return finish_stream(input, 0, input.len(), SHIFT_ACCEPT).err();
    };
    let (a, b) = input.split_at(mid);
    let (a_blocks, _) = blocks(a);
    let (b_blocks, _) = blocks(b);
    let (mut sa, mut sb) = (SHIFT_ACCEPT, SHIFT_ACCEPT);
    // How many blocks of each stream are done.
    let mut done = 0;
    for (ba, bb) in a_blocks.zip(b_blocks) {
        if (sa | sb) & SHIFT_MASK == SHIFT_ACCEPT && is_ascii(ba) && is_ascii(bb) {
            done += 1;
            continue;
        }
        let (mut na, mut nb) = (sa, sb);
        for (&x, &y) in ba.iter().zip(bb) {
            na = SHIFT[x as usize].wrapping_shr(na as u32);
            nb = SHIFT[y as usize].wrapping_shr(nb as u32);
        }
        if (na & SHIFT_MASK == SHIFT_REJECT) | (nb & SHIFT_MASK == SHIFT_REJECT) {
            // Leave both streams at the start of this block: the one-stream
            // code below finds which failed, and where.
            break;
        }
        (sa, sb) = (na, nb);
        done += 1;
    }
    // Finish stream A, which must end between characters: B starts with a
    // byte that is not a continuation byte.
    let pos = done * BLOCK;
    let end_a = match finish_stream(input, pos, mid, sa) {
        Ok(state) => state,
        Err(from) => return Some(from),
    };
    if end_a & SHIFT_MASK != SHIFT_ACCEPT {
        return Some(last_boundary(input, mid));
    }
    finish_stream(input, mid + pos, input.len(), sb).err()
}

/// Runs one stream over `input[pos..end]` from shift state `state`, where
/// `input[..pos]` is valid apart from the character in progress. Returns the
/// final state, or a boundary from which [`precise`] finds the first error.
/// An unfinished character at `end` is not an error here.
#[inline]
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

/// The start of the last character that begins before `pos`: the last byte
/// before `pos`, at most four back, that is not a continuation byte (or
/// `pos - 4` if every one is, which the precise pass then rejects).
fn last_boundary(input: &[u8], pos: usize) -> usize {
    let lo = pos.saturating_sub(4);
    input[lo..pos]
        .iter()
        .rposition(|&b| b & 0xC0 != 0x80)
        .map_or(lo, |i| lo + i)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries() {
        let s = "a吕😀".as_bytes();
        assert_eq!(last_boundary(s, 3), 1);
        assert_eq!(last_boundary(s, 4), 4 - 3);
        assert_eq!(last_boundary(s, 8), 4);
        assert_eq!(last_boundary(b"\x80\x80\x80\x80\x80", 5), 1);
        assert_eq!(last_boundary(b"\x80", 1), 0);
    }
}
