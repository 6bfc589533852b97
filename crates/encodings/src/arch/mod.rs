//! The single-byte engine's kernels, and the crate's only `unsafe` code.
//!
//! A kernel's `to_utf16(table, src, dst)` converts the longest prefix of
//! `src` (at most `dst.len()` bytes) that has no undefined byte into
//! `dst`, one UTF-16 unit per byte, and returns its length; the caller
//! ([`crate::single_byte`], [`crate::decoder`]) handles the undefined byte.
//! Beside them: fused kernels to UTF-8 ([`decode_to_utf8`], AVX-512 VBMI
//! or AVX2, writing into the `String`'s spare capacity) and the dense
//! encoder ([`encode_dense`], AVX-512 VBMI). On aarch64 the NEON kernel
//! decodes to UTF-16 only; UTF-8 output takes the two-pass path there,
//! and encoding the scalar one (no NEON form of those yet). The scalar
//! kernel is the reference; the others are tested against it on every table (`tests`
//! below, and the engine's tests in [`crate::single_byte`]).
//!
//! Dispatch: `codec_arch::Dispatch`, as every crate of the workspace (the
//! CPU asked once, the chosen kernel cached in an `AtomicPtr`).

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use codec_arch::{Dispatch, Isa, Registered};

/// One implementation of the engine.
#[derive(Debug)]
pub(crate) struct Kernel {
    /// For tests and reports.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) name: &'static str,
    /// See the module docs.
    ///
    /// # Safety
    ///
    /// The CPU must have the kernel's features ([`Kernel::isa`]).
    pub(crate) to_utf16: unsafe fn(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize,
    /// What the CPU must have to run the kernel.
    pub(crate) isa: Isa,
}

impl Registered for Kernel {
    fn isa(&self) -> Isa {
        self.isa
    }
}

/// A UTF-16 unit a kernel writes: into a `Vec`'s spare capacity, so the
/// output is not zeroed first.
pub(crate) type Unit = core::mem::MaybeUninit<u16>;

impl Kernel {
    /// Converts through this kernel into initialised units, if the CPU
    /// can run it.
    pub(crate) fn to_utf16(
        &self,
        table: &[u16; 256],
        src: &[u8],
        dst: &mut [u16],
    ) -> Option<usize> {
        // SAFETY: `MaybeUninit<u16>` has the layout of `u16`, and the
        // kernels write only initialised units (never uninit) into it.
        let dst = unsafe { &mut *(core::ptr::from_mut(dst) as *mut [Unit]) };
        self.to_utf16_uninit(table, src, dst)
    }

    /// Converts through this kernel, if the CPU can run it: `dst[..n]` is
    /// then initialised.
    pub(crate) fn to_utf16_uninit(
        &self,
        table: &[u16; 256],
        src: &[u8],
        dst: &mut [Unit],
    ) -> Option<usize> {
        if !self.isa.is_available() {
            return None;
        }
        // SAFETY: the CPU has the kernel's features: checked just above.
        Some(unsafe { (self.to_utf16)(table, src, dst) })
    }
}

/// The reference: one table look-up per byte.
pub(crate) static SCALAR: Kernel = Kernel {
    name: "scalar",
    to_utf16: scalar_to_utf16,
    isa: Isa::PORTABLE,
};

/// Every kernel, the scalar one last.
pub(crate) const ALL: &[&Kernel] = &[
    #[cfg(target_arch = "x86_64")]
    &x86_64::VBMI,
    #[cfg(target_arch = "x86_64")]
    &x86_64::AVX2,
    #[cfg(target_arch = "x86_64")]
    &x86_64::SSSE3,
    #[cfg(target_arch = "aarch64")]
    &aarch64::NEON,
    &SCALAR,
];

/// `unsafe` only to fit the kernel type: it needs no CPU feature.
unsafe fn scalar_to_utf16(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
    let mut n = 0;
    for (d, &b) in dst.iter_mut().zip(src) {
        let u = table[usize::from(b)];
        if u == crate::single_byte::UNDEFINED {
            break;
        }
        d.write(u);
        n += 1;
    }
    n
}

/// Bytes decoded to UTF-8 per call of the fused kernel: its output
/// reservation (three bytes a byte) stays small and in cache.
const UTF8_CHUNK: usize = 16 * 1024;

/// Decodes `src` straight to UTF-8, appending to `dst`, where the CPU has
/// a fused kernel (AVX-512 VBMI, else AVX2): `Some(n)` with `n` the length of the prefix
/// without an undefined byte (all of it, or `src[n]` is undefined);
/// `None` leaves the work to the two-pass path.
pub(crate) fn decode_to_utf8(table: &[u16; 256], src: &[u8], dst: &mut String) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if x86_64::utf8_available() {
        let vbmi = x86_64::vbmi_available();
        let mut i = 0;
        // Two bytes a byte, the most of a page without characters from
        // U+0800; a chunk that needs more asks again below.
        let mut per_byte = 2;
        while i < src.len() {
            let chunk = &src[i..src.len().min(i + UTF8_CHUNK)];
            // SAFETY: the bytes appended below are the kernel's output,
            // which it initialised and which is valid UTF-8 (its contract,
            // tested against the scalar reference); nothing else is
            // changed.
            let bytes = unsafe { dst.as_mut_vec() };
            bytes.reserve(per_byte * chunk.len() + 192);
            let start = bytes.len();
            let spare = bytes.spare_capacity_mut();
            let (read, written) = if vbmi {
                // SAFETY: the CPU has the features: checked above.
                unsafe { x86_64::to_utf8_vbmi(table, chunk, spare) }
            } else {
                // SAFETY: the CPU has AVX2: checked above.
                unsafe { x86_64::to_utf8_avx2(table, chunk, spare) }
            };
            // SAFETY: the kernel initialised `written` bytes of the spare
            // capacity, within it.
            unsafe { bytes.set_len(start + written) };
            i += read;
            if read < chunk.len() {
                if table[usize::from(src[i])] == crate::single_byte::UNDEFINED {
                    return Some(i);
                }
                // Out of room (characters of three bytes): with three
                // bytes a byte reserved, only an undefined byte stops it.
                per_byte = 3;
            }
        }
        return Some(i);
    }
    let _ = (table, src, dst);
    None
}

