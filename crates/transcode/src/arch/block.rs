//! The loop of the kernels whose blocks write a variable amount of output
//! with fixed-width stores: [`run`].
//!
//! Such a block's stores write up to [`Block::stray`] units of garbage past
//! its output. The kernel contract (`arch`'s docs) allows none to remain
//! when the kernel returns, whatever the input, and a conversion can stop
//! after any block (an error, a character Latin-1 lacks, the end of the
//! output). So [`run`] decides how to write a block only once it has
//! examined the next one: it stores the block directly when the next block
//! will be written (it is well-formed and fits) and its output covers the
//! garbage; otherwise it stores the block into a scratch buffer and copies
//! exactly its output. On typical text almost every block goes direct.

use core::mem::MaybeUninit;

/// One block of input, examined and converted, ready to be written.
pub(crate) trait Block<D> {
    /// Input units it converts.
    fn read(&self) -> usize;
    /// Output units it writes.
    fn written(&self) -> usize;
    /// Units of garbage its [`store`](Block::store) writes past
    /// [`written`](Block::written).
    fn stray(&self) -> usize;
    /// Writes the output at `dst`, and `stray()` units of garbage after it.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of `written() + stray()` units.
    unsafe fn store(&self, dst: *mut D);
}

/// The most units a block with garbage may store, output and garbage
/// together, for it to go through the scratch buffer: the largest such
/// block is a register of 64 Latin-1 bytes, 136 bytes of UTF-8 stored.
/// (A larger one is left to the scalar code rather than overflow it.)
const SCRATCH: usize = 144;

/// Converts block by block from the start of the input: `block_at(i,
/// room)` is the block at input unit `i`, whose output should not exceed
/// `room` units (a longer one ends the conversion there), or `None` where
/// the kernel cannot go on
/// (the end of the input is too near, or the block holds something the
/// kernel leaves to the scalar code). Returns `(read, written)`; `dst`
/// changes only in `..written`.
#[inline(always)]
pub(crate) fn run<D: Copy, B: Block<D>>(
    dst: &mut [D],
    mut block_at: impl FnMut(usize, usize) -> Option<B>,
) -> (usize, usize) {
    let cap = dst.len();
    let (mut i, mut o) = (0, 0);
    // Uninitialized: most calls never use it, and zeroing it cost short
    // inputs as much as their conversion.
    let mut scratch = [MaybeUninit::<D>::uninit(); SCRATCH];
    let Some(mut cur) = block_at(0, cap) else {
        return (0, 0);
    };
    loop {
        let (read, written) = (cur.read(), cur.written());
        if written > cap - o {
            return (i, o);
        }
        let next = block_at(i + read, cap - o - written);
        let stray = cur.stray();
        // Direct, if it leaves no garbage, or if the next block is written
        // right after this one (it fits) and over its garbage.
        let direct = stray == 0
            || next
                .as_ref()
                .is_some_and(|n| n.written() >= stray && n.written() <= cap - o - written);
        if direct {
            // SAFETY: `o + written + stray <= cap`: `o + written` fits, and
            // either `stray == 0` or the next block, which fits after it,
            // is at least `stray` units long.
            unsafe { cur.store(dst.as_mut_ptr().add(o)) };
        } else {
            if written + stray > SCRATCH {
                return (i, o);
            }
            // SAFETY: the block stores `written + stray <= SCRATCH` units
            // (`MaybeUninit<D>` has the layout of `D`).
            unsafe { cur.store(scratch.as_mut_ptr().cast::<D>()) };
            let Some(out) = dst.get_mut(o..o + written) else {
                return (i, o);
            };
            // SAFETY: `store` initialized the first `written` units of
            // `scratch`; `out` is `written` units of another buffer.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    scratch.as_ptr().cast::<D>(),
                    out.as_mut_ptr(),
                    written,
                );
            }
        }
        i += read;
        o += written;
        match next {
            Some(n) => cur = n,
            None => return (i, o),
        }
    }
}

/// The longest run from the start, in steps of `step` units and at most
/// `max` units long, of steps for which `test(offset)` holds: the long
/// blocks of ASCII and other easy input, which cost one block's overhead
/// for up to [`RUN`] units.
#[inline(always)]
pub(crate) fn run_len(max: usize, step: usize, mut test: impl FnMut(usize) -> bool) -> usize {
    let mut len = 0;
    while max - len >= step && test(len) {
        len += step;
    }
    len
}

/// The longest run [`run_len`] is asked for: long enough that a block's
/// overhead vanishes, short enough that the run is still in the L1 cache
/// when the block is stored.
pub(crate) const RUN: usize = 4096;
