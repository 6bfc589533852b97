//! Placeholder utf8 benchmark group; filled in by the codec issues.

use criterion::{Criterion, criterion_group, criterion_main};

fn placeholder(c: &mut Criterion) {
    let text = benches::synthetic_utf8(1024, 2);
    c.bench_function("utf8/placeholder/std", |b| {
        b.iter(|| core::str::from_utf8(std::hint::black_box(&text)).is_ok())
    });
}

criterion_group!(group, placeholder);
criterion_main!(group);
