//! UTF-7 (RFC 2152) as glibc's iconv reads and writes it.
//!
//! Written: the RFC's directly encoded characters (`A-Z a-z 0-9 ' ( ) , - .
//! / : ?`, space, tab, CR, LF) as themselves, `+` as `+-`, everything else
//! in base64 runs of UTF-16; a run ends with `-` when the next character is
//! a base64 letter or `-`, or the text ends, and implicitly otherwise.
//! Read: the direct and the RFC's optional direct characters
//! (`! " # $ % & * ; < = > @ [ ] ^ _ ` { | }`); `\` and `~` and bytes
//! above 0x7F are errors; a run's leftover bits must be fewer than 6 and
//! zero; surrogates must pair.

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn direct(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"'(),-./:? \t\r\n".contains(&c)
}

fn optional_direct(c: u8) -> bool {
    b"!\"#$%&*;<=>@[]^_`{|}".contains(&c)
}

fn base64_value(c: u8) -> Option<u32> {
    BASE64.iter().position(|&b| b == c).map(|v| v as u32)
}

/// The reading state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Utf7Decoder {
    /// After `+`: the next byte says whether a run starts.
    plus: bool,
    /// Inside a base64 run.
    run: bool,
    bits: u32,
    nbits: u32,
    /// A lead surrogate waiting for its trail.
    lead: Option<u16>,
}

impl Utf7Decoder {
    /// Decodes all of `input`, appending to `dst`; `bad(at, len, dst)` is
    /// called for each invalid piece and returns whether to go on. Returns
    /// the bytes consumed (all of them unless `bad` stopped it).
    pub(crate) fn decode(
        &mut self,
        input: &[u8],
        last: bool,
        dst: &mut String,
        bad: &mut dyn FnMut(usize, usize, &mut String) -> bool,
    ) -> usize {
        for (i, &b) in input.iter().enumerate() {
            if self.plus {
                self.plus = false;
                if b == b'-' {
                    dst.push('+');
                    continue;
                }
                self.run = true;
            }
            if self.run {
                if let Some(v) = base64_value(b) {
                    self.bits = (self.bits << 6 | v) & 0x3F_FFFF;
                    self.nbits += 6;
                    if self.nbits >= 16 {
                        self.nbits -= 16;
                        let unit = (self.bits >> self.nbits) as u16;
                        if !self.unit(unit, dst) && !bad(i, 1, dst) {
                            return i;
                        }
                    }
                    continue;
                }
                // The run ends here.
                self.run = false;
                let leftover = self.bits & ((1 << self.nbits) - 1);
                let clean = self.nbits < 6 && leftover == 0 && self.lead.is_none();
                self.bits = 0;
                self.nbits = 0;
                self.lead = None;
                if !clean && !bad(i, 1, dst) {
                    return i;
                }
                if b == b'-' {
                    continue;
                }
            }
            if b == b'+' {
                self.plus = true;
            } else if direct(b) || optional_direct(b) {
                dst.push(char::from(b));
            } else if !bad(i, 1, dst) {
                return i;
            }
        }
        if last {
            let leftover = self.bits & ((1u32 << self.nbits) - 1);
            let clean = !self.plus && self.nbits < 6 && leftover == 0 && self.lead.is_none();
            *self = Utf7Decoder::default();
            if !clean && !bad(input.len(), 0, dst) {
                return input.len();
            }
        }
        input.len()
    }

    /// Takes one UTF-16 unit of a run; false if it is an unpaired surrogate.
    fn unit(&mut self, u: u16, dst: &mut String) -> bool {
        match (self.lead.take(), u) {
            (None, 0xD800..=0xDBFF) => {
                self.lead = Some(u);
                true
            }
            (Some(lead), 0xDC00..=0xDFFF) => {
                let c = 0x10000 + ((u32::from(lead) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                dst.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                true
            }
            (None, _) => match char::from_u32(u32::from(u)) {
                Some(c) => {
                    dst.push(c);
                    true
                }
                None => false,
            },
            (Some(_), _) => false,
        }
    }
}

/// The writing state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Utf7Encoder {
    run: bool,
    bits: u32,
    nbits: u32,
}

impl Utf7Encoder {
    pub(crate) fn encode(&mut self, src: &str, dst: &mut Vec<u8>, last: bool) {
        for c in src.chars() {
            let ascii = u8::try_from(u32::from(c)).ok().filter(u8::is_ascii);
            match ascii {
                Some(b) if direct(b) => {
                    if self.run {
                        self.end_run(dst, base64_value(b).is_some() || b == b'-');
                    }
                    dst.push(b);
                }
                Some(b'+') if !self.run => dst.extend_from_slice(b"+-"),
                _ => {
                    if !self.run {
                        dst.push(b'+');
                        self.run = true;
                    }
                    for u in c.encode_utf16(&mut [0; 2]) {
                        self.bits = (self.bits << 16 | u32::from(*u)) & 0x3F_FFFF;
                        self.nbits += 16;
                        while self.nbits >= 6 {
                            self.nbits -= 6;
                            dst.push(BASE64[((self.bits >> self.nbits) & 63) as usize]);
                        }
                    }
                }
            }
        }
        if last && self.run {
            self.end_run(dst, true);
        }
    }

    /// Flushes the bits of a run and ends it, with `-` if `dash`.
    fn end_run(&mut self, dst: &mut Vec<u8>, dash: bool) {
        if self.nbits > 0 {
            dst.push(BASE64[((self.bits << (6 - self.nbits)) & 63) as usize]);
        }
        if dash {
            dst.push(b'-');
        }
        *self = Utf7Encoder::default();
    }
}