/// Decodes the longest prefix of `src` without an undefined byte to
/// UTF-16 through the best kernel, appending to `dst`; returns its length.
/// The kernel writes into the spare capacity, a cache-sized chunk at a
/// time.
pub(crate) fn decode_to_utf16(table: &[u16; 256], src: &[u8], dst: &mut Vec<u16>) -> usize {
    let k = chosen();
    let mut i = 0;
    while i < src.len() {
        let chunk = &src[i..src.len().min(i + UTF8_CHUNK)];
        let start = dst.len();
        dst.reserve(chunk.len());
        let out = &mut dst.spare_capacity_mut()[..chunk.len()];
        let n = match k.to_utf16_uninit(table, chunk, out) {
            Some(n) => n,
            None => SCALAR.to_utf16_uninit(table, chunk, out).unwrap_or(0),
        };
        // SAFETY: the kernel initialised the first `n` units of the spare
        // capacity (its contract), within it.
        unsafe { dst.set_len(start + n) };
        i += n;
        if n < chunk.len() {
            break;
        }
    }
    i
}

/// A dense encoder: UTF-8 `src[i..]` into `dst[w..]` through a page's
/// dense table (see `single_byte::SingleByte::dense`) while it can;
/// returns the new `(i, w)`, where the caller's exact path takes over.
pub(crate) type DenseFn = fn(&[u8; 0x800], &[u8], &mut [u8], usize, usize) -> (usize, usize);

/// The dense encoders this CPU runs for a page (`ascii`: ASCII-compatible),
/// best first, named (the tests run each).
#[cfg(test)]
pub(crate) fn dense_encoders(ascii: bool) -> Vec<(&'static str, DenseFn)> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut all: Vec<(&'static str, DenseFn)> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if x86_64::vbmi_available() {
            all.push(("avx512vbmi", |dense, src, dst, i, w| {
                // SAFETY: the CPU has the features: checked when listed.
                unsafe { x86_64::encode_vbmi(dense, src, dst, i, w) }
            }));
        }
        if ascii && x86_64::utf8_available() {
            all.push(("avx2", |dense, src, dst, i, w| {
                // SAFETY: the CPU has AVX2: checked when listed.
                unsafe { x86_64::encode_avx2(dense, src, dst, i, w) }
            }));
        }
    }
    let _ = ascii;
    all
}

/// The best dense encoder for the page, if the CPU has one (AVX-512
/// VBMI; AVX2 for an ASCII-compatible page).
pub(crate) fn encode_dense(ascii: bool) -> Option<DenseFn> {
    #[cfg(target_arch = "x86_64")]
    {
        if x86_64::vbmi_available() {
            return Some(|dense, src, dst, i, w| {
                // SAFETY: the CPU has the features: checked just above.
                unsafe { x86_64::encode_vbmi(dense, src, dst, i, w) }
            });
        }
        if ascii && x86_64::utf8_available() {
            return Some(|dense, src, dst, i, w| {
                // SAFETY: the CPU has AVX2: checked just above.
                unsafe { x86_64::encode_avx2(dense, src, dst, i, w) }
            });
        }
    }
    let _ = ascii;
    None
}

