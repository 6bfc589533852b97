//! Runs of ASCII copied (to UTF-8 or a single-byte page) or widened (to
//! UTF-16) into a buffer's spare capacity, two registers a step: on pure
//! ASCII text this is all the work, and it runs at the speed of a copy
//! (the table kernels test, shuffle and compact every block; transcode's
//! Latin-1 kernels need an initialised, so zeroed, output).
//!
//! One loop ([`run`]), generic over codec-arch's `Simd` and over how a
//! step is written ([`Store`]: copied as bytes or widened to units), with
//! the line count as a const parameter; instantiated per token by
//! [`ascii!`].

use crate::arch::Counted;
use codec_arch::Simd;
use core::mem::MaybeUninit;

/// How a step of `R` registers of ASCII input is written out: copied
/// (`u8`, four registers a step: one test, and the loop's own
/// instructions once for four) or widened to UTF-16 units (`u16`, two
/// registers of input to four of output).
pub(super) trait Store<const R: usize>: Sized {
    /// Writes the step's `R` registers `v`, loaded from `p`, to `out`.
    ///
    /// # Safety
    ///
    /// `p` must be valid for reads of `R * S::BYTES` bytes, `out` for
    /// writes of `R * S::BYTES` units.
    unsafe fn store<S: Simd>(s: S, p: *const u8, v: [S::V; R], out: *mut Self);
}

impl Store<4> for u8 {
    #[inline(always)]
    unsafe fn store<S: Simd>(s: S, _: *const u8, v: [S::V; 4], out: *mut u8) {
        for (k, v) in v.into_iter().enumerate() {
            // SAFETY: register `k` of the step lies within the caller's
            // `4 * BYTES` writable bytes.
            unsafe { s.store(out.add(k * S::BYTES), v) };
        }
    }
}

impl Store<2> for u16 {
    /// Widened from memory a half register at a time (the unpacks of
    /// registers already loaded cross 128-bit lanes on AVX2).
    #[inline(always)]
    unsafe fn store<S: Simd>(s: S, p: *const u8, _: [S::V; 2], out: *mut u16) {
        let out = out.cast::<u8>();
        for k in 0..4 {
            // SAFETY: half register `k` of the step's `2 * BYTES` readable
            // bytes, widened to register `k` of its `4 * BYTES` writable
            // bytes (`2 * BYTES` units).
            unsafe {
                let units = s.load_widen8to16(p.add(k * S::BYTES / 2));
                s.store(out.add(k * S::BYTES), units);
            }
        }
    }
}

/// The OR of `R` registers (a power of two), as a tree: two levels for
/// four rather than a chain of three.
#[inline(always)]
fn or_all<S: Simd, const R: usize>(s: S, mut v: [S::V; R]) -> S::V {
    let mut n = R;
    while n > 1 {
        n /= 2;
        for k in 0..n {
            v[k] = s.or(v[2 * k], v[2 * k + 1]);
        }
    }
    v[0]
}

/// Copies or widens (`U`) `src` to `dst` `R` registers of input at a time
/// while they are ASCII and `dst` holds them; returns the bytes (units)
/// written, a multiple of `R * S::BYTES` (the caller's kernel takes the
/// rest). With `COUNT` it counts the bytes equal to `b` on the way (the
/// data is in registers; a second pass over the output cost as much as
/// the copy) and notes the last step that held one, returning the count
/// and the index of the last such byte; without, `(n, 0, None)`.
#[inline(always)]
pub(super) fn run<S: Simd, U: Store<R>, const R: usize, const COUNT: bool>(
    s: S,
    src: &[u8],
    dst: &mut [MaybeUninit<U>],
    b: u8,
) -> Counted {
    /// Steps before a counter of one byte could reach 256.
    const ROUND: usize = 255;
    let step = R * S::BYTES;
    let end = src.len().min(dst.len());
    let needle = s.splat8(b);
    let (mut i, mut total, mut last_step) = (0, 0u64, None);
    let mut ascii = true;
    while ascii && i + step <= end {
        let mut acc = [s.zero(); R];
        let mut steps = 0;
        // Without `COUNT` no counter can wrap: one round to the end.
        while (!COUNT || steps < ROUND) && i + step <= end {
            // SAFETY: `i + step <= src.len()` and `<= dst.len()`: the
            // step's loads of `step` bytes lie within `src`, its `step`
            // units within `dst`.
            unsafe {
                let p = src.as_ptr().add(i);
                let mut v = [s.zero(); R];
                for (k, v) in v.iter_mut().enumerate() {
                    *v = s.load(p.add(k * S::BYTES));
                }
                if s.movemask8(or_all(s, v)) != 0 {
                    ascii = false;
                    break;
                }
                if COUNT {
                    let mut e = v;
                    for e in &mut e {
                        *e = s.eq8(*e, needle);
                    }
                    if s.movemask8(or_all(s, e)) != 0 {
                        last_step = Some(i);
                    }
                    for (a, e) in acc.iter_mut().zip(e) {
                        *a = s.sub8(*a, e);
                    }
                }
                U::store(s, p, v, dst.as_mut_ptr().add(i).cast::<U>());
            }
            i += step;
            steps += 1;
        }
        if COUNT {
            total += acc.into_iter().map(|a| s.sum8(a)).sum::<u64>();
        }
    }
    let last = last_step.and_then(|j: usize| {
        let at = src.get(j..j + step)?.iter().rposition(|&x| x == b)?;
        Some(j + at)
    });
    (i, total as usize, last)
}

