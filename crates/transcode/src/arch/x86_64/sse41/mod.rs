//! The SSE4.1 kernels (with SSSE3 and POPCNT), one file per family (see
//! `arch`'s docs), and their table entries.

pub(crate) mod count;
pub(crate) mod latin1;
pub(crate) mod utf32;

codec_arch::enable! { sse41;
    /// The ASCII prefix of any bytes to UTF-32, 16 bytes at a time (four
    /// zero-extensions of 4 bytes each): the table entry.
    pub(crate) fn ascii_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
        use core::arch::x86_64::{
            _mm_cvtepu8_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_srli_si128, _mm_storeu_si128,
        };
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut p = 0;
        while n - p >= 16 {
            // SAFETY: `p + 16 <= n`: 16 bytes read from `src`, 16 units
            // written to `dst`; the CPU has SSE4.1 (this function's features).
            unsafe {
                let v = _mm_loadu_si128(s.add(p).cast());
                if _mm_movemask_epi8(v) != 0 {
                    break;
                }
                let q = d.add(p);
                _mm_storeu_si128(q.cast(), _mm_cvtepu8_epi32(v));
                _mm_storeu_si128(q.add(4).cast(), _mm_cvtepu8_epi32(_mm_srli_si128::<4>(v)));
                _mm_storeu_si128(q.add(8).cast(), _mm_cvtepu8_epi32(_mm_srli_si128::<8>(v)));
                _mm_storeu_si128(q.add(12).cast(), _mm_cvtepu8_epi32(_mm_srli_si128::<12>(v)));
            }
            p += 16;
        }
        (p, p)
    }
}

crate::arch::generic::utf16_utf8::kernels!(x86_64::Sse41, sse41);
crate::arch::generic::utf8_utf16::kernels!(x86_64::Sse41, sse41);
