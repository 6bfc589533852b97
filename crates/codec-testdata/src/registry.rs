//! The registry: every UTF-8 validator and entry point in the workspace,
//! listed once, with the properties the test harnesses need.
//!
//! The unit and differential tests, the guard-page tests, `cargo xtask
//! exhaustive`, the fuzz targets and the benchmarks all iterate
//! [`utf8_impls`] and check each entry with [`check_utf8`]; none keeps a list
//! of its own. The SIMD kernels come from `utf8_simd::kernels()`, the
//! crate's own registry (which its dispatch also chooses from), so a new
//! kernel appears here, and in every harness, without a line in this file.
//!
//! Kernels that this CPU cannot run are not in the list; [`utf8_skipped`]
//! names them, and the harnesses print that, so a skipped kernel is never
//! silent.

use codec_core::stream::Streaming;
use codec_core::{StreamingValidator, Utf8Error, Utf8Validator};

use crate::std_validate;

/// A validator and its test properties.
pub struct Utf8Impl {
    /// A unique name, such as `utf8_simd::kernel[avx2]`.
    pub name: String,
    /// The entry point, as a trait object (free functions are reached
    /// through the crate's unit struct, which delegates to them).
    pub validator: Box<dyn Utf8Validator + Send + Sync>,
    /// It has block, word or vector loops that a short input alone never
    /// reaches: harnesses also place inputs across block boundaries.
    pub blocks: bool,
    /// Its `is_valid`, `from_utf8`, `from_utf8_mut` and `valid_prefix` are
    /// its own code rather than the trait's defaults over `validate`:
    /// [`check_utf8`] checks them too.
    pub own_methods: bool,
}

impl core::fmt::Debug for Utf8Impl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.name)
    }
}

/// A validator made of one function: for entry points that are not a
/// crate's `Utf8Validator` (hidden variants, counting functions).
struct FnValidator(fn(&[u8]) -> Result<(), Utf8Error>);

impl Utf8Validator for FnValidator {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        (self.0)(input)
    }
}

/// A streaming validator fed the input in two chunks, cut in the middle:
/// the first error, as a caller would see it.
struct SplitStream<S>(core::marker::PhantomData<fn() -> S>);

impl<S: StreamingValidator> Utf8Validator for SplitStream<S> {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        let (a, b) = input.split_at(input.len() / 2);
        let mut v = S::new();
        v.update(a)?;
        v.update(b)?;
        v.finish()
    }
}

fn entry(
    name: &str,
    validator: impl Utf8Validator + Send + Sync + 'static,
    blocks: bool,
    own_methods: bool,
) -> Utf8Impl {
    Utf8Impl {
        name: name.to_string(),
        validator: Box::new(validator),
        blocks,
        own_methods,
    }
}

fn split<S: StreamingValidator + 'static>() -> SplitStream<S> {
    SplitStream(core::marker::PhantomData)
}

/// Every UTF-8 validator and entry point this CPU can run.
pub fn utf8_impls() -> Vec<Utf8Impl> {
    let mut list = vec![
        entry("utf8_table::Table", utf8_table::Table, true, true),
        entry("utf8_dfa::Dfa", utf8_dfa::Dfa, true, true),
        entry(
            "utf8_dfa::validate_portable",
            FnValidator(utf8_dfa::validate_portable),
            true,
            false,
        ),
        entry(
            "utf8_dfa::count_chars",
            FnValidator(|i| utf8_dfa::count_chars(i).map(drop)),
            true,
            false,
        ),
        entry(
            "utf8_dfa::Validator (split)",
            split::<utf8_dfa::Validator>(),
            true,
            false,
        ),
        entry("utf8_simd::Simd", utf8_simd::Simd, true, true),
        entry("utf8_simd::Portable", utf8_simd::Portable, false, true),
        entry(
            "utf8_simd::Validator (split)",
            split::<utf8_simd::Validator>(),
            true,
            false,
        ),
        entry(
            "codec_core::Streaming<Table> (split)",
            split::<Streaming<utf8_table::Table>>(),
            false,
            false,
        ),
    ];
    for kernel in utf8_simd::kernels() {
        if let Some(v) = kernel.validator() {
            let name = format!("utf8_simd::kernel[{}]", kernel.name());
            list.push(entry(&name, v, true, true));
        }
    }
    list
}