/// The number of bytes of `src` equal to `b`: four registers a step,
/// each byte's match subtracted from a byte counter per register, the
/// counters summed before any can wrap (the lines of a strict coder's
/// output, counted on every call: `memchr`'s count took as long as
/// copying the text).
#[inline(always)]
pub(super) fn count<S: Simd>(s: S, src: &[u8], b: u8) -> usize {
    /// Steps before a counter of one byte could reach 256.
    const ROUND: usize = 255;
    let step = 4 * S::BYTES;
    let needle = s.splat8(b);
    let mut total = 0u64;
    let mut i = 0;
    while i + step <= src.len() {
        let steps = ((src.len() - i) / step).min(ROUND);
        let mut acc = [s.zero(); 4];
        for _ in 0..steps {
            // SAFETY: `steps` whole steps from `i` lie within `src`.
            let v = unsafe { codec_arch::simd::load4(s, src.as_ptr().add(i)) };
            for (a, v) in acc.iter_mut().zip(v) {
                *a = s.sub8(*a, s.eq8(v, needle));
            }
            i += step;
        }
        total += acc.into_iter().map(|a| s.sum8(a)).sum::<u64>();
    }
    total as usize + src[i..].iter().filter(|&&x| x == b).count()
}

/// The entry points of [`run`] (copied, widened, each counting or not)
/// and [`count`] for one token, of the types of `super::super::Ascii`:
/// safe `#[target_feature]` functions, which coerce to its `unsafe` fn
/// pointers (the caller proves the features). With `widen`, the widening
/// ones too.
macro_rules! ascii {
    ($name:ident, $token:ident, $level:ident $(, $widen:ident)?) => {
        pub(crate) mod $name {
            use crate::arch::Counted;
            use codec_arch::x86_64::$token;
            use core::mem::MaybeUninit;

            codec_arch::enable! { $level;
                pub(crate) fn copy(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
                    super::run::<_, u8, 4, false>($token::new(), src, dst, 0).0
                }

                pub(crate) fn copy_counting(
                    src: &[u8],
                    dst: &mut [MaybeUninit<u8>],
                    b: u8,
                ) -> Counted {
                    super::run::<_, u8, 4, true>($token::new(), src, dst, b)
                }

                pub(crate) fn count(src: &[u8], b: u8) -> usize {
                    super::count($token::new(), src, b)
                }
            }

            $(
                codec_arch::enable! { $level;
                    pub(crate) fn $widen(src: &[u8], dst: &mut [crate::arch::Unit]) -> usize {
                        super::run::<_, u16, 2, false>($token::new(), src, dst, 0).0
                    }

                    pub(crate) fn widen_counting(src: &[u8], dst: &mut [crate::arch::Unit], b: u8) -> Counted {
                        super::run::<_, u16, 2, true>($token::new(), src, dst, b)
                    }
                }
            )?
        }
    };
}

ascii!(sse41, Sse41, sse41, widen);
ascii!(avx2, Avx2, avx2, widen);
// Widening in 64-byte registers ran slower than in 32-byte ones: the VBMI
// kernels take AVX2's (`super::ASCII512`).
ascii!(avx512, Avx512, avx512);
