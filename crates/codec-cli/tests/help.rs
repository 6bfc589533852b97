//! `codec --help` against the tests: every flag the help of every
//! subcommand lists is exercised by at least one test in this directory
//! (its long form, or its short form, appears in a test's arguments), and
//! every subcommand's help has examples and exit codes. A flag added
//! without a test, or a help text that drifts from the flags, fails here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use std::path::Path;

fn help(sub: &[&str]) -> String {
    let mut args = sub.to_vec();
    args.push("--help");
    let out = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(&args)
        .assert()
        .code(0)
        .get_output()
        .clone();
    String::from_utf8(out.stdout).unwrap()
}

/// The (short, long) flags of the "Options:" section.
fn flags(help: &str) -> Vec<(Option<String>, String)> {
    let options = help.split("Options:").nth(1).unwrap_or("");
    options
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| {
            let mut short = None;
            let mut long = None;
            for word in l.split([' ', ',']) {
                if let Some(w) = word.strip_prefix("--") {
                    long.get_or_insert_with(|| format!("--{w}"));
                } else if word.len() == 2 && word.starts_with('-') {
                    short.get_or_insert_with(|| word.to_string());
                }
            }
            long.map(|l| (short, l))
        })
        .filter(|(_, l)| l != "--help" && l != "--version")
        .collect()
}

#[test]
fn every_flag_in_the_help_is_exercised_by_a_test() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut sources = String::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("help.rs") {
            sources.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    let subcommands: &[&[&str]] = &[
        &["validate"],
        &["repair"],
        &["convert"],
        &["count"],
        &["detect"],
        &["varint", "encode"],
        &["varint", "decode"],
        &["zigzag", "encode"],
        &["zigzag", "decode"],
    ];
    let mut missing = Vec::new();
    for sub in subcommands {
        let text = help(sub);
        assert!(text.contains("Examples:"), "{sub:?}");
        assert!(text.contains("Exit codes:"), "{sub:?}");
        let found = flags(&text);
        assert!(!found.is_empty(), "{sub:?}: no options parsed from\n{text}");
        for (short, long) in found {
            let used = sources.contains(&format!("\"{long}\""))
                || sources.contains(&format!("{long} "))
                || short.is_some_and(|s| sources.contains(&format!("\"{s}\"")));
            if !used {
                missing.push(format!("{} {long}", sub.join(" ")));
            }
        }
    }
    assert!(missing.is_empty(), "flags no test exercises: {missing:?}");
}

#[test]
fn hidden_test_options_stay_out_of_the_help() {
    for sub in [&["validate"][..], &["repair"], &["convert"], &["count"]] {
        let text = help(sub);
        assert!(!text.contains("--chunk-size"), "{sub:?}");
        assert!(!text.contains("--parallel-min"), "{sub:?}");
    }
}

#[test]
fn detect_help_states_the_library_bound() {
    // The window chardetng gets is the library's constant; the help must
    // not drift from it.
    let text = help(&["detect"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let bound = format!("at most {} KiB", encodings::DETECT_GUESS_BYTES >> 10);
    assert!(text.contains(&bound), "{bound:?} not in: {text}");
    assert!(text.contains("first 64 KiB (no more is read)"), "{text}");
}
