//! The streaming validators and decoders fed the input in chunks whose sizes
//! the fuzzer chooses: the first error (from `update` or `finish`) must be
//! exactly std's, with absolute offsets; an error must not be reported before
//! the bytes that prove it have been fed; errors are sticky; the decoders
//! emit exactly std's characters (strict) or `from_utf8_lossy`'s (lossy).
#![no_main]

use codec_core::{StreamingValidator, Utf8Error};
use fuzz::{same, split_control, std_validate};
use libfuzzer_sys::fuzz_target;

/// Chunks of `data` with sizes from `control` (cycled; 0 gives an empty
/// chunk, which must be harmless).
fn chunks<'a>(control: &[u8], mut data: &'a [u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while !data.is_empty() {
        let mut want = usize::from(control[i % control.len()]) % 80;
        // One empty chunk at a time: two in a row would be the same test and
        // all-zero control bytes would otherwise never end.
        if want == 0 && out.last().is_some_and(|c: &&[u8]| c.is_empty()) {
            want = 1;
        }
        let (a, b) = data.split_at(want.min(data.len()));
        out.push(a);
        data = b;
        i += 1;
    }
    out
}

/// Feeds the chunks and returns the first error, checking on the way that
/// no error comes early and that errors are sticky.
fn run<S: StreamingValidator>(name: &str, data: &[u8], parts: &[&[u8]]) -> Result<(), Utf8Error> {
    let mut v = S::new();
    let mut fed = 0;
    for part in parts {
        fed += part.len();
        if let Err(e) = v.update(part) {
            // The error must be provable from what was fed: its subpart
            // (and for error_len None, the end of input) must be in view.
            let end = e.valid_up_to() + e.error_len().unwrap_or(usize::MAX - e.valid_up_to());
            if end > fed {
                panic!(
                    "{name}: error {e:?} reported after {fed} of {} bytes on {data:02X?}",
                    data.len()
                );
            }
            same(&format!("{name}: sticky"), data, v.update(b"x"), Err(e));
            return Err(e);
        }
    }
    v.finish()
}

fuzz_target!(|input: &[u8]| {
    let (control, data) = split_control::<8>(input);
    let parts = chunks(&control, data);
    let want = std_validate(data);
    same(
        "utf8_dfa::Validator",
        data,
        run::<utf8_dfa::Validator>("dfa", data, &parts),
        want,
    );
    same(
        "utf8_simd::Validator",
        data,
        run::<utf8_simd::Validator>("simd", data, &parts),
        want,
    );

    // The strict decoder: std's characters up to the error, then the error.
    let valid_up_to = want.err().map_or(data.len(), |e| e.valid_up_to());
    let std_chars: Vec<char> = core::str::from_utf8(&data[..valid_up_to])
        .unwrap_or_default()
        .chars()
        .collect();
    let mut dec = utf8_dfa::Decoder::new();
    let mut got = Vec::new();
    let mut result = Ok(());
    for part in &parts {
        result = dec.decode(part, |c| got.push(c));
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        result = dec.finish();
    }
    same("utf8_dfa::Decoder result", data, result, want);
    same("utf8_dfa::Decoder chars", data, got, std_chars);

    // The lossy decoder, in chunks and through decode_into_string.
    let lossy = String::from_utf8_lossy(data);
    let mut dec = utf8_dfa::LossyDecoder::new();
    let mut got = String::new();
    for part in &parts {
        dec.decode(part, |c| got.push(c));
    }
    dec.finish(|c| got.push(c));
    same("utf8_dfa::LossyDecoder", data, got.as_str(), &*lossy);
    let mut dec = utf8_dfa::LossyDecoder::new();
    let mut got = String::new();
    for part in &parts {
        dec.decode_into_string(part, &mut got);
    }
    dec.finish(|c| got.push(c));
    same(
        "utf8_dfa::LossyDecoder::decode_into_string",
        data,
        got.as_str(),
        &*lossy,
    );
});