static CHOSEN: Dispatch<Kernel> = Dispatch::new_refs(ALL);

/// The best kernel this CPU runs, chosen once.
pub(crate) fn chosen() -> &'static Kernel {
    CHOSEN.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each fused UTF-8 kernel the CPU runs against the scalar reference
    /// (`char` by `char`) on every table, at every length to 300 and some
    /// long ones, on random bytes (stopping at the first undefined one)
    /// and on defined bytes only.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn utf8_kernels_equal_scalar() {
        type Fused =
            unsafe fn(&[u16; 256], &[u8], &mut [core::mem::MaybeUninit<u8>]) -> (usize, usize);
        let mut kernels: Vec<(&str, Fused)> = Vec::new();
        if x86_64::utf8_available() {
            kernels.push(("avx2", x86_64::to_utf8_avx2));
        }
        if x86_64::vbmi_available() {
            kernels.push(("vbmi", x86_64::to_utf8_vbmi));
        }
        let mut seed = 0x0F05_ED00_7777_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for page in crate::single_byte::all_pages() {
            let table = page.table;
            let defined: Vec<u8> = (0..=255u8)
                .filter(|&b| table[usize::from(b)] != 0xFFFF)
                .collect();
            for len in (0..=300).chain([1000, 4096]) {
                for round in 0..3 {
                    let src: Vec<u8> = (0..len)
                        .map(|_| match round {
                            0 => next() as u8,
                            1 => defined[next() as usize % defined.len()],
                            _ if next() % 4 == 0 => defined[next() as usize % defined.len()],
                            _ => next() as u8 & 0x7F,
                        })
                        .collect();
                    let mut want = String::new();
                    let mut read = 0;
                    for &b in &src {
                        match page.decode_byte(b) {
                            Some(c) => want.push(c),
                            None => break,
                        }
                        read += 1;
                    }
                    for &(name, k) in &kernels {
                        let mut out = vec![core::mem::MaybeUninit::new(0xAAu8); 3 * len + 96];
                        // SAFETY: the CPU has the kernel's features: checked
                        // when it was listed.
                        let (r, w) = unsafe { k(table, &src, &mut out) };
                        // SAFETY: every byte of `out` was initialised above.
                        let got: Vec<u8> = out[..w]
                            .iter()
                            .map(|b| unsafe { b.assume_init() })
                            .collect();
                        assert_eq!(
                            (r, got.as_slice()),
                            (read, want.as_bytes()),
                            "{name} {src:02X?}"
                        );
                    }
                }
            }
        }
    }

    /// Every kernel against the scalar one, on every table, at every
    /// length up to 70 and every undefined byte position.
    #[test]
    fn kernels_equal_scalar() {
        let all_tables: Vec<&[u16; 256]> = crate::single_byte::all_pages()
            .iter()
            .map(|p| p.table)
            .collect();
        let mut seed = 0x1234_5678_9ABC_DEF0_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for k in ALL {
            if !k.isa.is_available() {
                eprintln!("note: this CPU cannot run the {} kernel", k.name);
                continue;
            }
            for table in &all_tables {
                for len in 0..70 {
                    for _ in 0..8 {
                        let src: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                        let mut a = vec![0xAAAA; len + 3];
                        let mut b = vec![0xAAAA; len + 3];
                        let n = k.to_utf16(table, &src, &mut a[..len]);
                        let m = SCALAR.to_utf16(table, &src, &mut b[..len]);
                        assert_eq!(n, m, "{} {src:02X?}", k.name);
                        // Nothing past what it reports, nothing past dst.
                        assert_eq!(a[..], b[..], "{}", k.name);
                    }
                    // All bytes defined: the whole input.
                    let defined: Vec<u8> = (0..=255u8)
                        .filter(|&b| table[usize::from(b)] != 0xFFFF)
                        .collect();
                    let src: Vec<u8> = (0..len)
                        .map(|_| defined[next() as usize % defined.len()])
                        .collect();
                    let mut a = vec![0; len];
                    assert_eq!(k.to_utf16(table, &src, &mut a), Some(len));
                    let expected: Vec<u16> = src.iter().map(|&b| table[usize::from(b)]).collect();
                    assert_eq!(a, expected, "{}", k.name);
                }
                // A shorter dst than src.
                let src = [0x41u8; 40];
                let mut a = [0u16; 17];
                assert_eq!(
                    k.to_utf16(table, &src, &mut a),
                    SCALAR.to_utf16(table, &src, &mut [0u16; 17])
                );
            }
        }
    }
}
