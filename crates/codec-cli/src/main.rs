//! The `codec` binary; everything lives in the `codec_cli` library.

fn main() -> std::process::ExitCode {
    codec_cli::run()
}
