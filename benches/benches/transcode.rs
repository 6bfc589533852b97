//! Criterion benchmarks of transcode against std, encoding_rs and simdutf;
//! filled in by the benchmark step of issue 12.
fn main() {}
