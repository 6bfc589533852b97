//! The table codec's legacy (31-bit, 1–6 byte) mode: whatever it decodes
//! re-encodes to the same bytes, whatever it encodes decodes back, it accepts
//! everything strict mode accepts, and strict-mode `decode`/`encode` agree
//! with std.
#![no_main]

use fuzz::{same, std_validate};
use libfuzzer_sys::fuzz_target;
use utf8_table::{EncodeError, Legacy, Strict};

fuzz_target!(|data: &[u8]| {
    // Decode then encode: canonical by construction (overlongs rejected).
    match utf8_table::decode::<Legacy>(data) {
        Ok((v, n)) => {
            assert!(v <= 0x7FFF_FFFF && (1..=6).contains(&n) && n <= data.len());
            let mut buf = [0u8; 6];
            same(
                "legacy encode(decode)",
                data,
                utf8_table::encode::<Legacy>(v, &mut buf),
                Ok(n),
            );
            same("legacy encode(decode) bytes", data, &buf[..n], &data[..n]);
            same(
                "legacy encoded_len",
                data,
                utf8_table::encoded_len::<Legacy>(v),
                Some(n),
            );
        }
        Err(e) => {
            same("legacy decode error position", data, e.valid_up_to(), 0);
            if e.error_len().is_none() {
                assert!(
                    data.len() < 6,
                    "legacy: 'need more' on {} bytes {data:02X?}",
                    data.len()
                );
            }
        }
    }

    // The whole buffer: validate_as::<Legacy> equals walking decode, and is
    // a superset of strict mode.
    let mut at = 0;
    let walked = loop {
        if at == data.len() {
            break Ok(());
        }
        match utf8_table::decode::<Legacy>(&data[at..]) {
            Ok((_, n)) => at += n,
            Err(e) => break Err((at, e.error_len())),
        }
    };
    let whole =
        utf8_table::validate_as::<Legacy>(data).map_err(|e| (e.valid_up_to(), e.error_len()));
    same(
        "validate_as::<Legacy> vs walking decode",
        data,
        whole,
        walked,
    );
    if std_validate(data).is_ok() {
        same("legacy accepts valid UTF-8", data, whole, Ok(()));
    }
    let points: Vec<u32> = utf8_table::code_points::<Legacy>(data)
        .map_while(Result::ok)
        .collect();
    let mut expect = Vec::new();
    let mut at = 0;
    while let Ok((v, n)) = utf8_table::decode::<Legacy>(&data[at..]) {
        expect.push(v);
        at += n;
    }
    same("code_points::<Legacy>", data, points, expect);

    // Encode then decode, for a value the fuzzer picks.
    let mut word = [0u8; 4];
    let k = data.len().min(4);
    word[..k].copy_from_slice(&data[..k]);
    let v = u32::from_le_bytes(word);
    let mut buf = [0u8; 6];
    match utf8_table::encode::<Legacy>(v, &mut buf) {
        Ok(n) => {
            assert!(v <= 0x7FFF_FFFF, "legacy encoded 0x{v:X}");
            same(
                "legacy decode(encode)",
                data,
                utf8_table::decode::<Legacy>(&buf[..n]),
                Ok((v, n)),
            );
        }
        Err(e) => same("legacy encode error", data, e, EncodeError::TooLarge(v)),
    }
    let mut sbuf = [0u8; 4];
    match (
        utf8_table::encode::<Strict>(v, &mut sbuf),
        char::from_u32(v),
    ) {
        (Ok(n), Some(c)) => {
            same(
                "strict encode",
                data,
                &sbuf[..n],
                c.encode_utf8(&mut [0; 4]).as_bytes(),
            );
        }
        (Err(_), None) => {}
        (got, c) => panic!("strict encode of 0x{v:X}: {got:?}, but char::from_u32 gives {c:?}"),
    }
    // A buffer one byte short is an error, never a panic or a partial write.
    if let Some(n) = utf8_table::encoded_len::<Legacy>(v) {
        let mut short = [0u8; 6];
        assert!(utf8_table::encode::<Legacy>(v, &mut short[..n - 1]).is_err());
        assert_eq!(short, [0; 6], "a failed encode wrote bytes");
    }
});
