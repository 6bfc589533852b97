//! Runs of ASCII copied (to UTF-8 or a single-byte page) or widened (to
//! UTF-16) into a buffer's spare capacity, two registers a step: on pure
//! ASCII text this is all the work, and it runs at the speed of a copy
//! (the table kernels test, shuffle and compact every block; transcode's
//! Latin-1 kernels need an initialised, so zeroed, output).
//!
//! Generic over codec-arch's `Simd`, instantiated per token by
//! [`ascii!`].

use codec_arch::Simd;
use core::mem::MaybeUninit;

/// Copies `src` to `dst` four registers at a time (one test, and the
/// loop's own instructions once for four) while all four are ASCII and
/// `dst` holds them; returns the bytes copied (a multiple of
/// `4 * S::BYTES`: the caller's kernel takes the rest).
#[inline(always)]
pub(super) fn copy<S: Simd>(s: S, src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
    let step = 4 * S::BYTES;
    let end = src.len().min(dst.len());
    let mut i = 0;
    while i + step <= end {
        // SAFETY: `i + step <= src.len()` and `<= dst.len()`: the four
        // registers' loads and stores lie within the slices.
        unsafe {
            let v = codec_arch::simd::load4(s, src.as_ptr().add(i));
            if s.movemask8(s.or(s.or(v[0], v[1]), s.or(v[2], v[3]))) != 0 {
                break;
            }
            let out = dst.as_mut_ptr().add(i).cast::<u8>();
            for (k, v) in v.into_iter().enumerate() {
                s.store(out.add(k * S::BYTES), v);
            }
        }
        i += step;
    }
    i
}

/// As [`copy`], counting the copied bytes equal to `b` on the way (the
/// data is in registers; a second pass over the output cost as much as
/// the copy) and noting the last step that held one: returns the bytes
/// copied, the count, and the index of the last such byte.
#[inline(always)]
pub(super) fn copy_counting<S: Simd>(
    s: S,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    b: u8,
) -> (usize, usize, Option<usize>) {
    /// Steps before a counter of one byte could reach 256.
    const ROUND: usize = 255;
    let step = 4 * S::BYTES;
    let end = src.len().min(dst.len());
    let needle = s.splat8(b);
    let (mut i, mut total, mut last_step) = (0, 0u64, None);
    let mut ascii = true;
    while ascii && i + step <= end {
        let mut acc = [s.zero(); 4];
        let mut steps = 0;
        while steps < ROUND && i + step <= end {
            // SAFETY: `i + step <= src.len()` and `<= dst.len()`: the four
            // registers' loads and stores lie within the slices.
            unsafe {
                let v = codec_arch::simd::load4(s, src.as_ptr().add(i));
                if s.movemask8(s.or(s.or(v[0], v[1]), s.or(v[2], v[3]))) != 0 {
                    ascii = false;
                    break;
                }
                let e = v.map(|v| s.eq8(v, needle));
                if s.movemask8(s.or(s.or(e[0], e[1]), s.or(e[2], e[3]))) != 0 {
                    last_step = Some(i);
                }
                for (a, e) in acc.iter_mut().zip(e) {
                    *a = s.sub8(*a, e);
                }
                let out = dst.as_mut_ptr().add(i).cast::<u8>();
                for (k, v) in v.into_iter().enumerate() {
                    s.store(out.add(k * S::BYTES), v);
                }
            }
            i += step;
            steps += 1;
        }
        total += acc.into_iter().map(|a| s.sum8(a)).sum::<u64>();
    }
    let last = last_step.and_then(|j: usize| {
        let at = src.get(j..j + step)?.iter().rposition(|&x| x == b)?;
        Some(j + at)
    });
    (i, total as usize, last)
}

/// As [`widen`], counting the widened bytes equal to `b` on the way, as
/// [`copy_counting`] does: the units written, the count and the index of
/// the last such byte.
#[inline(always)]
pub(super) fn widen_counting<S: Simd>(
    s: S,
    src: &[u8],
    dst: &mut [MaybeUninit<u16>],
    b: u8,
) -> (usize, usize, Option<usize>) {
    /// Steps before a counter of one byte could reach 256.
    const ROUND: usize = 255;
    let step = 2 * S::BYTES;
    let end = src.len().min(dst.len());
    let needle = s.splat8(b);
    let (mut i, mut total, mut last_step) = (0, 0u64, None);
    let mut ascii = true;
    while ascii && i + step <= end {
        let mut acc = [s.zero(); 2];
        let mut steps = 0;
        while steps < ROUND && i + step <= end {
            // SAFETY: `i + step <= src.len()` and `<= dst.len()`: the loads
            // of `step` bytes (tested, then widened a half register at a
            // time) lie within `src`, the stores of `2 * step` bytes (`step`
            // units) within `dst`.
            unsafe {
                let p = src.as_ptr().add(i);
                let v = [s.load(p), s.load(p.add(S::BYTES))];
                if s.movemask8(s.or(v[0], v[1])) != 0 {
                    ascii = false;
                    break;
                }
                let e = v.map(|v| s.eq8(v, needle));
                if s.movemask8(s.or(e[0], e[1])) != 0 {
                    last_step = Some(i);
                }
                for (a, e) in acc.iter_mut().zip(e) {
                    *a = s.sub8(*a, e);
                }
                let out = dst.as_mut_ptr().add(i).cast::<u8>();
                for k in 0..4 {
                    let units = s.load_widen8to16(p.add(k * S::BYTES / 2));
                    s.store(out.add(k * S::BYTES), units);
                }
            }
            i += step;
            steps += 1;
        }
        total += acc.into_iter().map(|a| s.sum8(a)).sum::<u64>();
    }
    let last = last_step.and_then(|j: usize| {
        let at = src.get(j..j + step)?.iter().rposition(|&x| x == b)?;
        Some(j + at)
    });
    (i, total as usize, last)
}

