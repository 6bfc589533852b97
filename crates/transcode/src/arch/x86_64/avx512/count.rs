//! The avx512 count and length kernels: `x86_64::count` with 64-byte
//! registers.

super::super::count::kernels!(Avx512, "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,popcnt");
