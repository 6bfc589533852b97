//! Shuffle tables shared by the x86-64 and NEON kernels, computed at
//! compile time (each by a `const fn` beside it, so there is nothing to
//! regenerate). Each row is a `pshufb` control and, unchanged, a NEON `tbl`
//! control: `pshufb` zeroes a lane whose index has the high bit set, `tbl`
//! one whose index is 16 or more, and the unused entries are 0x80 for both.
//! The tables only the x86-64 kernels use are compiled only there.

/// `PACK16[m]` is a `pshufb` control that left-packs the 16-bit lanes of a
/// 16-byte register selected by the bits of `m`: the lane of the `k`-th set
/// bit goes to lane `k`; the remaining lanes are zeroed. 4 KiB.
///
/// The UTF-8 → UTF-16 kernels decode a character at every byte position and
/// keep the lanes of the positions where a character starts.
pub(crate) static PACK16: [[u8; 16]; 256] = pack16();

const fn pack16() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut k) = (0, 0);
        while lane < 8 {
            if m & (1 << lane) != 0 {
                t[m][2 * k] = 2 * lane as u8;
                t[m][2 * k + 1] = 2 * lane as u8 + 1;
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
}

/// `PACK12[m]` is a `pshufb` control that writes the UTF-8 of 8 units below
/// U+0800 held as 2-byte pairs (lead byte, then continuation byte) in a
/// 16-byte register: it keeps the first byte of every pair, and the second
/// only where bit `i` of `m` says unit `i` needs two bytes. The output is
/// `8 + popcount(m)` bytes. 4 KiB.
pub(crate) static PACK12: [[u8; 16]; 256] = pack12();

const fn pack12() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut k) = (0, 0);
        while lane < 8 {
            t[m][k] = 2 * lane as u8;
            k += 1;
            if m & (1 << lane) != 0 {
                t[m][k] = 2 * lane as u8 + 1;
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
}

/// `PACK123[m]`: a `pshufb` control that writes the UTF-8 of 4 characters
/// held as up to 4 bytes in each 32-bit lane (lead byte first), keeping the
/// first `c + 1` bytes of lane `i`, where `c` is bits `2i..2i + 2` of `m`
/// (0 to 3: the character needs 1 to 4 bytes; the UTF-16 kernels, whose
/// units need at most 3, never use 3). 4 KiB; [`LEN123`] has the output
/// lengths.
pub(crate) static PACK123: [[u8; 16]; 256] = pack123().0;

/// The number of bytes [`PACK123`]`[m]` keeps.
pub(crate) static LEN123: [u8; 256] = pack123().1;

const fn pack123() -> ([[u8; 16]; 256], [u8; 256]) {
    let mut t = [[0x80u8; 16]; 256];
    let mut len = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut k) = (0, 0);
        while lane < 4 {
            let bytes = ((m >> (2 * lane)) & 3) + 1;
            let mut b = 0;
            while b < bytes {
                t[m][k] = (4 * lane + b) as u8;
                k += 1;
                b += 1;
            }
            lane += 1;
        }
        len[m] = k as u8;
        m += 1;
    }
    (t, len)
}

// `PACK8` and `PACK32X4` live with the `Simd` trait that uses them.
pub(crate) use codec_arch::tables::PACK8;

/// `PAIRS16[m]` is a `pshufb` control that writes the UTF-16 held in the
/// four 32-bit lanes of a 16-byte register (a unit in the low half, and a
/// trail surrogate in the high half where bit `i` of `m` says lane `i`
/// holds a pair): it keeps the low half of every lane and the high half of
/// the pairs, in order. The output is `4 + popcount(m)` units. The rows of
/// [`PACK16`] that UTF-32 → UTF-16 uses, indexed without spreading `m`.
pub(crate) static PAIRS16: [[u8; 16]; 16] = {
    let all = pack16();
    let mut t = [[0u8; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let mut keep = 0x55;
        let mut i = 0;
        while i < 4 {
            if m & (1 << i) != 0 {
                keep |= 2 << (2 * i);
            }
            i += 1;
        }
        t[m] = all[keep];
        m += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs16_keeps_every_unit_and_the_trails() {
        for (m, row) in PAIRS16.iter().enumerate() {
            let want: std::vec::Vec<u8> = (0..4u8)
                .flat_map(|l| {
                    let pair = m & (1 << l) != 0;
                    [
                        Some(4 * l),
                        Some(4 * l + 1),
                        pair.then_some(4 * l + 2),
                        pair.then_some(4 * l + 3),
                    ]
                })
                .flatten()
                .collect();
            assert_eq!(&row[..want.len()], &want[..], "{m:04b}");
            assert!(row[want.len()..].iter().all(|&b| b == 0x80), "{m:04b}");
        }
    }

    #[test]
    fn pack16_moves_the_selected_lanes_in_order() {
        for (m, row) in PACK16.iter().enumerate() {
            let lanes: std::vec::Vec<usize> = (0..8).filter(|l| m & (1 << l) != 0).collect();
            for (k, &l) in lanes.iter().enumerate() {
                assert_eq!(row[2 * k], 2 * l as u8);
                assert_eq!(row[2 * k + 1], 2 * l as u8 + 1);
            }
            assert!(row[2 * lanes.len()..].iter().all(|&b| b == 0x80));
        }
    }

    #[test]
    fn pack12_and_pack123_keep_the_lead_and_needed_bytes() {
        for m in 0..256usize {
            let want: std::vec::Vec<u8> = (0..8u8)
                .flat_map(|l| {
                    let two = m & (1 << l) != 0;
                    [Some(2 * l), two.then_some(2 * l + 1)]
                })
                .flatten()
                .collect();
            assert_eq!(&PACK12[m][..want.len()], &want[..], "{m:08b}");
            assert!(PACK12[m][want.len()..].iter().all(|&b| b == 0x80));
            let want: std::vec::Vec<u8> = (0..4u8)
                .flat_map(|l| {
                    let c = ((m >> (2 * l)) & 3) as u8;
                    (0..=c).map(move |b| 4 * l + b)
                })
                .collect();
            assert_eq!(usize::from(LEN123[m]), want.len(), "{m:08b}");
            assert_eq!(&PACK123[m][..want.len()], &want[..], "{m:08b}");
        }
    }
}