/// Widens `src` to UTF-16 units in `dst` two registers of input at a time
/// while they are ASCII and `dst` holds them; returns the bytes (units)
/// written (a multiple of `2 * S::BYTES`).
#[inline(always)]
pub(super) fn widen<S: Simd>(s: S, src: &[u8], dst: &mut [MaybeUninit<u16>]) -> usize {
    let step = 2 * S::BYTES;
    let end = src.len().min(dst.len());
    let mut i = 0;
    while i + step <= end {
        // SAFETY: `i + step <= src.len()` and `<= dst.len()`: the loads of
        // `step` bytes (tested, then widened a half register at a time) lie
        // within `src`, the stores of `2 * step` bytes (`step` units)
        // within `dst`.
        unsafe {
            let p = src.as_ptr().add(i);
            let (a, b) = (s.load(p), s.load(p.add(S::BYTES)));
            if s.movemask8(s.or(a, b)) != 0 {
                break;
            }
            let out = dst.as_mut_ptr().add(i).cast::<u8>();
            for k in 0..4 {
                let units = s.load_widen8to16(p.add(k * S::BYTES / 2));
                s.store(out.add(k * S::BYTES), units);
            }
        }
        i += step;
    }
    i
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

/// The entry points of [`copy`], [`copy_counting`], [`count`] and (given a name for the first) [`widen`] and [`widen_counting`] for one
/// token, of the types of `super::super::Ascii` (`unsafe` for the caller's
/// proof of the features).
macro_rules! ascii {
    ($name:ident, $token:ident, $level:ident $(, $widen:ident)?) => {
        pub(crate) mod $name {
            use codec_arch::x86_64::$token;
            use core::mem::MaybeUninit;

            /// # Safety
            ///
            /// The CPU must have the token's features.
            pub(crate) unsafe fn copy(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
                // SAFETY: the caller proves the features.
                unsafe { run_copy(src, dst) }
            }

            codec_arch::enable! { $level;
                fn run_copy(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
                    super::copy($token::new(), src, dst)
                }
            }

            /// # Safety
            ///
            /// The CPU must have the token's features.
            pub(crate) unsafe fn copy_counting(
                src: &[u8],
                dst: &mut [MaybeUninit<u8>],
                b: u8,
            ) -> (usize, usize, Option<usize>) {
                // SAFETY: the caller proves the features.
                unsafe { run_copy_counting(src, dst, b) }
            }

            codec_arch::enable! { $level;
                fn run_copy_counting(
                    src: &[u8],
                    dst: &mut [MaybeUninit<u8>],
                    b: u8,
                ) -> (usize, usize, Option<usize>) {
                    super::copy_counting($token::new(), src, dst, b)
                }
            }

            /// # Safety
            ///
            /// The CPU must have the token's features.
            pub(crate) unsafe fn count(src: &[u8], b: u8) -> usize {
                // SAFETY: the caller proves the features.
                unsafe { run_count(src, b) }
            }

            codec_arch::enable! { $level;
                fn run_count(src: &[u8], b: u8) -> usize {
                    super::count($token::new(), src, b)
                }
            }

            $(
                /// # Safety
                ///
                /// The CPU must have the token's features.
                pub(crate) unsafe fn $widen(src: &[u8], dst: &mut [MaybeUninit<u16>]) -> usize {
                    // SAFETY: the caller proves the features.
                    unsafe { run_widen(src, dst) }
                }

                codec_arch::enable! { $level;
                    fn run_widen(src: &[u8], dst: &mut [MaybeUninit<u16>]) -> usize {
                        super::widen($token::new(), src, dst)
                    }
                }

                /// # Safety
                ///
                /// The CPU must have the token's features.
                pub(crate) unsafe fn widen_counting(
                    src: &[u8],
                    dst: &mut [MaybeUninit<u16>],
                    b: u8,
                ) -> (usize, usize, Option<usize>) {
                    // SAFETY: the caller proves the features.
                    unsafe { run_widen_counting(src, dst, b) }
                }

                codec_arch::enable! { $level;
                    fn run_widen_counting(
                        src: &[u8],
                        dst: &mut [MaybeUninit<u16>],
                        b: u8,
                    ) -> (usize, usize, Option<usize>) {
                        super::widen_counting($token::new(), src, dst, b)
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
