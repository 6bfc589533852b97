//! UTF-8 → Latin-1 with VBMI2: 64 bytes a register, validated as they are
//! converted (any bytes may come in, as for every table's kernel).
//!
//! A register converts if every byte is ASCII, a lead `C2` or `C3`, or a
//! continuation byte, each lead followed by a continuation byte and each
//! continuation byte after a lead (or, at byte 0, after the lead that
//! ended the register before). Each character's Latin-1 byte is then made
//! where it ends: an ASCII byte is itself, and a continuation byte `b`
//! after `C2` is `b`, after `C3` `b + 40` (`C3 80..BF` is U+00C0..U+00FF).
//! One masked add makes them, and one `vpcompressb` over the positions
//! that are not leads packs them; a masked store writes exactly that many
//! bytes. The register after always starts a whole register on: a lead in
//! the last byte is carried as a mask bit to the next register's byte 0
//! (whose validation checks its continuation byte), so no load waits for
//! the masks of the register before it. Where the loop stops after such a
//! lead, it has not been converted, and the loop's end is put back on it.
//!
//! Anything else (a character above U+00FF, malformed UTF-8) and the last
//! bytes go to the AVX-512 table's kernel, and from it to the scalar code,
//! which is exact.

use core::arch::x86_64::*;

codec_arch::enable! { avx512vbmi2;
    /// UTF-8 to Latin-1: see the module docs.
    pub(crate) fn utf8_to_latin1(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
        let (n, cap) = (src.len(), dst.len());
        let (p, q) = (src.as_ptr(), dst.as_mut_ptr());
        let (mut i, mut o) = (0, 0);
        // The last register's byte 63 was a lead (then `c3`: it was `C3`).
        let (mut carry, mut c3_carry) = (0u64, 0u64);
        let (c0, c2, c3, fe, x40) = (
            _mm512_set1_epi8(0xC0u8 as i8),
            _mm512_set1_epi8(0xC2u8 as i8),
            _mm512_set1_epi8(0xC3u8 as i8),
            _mm512_set1_epi8(0xFEu8 as i8),
            _mm512_set1_epi8(0x40),
        );
        // A prefix of ASCII four registers at a time (one test, and the loop's
        // own instructions once for four), as the AVX-512 table's kernel does:
        // a register at a time, 1 KiB of ASCII took a quarter longer. Only
        // before the first other register: tested before every register, the
        // test failing on the Latin-1 text cost it 20%, and only after ASCII
        // registers, still 9%.
        while n - i >= 256 && cap - o >= 256 {
            // SAFETY: bytes `i..i + 256` are inside `src`, and `o + 256 <= cap`.
            if let super::Ascii4::Not(_) = unsafe { super::copy_ascii4(p.add(i), q.add(o)) } {
                break;
            }
            i += 256;
            o += 256;
        }
        while n - i >= 64 && cap - o >= 64 {
            // SAFETY: bytes `i..i + 64` are inside `src`.
            let x = unsafe { _mm512_loadu_si512(p.add(i).cast()) };
            let high = _mm512_movepi8_mask(x);
            // (After a carried lead, byte 0 must be its continuation byte: the
            // test below fails an ASCII register then.)
            if high | carry == 0 {
                // SAFETY: `o + 64 <= cap`.
                unsafe { _mm512_storeu_si512(q.add(o).cast(), x) };
                i += 64;
                o += 64;
                continue;
            }
            // Continuation bytes: 80..=BF, signed below C0.
            let cont = _mm512_cmplt_epi8_mask(x, c0);
            let lead = _mm512_cmpeq_epi8_mask(_mm512_and_si512(x, fe), c2);
            if high != cont | lead || cont != (lead << 1 | carry) {
                break;
            }
            let is_c3 = _mm512_cmpeq_epi8_mask(x, c3);
            let after_c3 = is_c3 << 1 | c3_carry;
            let bytes = _mm512_mask_add_epi8(x, after_c3, x, x40);
            let packed = _mm512_maskz_compress_epi8(!lead, bytes);
            let w = (!lead).count_ones() as usize;
            // SAFETY: `o + w <= o + 64 <= cap`; the features are this
            // function's.
            unsafe { super::store_packed(q.add(o), packed, w, false) };
            i += 64;
            o += w;
            carry = lead >> 63;
            c3_carry = is_c3 >> 63;
        }
        // A carried lead is not converted: the rest starts at it.
        i -= carry as usize;
        let left = n - i;
        if carry == 0 && left > 0 && left < 64 && n >= 64 && cap - o >= left {
            // An ASCII tail (the end of most text): the last 64 bytes, if all
            // ASCII, stored so that they end at the output's end. The bytes
            // before `i` among them are ASCII, so each was converted to itself
            // and they are the output's last `64 - left` bytes: stored again
            // as they are. Handing the tail to the AVX-512 kernel took 1 KiB
            // of ASCII-only text (the Latin-1 views of non-Latin scripts) to
            // 0.50-0.64 of simdutf's AVX-512 kernel.
            // SAFETY: bytes `n - 64..n` are inside `src`; the store writes
            // `o + left - 64..o + left`: `o + left <= cap`, and `o >= 64 -
            // left` as the output holds those ASCII bytes.
            unsafe {
                let x = _mm512_loadu_si512(p.add(n - 64).cast());
                if _mm512_movepi8_mask(x) == 0 {
                    _mm512_storeu_si512(q.add(o + left - 64).cast(), x);
                    return (n, o + left);
                }
            }
        }
        let (Some(rest), Some(out)) = (src.get(i..), dst.get_mut(o..)) else {
            return (i, o);
        };
        // A safe call: this function has the AVX-512 kernel's features.
        let (r, w) = super::super::avx512::latin1::utf8_to_latin1(rest, out);
        (i + r, o + w)
    }
}
