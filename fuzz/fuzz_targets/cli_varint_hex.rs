//! The command-line tool's varint hex parsing (`codec varint decode <HEX>`),
//! through the library functions the binary calls: `hex::parse` never
//! panics and round-trips through `hex::format`; `varints::decode_hex`
//! (unsigned 64-bit) agrees with `varint::decode` / `decode_strict` on the
//! parsed bytes, including the good values it reports before an error.
#![no_main]

use codec_cli::{hex, varints};
use fuzz::same;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    // Any text, not only hex-looking text: the argument comes from a user.
    let text = String::from_utf8_lossy(rest);
    let strict = flags & 1 != 0;
    let all = flags & 2 != 0;
    let parsed = hex::parse(&text);
    let codec = varints::LebCodec::<varints::Leb<u64>>::default();
    let decoded = varints::decode_hex(&codec, &text, strict, all);
    let Ok(bytes) = parsed else {
        assert!(
            decoded.is_err(),
            "decode_hex accepted what hex::parse refused: {text:?}"
        );
        return;
    };
    same(
        "hex round trip",
        rest,
        hex::parse(&hex::format(&bytes)).ok(),
        Some(bytes.clone()),
    );
    // The reference: one varint filling the bytes, or a sequence of them;
    // the values decoded, and whether the whole input was.
    let decode = |b: &[u8]| {
        if strict {
            varint::decode_strict::<u64>(b)
        } else {
            varint::decode::<u64>(b)
        }
    };
    let want = if all {
        let mut out = Vec::new();
        let mut at = 0;
        loop {
            if at == bytes.len() {
                break (out, true);
            }
            match decode(&bytes[at..]) {
                Ok((v, n)) => {
                    out.push(v);
                    at += n;
                }
                Err(_) => break (out, false),
            }
        }
    } else {
        match decode(&bytes) {
            Ok((v, n)) if n == bytes.len() => (vec![v], true),
            _ => (Vec::new(), false),
        }
    };
    let want = (want.0.iter().map(u64::to_string).collect::<Vec<_>>(), want.1);
    let got = match decoded {
        Ok(values) => (values, true),
        Err((values, _)) => (values, false),
    };
    same("varints::decode_hex", rest, got, want);
});
