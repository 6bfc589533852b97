//! A tour of the codecs: validate some inputs with every UTF-8 validator, and
//! round-trip a few varints.
//!
//! `cargo run --release -p codec-facade --example tour`

use codec_facade::{Utf8Validator, utf8_dfa, utf8_simd, utf8_table, varint, zigzag};

fn main() {
    let inputs: [(&str, &[u8]); 5] = [
        ("ascii", b"hello, world"),
        ("Chinese", "吕 U+5415".as_bytes()),
        ("surrogate", b"caf\xC3\xA9 \xED\xA0\x80"),
        ("overlong", b"\xC0\xAF"),
        ("truncated", b"euro \xE2\x82"),
    ];
    let validators: [(&str, &dyn Utf8Validator); 3] = [
        ("utf8-table", &utf8_table::Table),
        ("utf8-dfa", &utf8_dfa::Dfa),
        ("utf8-simd", &utf8_simd::Simd),
    ];
    for (label, input) in inputs {
        for (name, v) in validators {
            match v.validate(input) {
                Ok(()) => println!("{name:>10} {label:>9}: valid"),
                Err(e) => println!("{name:>10} {label:>9}: {e}"),
            }
        }
    }
    let mut buf = [0u8; 10];
    for n in [0i64, -1, 150, -150, i64::MAX, i64::MIN] {
        let len = varint::encode(zigzag::encode(n), &mut buf);
        println!("sint64 {n:>20} -> varint {:02X?}", &buf[..len]);
    }
}
