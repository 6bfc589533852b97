//! The left-packing tables of the [`Simd`](crate::Simd) operations that
//! compress lanes, computed at compile time (each by the `const` block
//! beside it, so there is nothing to regenerate). Kernels that pack with
//! `pshufb` themselves use them too.

/// `PACK8[m]` lists, in its low `popcount(m)` bytes, the indices of the set
/// bits of `m` in increasing order (the other bytes are 0). As a `pshufb`
/// control it left-packs the bytes of an 8-byte half-register that `m`
/// selects; zero-extended to 32-bit lanes, it is the `vpermd` control that
/// left-packs the 32-bit lanes of an 8-lane register. 2 KiB.
///
/// The UTF-8 → Latin-1 kernels keep the bytes where a character starts;
/// the AVX2 UTF-8 and UTF-16 → UTF-32 kernels the lanes where one starts.
pub static PACK8: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut k) = (0, 0);
        while lane < 8 {
            if m & (1 << lane) != 0 {
                t[m] |= (lane as u64) << (8 * k);
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
};

/// `PACK32X4[m]` is a `pshufb` control that left-packs the 32-bit lanes of
/// a 16-byte register selected by the bits of `m`; the remaining lanes are
/// zeroed. 256 bytes; the SSE4.1 form of [`PACK8`].
pub static PACK32X4: [[u8; 16]; 16] = {
    let mut t = [[0x80u8; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let (mut lane, mut k) = (0, 0);
        while lane < 4 {
            if m & (1 << lane) != 0 {
                let mut b = 0;
                while b < 4 {
                    t[m][4 * k + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack8_and_pack32x4_move_the_selected_lanes_in_order() {
        for m in 0..256usize {
            let lanes: Vec<u8> = (0..8).filter(|l| m & (1 << l) != 0).collect();
            let bytes = PACK8[m].to_le_bytes();
            assert_eq!(&bytes[..lanes.len()], &lanes[..], "{m:08b}");
            if m < 16 {
                let row = PACK32X4[m];
                for (k, &l) in lanes.iter().enumerate() {
                    assert_eq!(
                        row[4 * k..4 * k + 4],
                        [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3]
                    );
                }
                assert!(row[4 * lanes.len()..].iter().all(|&b| b == 0x80));
            }
        }
    }
}