/// The kernels compiled in that this CPU cannot run, for harnesses to
/// print: `utf8_simd::kernel[avx512] (needs avx512f,avx512bw,avx2)`.
pub fn utf8_skipped() -> Vec<String> {
    utf8_simd::kernels()
        .iter()
        .filter(|k| !k.is_available())
        .map(|k| format!("utf8_simd::kernel[{}] (needs {})", k.name(), k.features()))
        .collect()
}

/// Checks one implementation on `input` against std: `validate` always, and
/// with [`Utf8Impl::own_methods`] also `is_valid`, `from_utf8`,
/// `from_utf8_mut` and `valid_prefix`. The error names the implementation,
/// the input and both answers.
pub fn check_utf8(imp: &Utf8Impl, input: &[u8]) -> Result<(), String> {
    check_utf8_against(imp, input, std_validate(input))
}

/// [`check_utf8`] with std's answer computed by the caller (harnesses that
/// check many implementations on one input compute it once).
pub fn check_utf8_against(
    imp: &Utf8Impl,
    input: &[u8],
    want: Result<(), Utf8Error>,
) -> Result<(), String> {
    check_core(imp, input, want)?;
    if !imp.own_methods {
        return Ok(());
    }
    let v = &imp.validator;
    let got = v.from_utf8(input).map(str::as_bytes);
    if got != want.map(|()| input) {
        return failure(imp, "from_utf8", input, &got, want);
    }
    // A copy to convert in place: on the stack for the short inputs of the
    // enumerations, which check billions of them.
    let mut stack = [0u8; 64];
    let mut heap = Vec::new();
    let copy = match stack.get_mut(..input.len()) {
        Some(s) => s,
        None => {
            heap.extend_from_slice(input);
            &mut heap[..]
        }
    };
    copy.copy_from_slice(input);
    let got = v.from_utf8_mut(copy).map(|s| s.len());
    if got != want.map(|()| input.len()) {
        return failure(imp, "from_utf8_mut", input, &got, want);
    }
    let (valid, err) = v.valid_prefix(input);
    let end = want.err().map_or(input.len(), |e| e.valid_up_to());
    if valid.as_bytes() != &input[..end] || err != want.err() {
        return failure(imp, "valid_prefix", input, &(valid, err), want);
    }
    Ok(())
}

/// The cheaper check for enumerations of billions of inputs: `validate`,
/// and `is_valid` where it is the implementation's own.
pub fn check_core(imp: &Utf8Impl, input: &[u8], want: Result<(), Utf8Error>) -> Result<(), String> {
    let v = &imp.validator;
    let got = v.validate(input);
    if got != want {
        return failure(imp, "validate", input, &got, want);
    }
    if imp.own_methods && v.is_valid(input) != want.is_ok() {
        return failure(imp, "is_valid", input, &want.is_err(), want);
    }
    Ok(())
}

#[cold]
fn failure(
    imp: &Utf8Impl,
    what: &str,
    input: &[u8],
    got: &dyn core::fmt::Debug,
    want: Result<(), Utf8Error>,
) -> Result<(), String> {
    Err(format!(
        "{}::{what} on {} bytes {:02X?}: got {got:?}, std says {want:?}",
        imp.name,
        input.len(),
        &input[..input.len().min(64)]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_is_listed_once_and_names_are_unique() {
        let list = utf8_impls();
        let mut names: Vec<&str> = list.iter().map(|i| i.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), list.len());
        let kernels = utf8_simd::kernels().len();
        let listed = list.iter().filter(|i| i.name.contains("::kernel[")).count();
        assert_eq!(listed + utf8_skipped().len(), kernels);
    }

    #[test]
    fn check_catches_a_wrong_answer() {
        struct AlwaysValid;
        impl Utf8Validator for AlwaysValid {
            fn validate(&self, _: &[u8]) -> Result<(), Utf8Error> {
                Ok(())
            }
        }
        let imp = entry("always-valid", AlwaysValid, false, true);
        assert!(check_utf8(&imp, b"ok").is_ok());
        assert!(check_utf8(&imp, b"\xFF").is_err());
    }
}
