//! The library paths `codec varint decode` stands on, fuzzed in the
//! library: `varint::formats::decode_single` (one value that must fill the
//! input) and `decode_stream` (`--all`), fed in reads of fuzzer-chosen
//! sizes, agree with `varint::decode` / `decode_strict` on the bytes; and
//! `Explain` reads every failure back into a fault of the same kind,
//! never panicking.
#![no_main]

use std::io::{self, Read};

use fuzz::same;
use libfuzzer_sys::fuzz_target;
use varint::formats::{
    DecodeError, Fault, Format, Leb128, StreamErrorKind, decode_single, decode_stream,
};

/// Hands out at most `step` bytes per read.
struct Chunks<'a> {
    rest: &'a [u8],
    step: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.rest.len().min(buf.len()).min(self.step);
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

type F = Leb128<u64>;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, bytes)) = data.split_first() else {
        return;
    };
    let strict = flags & 1 != 0;
    let step = usize::from(flags >> 1).max(1);
    let reader = || Chunks { rest: bytes, step };
    let decode = |b: &[u8]| {
        if strict {
            varint::decode_strict::<u64>(b)
        } else {
            varint::decode::<u64>(b)
        }
    };

    // A sequence: the values, and where and why it stopped.
    let mut want = Vec::new();
    let mut at = 0;
    let mut stop = None;
    while at < bytes.len() {
        match decode(&bytes[at..]) {
            Ok((v, n)) => {
                want.push(v);
                at += n;
            }
            Err(e) => {
                stop = Some((want.len() as u64, at as u64, e));
                break;
            }
        }
    }
    let mut got = Vec::new();
    let result = decode_stream::<F, _, ()>(reader(), strict, |v| {
        got.push(v);
        Ok(())
    });
    same("decode_stream values", data, &got, &want);
    let got_stop = result.as_ref().err().map(|e| {
        let StreamErrorKind::Decode(d) = e.kind() else {
            panic!("not a decode error: {e:?}");
        };
        check_fault(
            e.bytes(),
            *d,
            &e.fault::<F>().expect("a decode error has a fault"),
        );
        (e.index(), e.offset(), *d)
    });
    same("decode_stream stop", data, got_stop, stop);

    // One value that must fill the input.
    let head = &bytes[..bytes.len().min(10)];
    let want = match decode(head) {
        Ok((v, n)) if n == bytes.len() => Ok((v, n)),
        Ok((_, n)) => Err(Some(n)),
        Err(_) => Err(None),
    };
    let got = match decode_single::<F, _>(reader(), strict) {
        Ok(v) => Ok(v),
        Err(e) => match *e.kind() {
            StreamErrorKind::Trailing { len } => Err(Some(len)),
            StreamErrorKind::Decode(d) => {
                check_fault(
                    e.bytes(),
                    d,
                    &e.fault::<F>().expect("a decode error has a fault"),
                );
                Err(None)
            }
            _ => panic!("decode_single: {e}"),
        },
    };
    same("decode_single", data, got, want);
});

/// The fault's kind is the error's, and its words never panic.
fn check_fault(bytes: &[u8], e: DecodeError, fault: &Fault<u64>) {
    let _ = fault.to_string();
    let ok = match (e, fault) {
        (_, Fault::Empty) => bytes.is_empty(),
        (DecodeError::Truncated, Fault::Continued { len }) => *len == bytes.len(),
        (DecodeError::Overflow, Fault::TooLong { .. } | Fault::LastByte { .. }) => true,
        (DecodeError::NonCanonical, Fault::NonCanonical { value, len, .. }) => {
            F::decode(bytes) == Ok((*value, *len))
        }
        _ => false,
    };
    assert!(ok, "{bytes:02x?}: {e:?} explained as {fault:?}");
}
