//! Encoding: every scalar value as `char::encode_utf8` writes it, range
//! errors, short buffers, and `encoded_len`.

use utf8_table::{
    BufferTooSmall, EncodeError, Legacy, Strict, decode, encode, encode_char, encoded_len,
};

const POISON: u8 = 0xA5;

#[test]
fn every_scalar_value_round_trips_and_matches_std() {
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let v = u32::from(c);
        let mut want = [0u8; 4];
        let want = c.encode_utf8(&mut want).as_bytes();
        let n = want.len();
        assert_eq!(encoded_len::<Strict>(v), Some(n));
        assert_eq!(encoded_len::<Legacy>(v), Some(n));

        let mut buf = [POISON; 8];
        assert_eq!(encode::<Strict>(v, &mut buf), Ok(n), "U+{v:04X}");
        assert_eq!(&buf[..n], want, "U+{v:04X}");
        assert!(buf[n..].iter().all(|&b| b == POISON), "wrote past the end");
        assert_eq!(decode::<Strict>(&buf[..n]), Ok((v, n)));

        let mut buf = [POISON; 8];
        assert_eq!(encode::<Legacy>(v, &mut buf), Ok(n));
        assert_eq!(&buf[..n], want);
        assert!(buf[n..].iter().all(|&b| b == POISON));
        assert_eq!(decode::<Legacy>(&buf[..n]), Ok((v, n)));

        let mut buf = [POISON; 8];
        assert_eq!(encode_char(c, &mut buf), Ok(n));
        assert_eq!(&buf[..n], want);
        assert!(buf[n..].iter().all(|&b| b == POISON));
    }
}

#[test]
fn short_buffers_are_errors_and_untouched() {
    for c in [
        '\0',
        'a',
        '\u{7F}',
        '\u{80}',
        'é',
        '\u{7FF}',
        '\u{800}',
        '吕',
        '\u{FFFF}',
        '\u{10000}',
        '😀',
        '\u{10FFFF}',
    ] {
        let n = c.len_utf8();
        for len in 0..n {
            let mut buf = [POISON; 4];
            let want = BufferTooSmall::new(n, len);
            assert_eq!(encode_char(c, &mut buf[..len]), Err(want));
            assert_eq!(
                encode::<Strict>(u32::from(c), &mut buf[..len]),
                Err(EncodeError::BufferTooSmall(want))
            );
            assert_eq!(
                encode::<Legacy>(u32::from(c), &mut buf[..len]),
                Err(EncodeError::BufferTooSmall(want))
            );
            assert_eq!(buf, [POISON; 4]);
        }
    }
    let mut buf = [POISON; 5];
    assert_eq!(
        encode::<Legacy>(0x7FFF_FFFF, &mut buf),
        Err(EncodeError::BufferTooSmall(BufferTooSmall::new(6, 5)))
    );
    assert_eq!(buf, [POISON; 5]);
}

#[test]
fn strict_range_errors() {
    let mut buf = [POISON; 8];
    for v in 0xD800..=0xDFFF {
        assert_eq!(
            encode::<Strict>(v, &mut buf),
            Err(EncodeError::Surrogate(v))
        );
        assert_eq!(encoded_len::<Strict>(v), None);
    }
    for v in [
        0x11_0000,
        0x11_0001,
        0x1F_FFFF,
        0x20_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        u32::MAX,
    ] {
        assert_eq!(encode::<Strict>(v, &mut buf), Err(EncodeError::TooLarge(v)));
        assert_eq!(encoded_len::<Strict>(v), None);
    }
    // A sample of everything above U+10FFFF.
    for v in (0x11_0000..=u32::MAX).step_by(65_537) {
        assert_eq!(encode::<Strict>(v, &mut buf), Err(EncodeError::TooLarge(v)));
    }
    assert_eq!(buf, [POISON; 8]);
}

#[test]
fn legacy_range_errors() {
    let mut buf = [POISON; 8];
    for v in (0x8000_0000..=u32::MAX)
        .step_by(65_537)
        .chain([0x8000_0000, u32::MAX])
    {
        assert_eq!(encode::<Legacy>(v, &mut buf), Err(EncodeError::TooLarge(v)));
        assert_eq!(encoded_len::<Legacy>(v), None);
    }
    assert_eq!(buf, [POISON; 8]);
}

/// Go's `RuneLen` / `ValidRune` vectors (testdata/conformance/go_utf8_runes.tsv,
/// BSD-3-Clause, provenance in that folder's README).
#[test]
fn go_rune_vectors() {
    let tsv = include_str!("../../../../testdata/conformance/go_utf8_runes.tsv");
    let mut rows = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let v = match cols[1] {
            "-1" => u32::MAX, // Go's -1 as a u32
            hex => u32::from_str_radix(hex, 16).unwrap(),
        };
        let valid = cols[3] == "1";
        assert_eq!(encoded_len::<Strict>(v).is_some(), valid, "{line}");
        if let Ok(len) = cols[2].parse::<i32>() {
            assert_eq!(
                encoded_len::<Strict>(v),
                usize::try_from(len).ok(),
                "{line}"
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 12);
}

#[test]
fn errors_display() {
    assert_eq!(
        EncodeError::Surrogate(0xD800).to_string(),
        "cannot encode surrogate U+D800"
    );
    assert_eq!(
        EncodeError::BufferTooSmall(BufferTooSmall::new(3, 1)).to_string(),
        "output buffer too small: need 3 bytes, have 1"
    );
}
