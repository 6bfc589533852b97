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

/// One block of input, examined and converted, ready to be written.
pub(crate) trait Block<D> {
    /// Input units it converts.
    fn read(&self) -> usize;
    /// Output units it writes.
    fn written(&self) -> usize;
    /// Units of garbage its [`store`](Block::store) writes past
    /// [`written`](Block::written); at most [`SCRATCH`] in all.
    fn stray(&self) -> usize;
    /// Writes the output at `dst`, and `stray()` units of garbage after it.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of `written() + stray()` units.
    unsafe fn store(&self, dst: *mut D);
}

/// The most units a block may store, output and garbage together.
pub(crate) const SCRATCH: usize = 80;

/// Converts block by block from the start of the input: `block_at(i)` is
/// the block at input unit `i`, or `None` where the kernel cannot go on
/// (the end of the input is too near, or the block holds something the
/// kernel leaves to the scalar code). Returns `(read, written)`; `dst`
/// changes only in `..written`.
#[inline(always)]
pub(crate) fn run<D: Copy + Default, B: Block<D>>(
    dst: &mut [D],
    mut block_at: impl FnMut(usize) -> Option<B>,
) -> (usize, usize) {
    let cap = dst.len();
    let (mut i, mut o) = (0, 0);
    let Some(mut cur) = block_at(0) else {
        return (0, 0);
    };
    loop {
        let (read, written) = (cur.read(), cur.written());
        if written > cap - o {
            return (i, o);
        }
        let next = block_at(i + read);
        // Direct, if the next block is written right after this one (it
        // fits) and over this one's garbage.
        let direct = match &next {
            Some(n) => n.written() >= cur.stray() && n.written() <= cap - o - written,
            None => cur.stray() == 0,
        };
        if direct {
            // SAFETY: `o + written + stray <= cap`: `o + written` fits, and
            // either `stray == 0` or the next block, which fits after it,
            // is at least `stray` units long.
            unsafe { cur.store(dst.as_mut_ptr().add(o)) };
        } else {
            let mut scratch = [D::default(); SCRATCH];
            // SAFETY: a block stores at most `SCRATCH` units (`stray`'s
            // contract).
            unsafe { cur.store(scratch.as_mut_ptr()) };
            let (Some(out), Some(from)) = (dst.get_mut(o..o + written), scratch.get(..written))
            else {
                return (i, o);
            };
            out.copy_from_slice(from);
        }
        i += read;
        o += written;
        match next {
            Some(n) => cur = n,
            None => return (i, o),
        }
    }
}
