//! Helpers shared by the fuzz targets in `fuzz_targets/`: the oracle and the
//! assertion that names the failing implementation.

use codec_core::Utf8Error;

/// std's answer, in our error type: the oracle for every UTF-8 validator.
pub fn std_validate(input: &[u8]) -> Result<(), Utf8Error> {
    core::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| Utf8Error::from_std(e, input))
}

/// Panics (a libFuzzer finding) unless `got` equals `want`, naming `what`.
#[track_caller]
pub fn same<T: PartialEq + core::fmt::Debug>(what: &str, input: &[u8], got: T, want: T) {
    if got != want {
        let shown = &input[..input.len().min(64)];
        panic!(
            "{what}: got {got:?}, expected {want:?}, on {} bytes starting {shown:02X?}",
            input.len()
        );
    }
}

/// Splits `data` into a control prefix of `n` bytes and the rest, padding the
/// control with zeros when `data` is short.
pub fn split_control<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut control = [0u8; N];
    let n = data.len().min(N);
    control[..n].copy_from_slice(&data[..n]);
    (control, &data[n..])
}
