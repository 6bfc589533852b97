//! The shuffle tables of the Stream VByte and Group Varint kernels, built
//! at compile time by the `const fn`s below (no generated file): for each
//! of the 256 control bytes, the `pshufb`/`tbl` pattern that moves the four
//! values' bytes between their packed form and four `u32` lanes, and the
//! number of data bytes the four values take.
//!
//! A control byte holds four 2-bit codes, the first value's in the low
//! bits. In the standard layout code `c` means `c + 1` bytes; in the `0124`
//! layout codes 0–3 mean 0, 1, 2 and 4 bytes.

/// The byte length of each 2-bit code.
pub(crate) const fn code_lengths(zero124: bool) -> [u8; 4] {
    if zero124 { [0, 1, 2, 4] } else { [1, 2, 3, 4] }
}

/// Index bytes with the top bit set select zero in `pshufb` and in NEON's
/// `tbl` (any index of 16 or more does there).
const ZERO: u8 = 0x80;

/// Decoding: lane `i`'s bytes `0..len_i` come from the packed bytes at the
/// lane's offset, the others are zero.
const fn decode_table(zero124: bool) -> [[u8; 16]; 256] {
    let lens = code_lengths(zero124);
    let mut table = [[ZERO; 16]; 256];
    let mut c = 0;
    while c < 256 {
        let mut offset = 0u8;
        let mut lane = 0;
        while lane < 4 {
            let len = lens[(c >> (2 * lane)) & 3];
            let mut k = 0;
            while k < len {
                table[c][4 * lane + k as usize] = offset + k;
                k += 1;
            }
            offset += len;
            lane += 1;
        }
        c += 1;
    }
    table
}

/// Encoding: the packed bytes take lane `i`'s low `len_i` bytes, one lane
/// after the other; the bytes after the last are zero (and are overwritten
/// by the next group, or never written: see the kernels).
const fn encode_table(zero124: bool) -> [[u8; 16]; 256] {
    let lens = code_lengths(zero124);
    let mut table = [[ZERO; 16]; 256];
    let mut c = 0;
    while c < 256 {
        let mut offset = 0usize;
        let mut lane = 0;
        while lane < 4 {
            let len = lens[(c >> (2 * lane)) & 3];
            let mut k = 0;
            while k < len {
                table[c][offset + k as usize] = (4 * lane) as u8 + k;
                k += 1;
            }
            offset += len as usize;
            lane += 1;
        }
        c += 1;
    }
    table
}

/// The data bytes of the four values of each control byte.
const fn length_table(zero124: bool) -> [u8; 256] {
    let lens = code_lengths(zero124);
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        table[c] = lens[c & 3] + lens[(c >> 2) & 3] + lens[(c >> 4) & 3] + lens[c >> 6];
        c += 1;
    }
    table
}

/// Decoding shuffles, standard layout (1–4 bytes).
pub(crate) static DECODE_1234: [[u8; 16]; 256] = decode_table(false);
/// Decoding shuffles, `0124` layout.
pub(crate) static DECODE_0124: [[u8; 16]; 256] = decode_table(true);
/// Encoding shuffles, standard layout.
pub(crate) static ENCODE_1234: [[u8; 16]; 256] = encode_table(false);
/// Data bytes per control byte, standard layout.
pub(crate) static LEN_1234: [u8; 256] = length_table(false);
/// Data bytes per control byte, `0124` layout.
pub(crate) static LEN_0124: [u8; 256] = length_table(true);

/// The standard layout's codes of two lanes (bits 0–1 and 2–3) from their
/// zero-byte flags (bits 0–3 and 4–7): the index of a lane's highest
/// non-zero byte, 0 for zero.
pub(crate) static CODES: [u8; 256] = {
    const fn code(zero: usize) -> u8 {
        let nonzero = !zero & 0xF;
        if nonzero == 0 {
            0
        } else {
            (31 - (nonzero as u32).leading_zeros()) as u8
        }
    }
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = code(x & 0xF) | code(x >> 4) << 2;
        x += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    /// Each table against a plain packing of four values of the code's
    /// lengths, for every control byte.
    #[test]
    fn tables_move_the_bytes_of_every_control_byte() {
        for zero124 in [false, true] {
            let lens = code_lengths(zero124);
            let (dec, enc, total) = if zero124 {
                (&DECODE_0124, &encode_table(true), &LEN_0124)
            } else {
                (&DECODE_1234, &ENCODE_1234, &LEN_1234)
            };
            for c in 0..256usize {
                let lanes: [u32; 4] = [0x0403_0201, 0x1413_1211, 0x2423_2221, 0x3433_3231];
                let mut packed = Vec::new();
                let mut unpacked = [0u32; 4];
                for (i, &v) in lanes.iter().enumerate() {
                    let len = usize::from(lens[(c >> (2 * i)) & 3]);
                    packed.extend_from_slice(&v.to_le_bytes()[..len]);
                    unpacked[i] = if len == 4 {
                        v
                    } else {
                        v & ((1 << (8 * len)) - 1)
                    };
                }
                assert_eq!(usize::from(total[c]), packed.len());
                let mut src = [0u8; 16];
                src[..packed.len()].copy_from_slice(&packed);
                let shuffled: Vec<u8> = dec[c]
                    .iter()
                    .map(|&i| {
                        if i & 0x80 != 0 {
                            0
                        } else {
                            src[usize::from(i)]
                        }
                    })
                    .collect();
                let want: Vec<u8> = unpacked.iter().flat_map(|v| v.to_le_bytes()).collect();
                assert_eq!(shuffled, want, "decode {c:#04x}");
                let lane_bytes: Vec<u8> = lanes.iter().flat_map(|v| v.to_le_bytes()).collect();
                let enc: Vec<u8> = enc[c][..packed.len()]
                    .iter()
                    .map(|&i| lane_bytes[usize::from(i)])
                    .collect();
                assert_eq!(enc, packed, "encode {c:#04x}");
            }
        }
    }
}
