//! Fuzzing of the input readers, kept as proptest targets with a fixed number of cases
//! (`FLITSIM_FUZZ_CASES`, default 200 each; docs/fuzzing.md): the netlist loader on
//! mutations of the shipped and test netlists, `--set` overrides on generated netlists
//! (whatever is accepted expands to a netlist that loads back the same), and the trace
//! reader. None may panic; what they accept must hold the invariants they promise.

use flitsim::engine::traffic::trace;
use flitsim::netlist::{self as nl, topology, Netlist, SET_KEYS};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::Path;

/// Cases per target: `FLITSIM_FUZZ_CASES`, else 200.
fn runner() -> TestRunner {
    let cases = std::env::var("FLITSIM_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// The seed corpus: every small netlist shipped or used by the tests (the 32x32 and
/// larger tori are left out: each case would spend its time building them).
fn corpus() -> Vec<String> {
    let mut files = Vec::new();
    for dir in [
        "netlists",
        "tests/data/ok",
        "tests/data/bad",
        "tests/data/trace",
    ] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let small = std::fs::metadata(&p).unwrap().len() < 20_000;
            let big_torus = ["32x32", "64x64", "hypercube-10"]
                .iter()
                .any(|b| p.to_string_lossy().contains(b));
            if small && !big_torus {
                files.push(std::fs::read_to_string(&p).unwrap_or_default());
            }
        }
    }
    files.sort();
    files
}

/// Tokens worth splicing into TOML: limits, wrong types, structure.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "-1",
    "255",
    "256",
    "65536",
    "65537",
    "4294967295",
    "4294967296",
    "1e9",
    "\"unbounded\"",
    "\"vct\"",
    "\"saf\"",
    "\"dor\"",
    "\"source\"",
    "[[router]]",
    "[[channel]]",
    "[defaults]",
    "[topology]",
    "\n",
    "=",
    "\"",
    "[",
    "]",
    ",",
    "\u{0}",
    "\"a\\nb\"",
    "max_packet_length = 9",
    "switching = \"vct\"",
    "vcs = 255",
];

/// A mutation: at a position (a fraction of the text), delete some bytes and insert a token.
fn mutation() -> impl Strategy<Value = (f64, usize, usize)> {
    (0.0..1.0f64, 0usize..8, 0..TOKENS.len())
}

fn mutate(src: &str, muts: &[(f64, usize, usize)]) -> String {
    let mut s = src.as_bytes().to_vec();
    for &(at, del, tok) in muts {
        let i = ((s.len() as f64) * at) as usize;
        let j = (i + del).min(s.len());
        s.splice(i..j, TOKENS[tok].bytes());
    }
    String::from_utf8_lossy(&s).into_owned()
}

/// A loaded netlist expands to text that loads back to a netlist expanding to the same
/// text (checked on small netlists only: expansion grows with the routers).
fn round_trips(n: &Netlist) -> Result<(), TestCaseError> {
    if n.num_routers() > 256 {
        return Ok(());
    }
    let text = nl::expand(n);
    let again = nl::parse_str(&text, Path::new("expanded.toml"))
        .map_err(|d| TestCaseError::fail(format!("expand output does not load: {d}\n{text}")))?;
    prop_assert_eq!(nl::expand(&again), text);
    Ok(())
}

#[test]
fn fuzz_netlist_loader() {
    let corpus = corpus();
    assert!(corpus.len() >= 20, "seed corpus of {} files", corpus.len());
    let strategy = (0..corpus.len(), proptest::collection::vec(mutation(), 1..4));
    runner()
        .run(&strategy, |(seed, muts)| {
            let src = mutate(&corpus[seed], &muts);
            if let Ok(n) = nl::parse_str(&src, Path::new("fuzz.toml")) {
                round_trips(&n)?;
            }
            Ok(())
        })
        .unwrap();
}

/// Values worth giving a key: limits, names, garbage.
const VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "4",
    "17",
    "255",
    "256",
    "65536",
    "65537",
    "4294967295",
    "4294967296",
    "-1",
    " 8",
    "1e3",
    "",
    "unbounded",
    "vct",
    "saf",
    "wormhole",
    "dor",
    "duato",
    "source",
    "table",
    "round-robin",
    "\u{0}",
];

fn small_netlist(kind: usize) -> Netlist {
    match kind {
        0 => topology::torus(&[3, 3]),
        1 => topology::mesh(&[2, 3]),
        2 => topology::hypercube(3),
        _ => topology::ring(4),
    }
}

#[test]
fn fuzz_set_overrides_and_expand_round_trip() {
    let key = prop_oneof![
        (0..SET_KEYS.len()).prop_map(|i| SET_KEYS[i].to_string()),
        "[a-z_]{0,12}",
    ];
    let value = prop_oneof![
        (0..VALUES.len()).prop_map(|i| VALUES[i].to_string()),
        ".{0,6}"
    ];
    let strategy = (0..4usize, proptest::collection::vec((key, value), 0..6));
    runner()
        .run(&strategy, |(kind, pairs)| {
            let mut n = small_netlist(kind);
            let pairs: Vec<(&str, &str)> = pairs
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            if n.set_all(pairs).is_ok() {
                // Accepted by `--set` means accepted by the file: expand and load back.
                round_trips(&n)?;
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn fuzz_trace_reader() {
    let field = prop_oneof![
        "[0-9]{1,3}",
        Just("0".to_string()),
        Just("4294967294".to_string()),
        Just("4294967295".to_string()),
        Just("2147483648".to_string()),
        Just("2147483649".to_string()),
        Just("18446744073709551616".to_string()),
        Just("-1".to_string()),
        Just("x".to_string()),
    ];
    let sep = prop_oneof![Just(" "), Just("\t"), Just(","), Just(" # c "), Just("")];
    let line = proptest::collection::vec((field, sep), 0..6);
    let strategy = (1usize..20, proptest::collection::vec(line, 0..12));
    runner()
        .run(&strategy, |(terminals, lines)| {
            let src: String = lines
                .iter()
                .map(|l| l.iter().map(|(f, s)| format!("{f}{s}")).collect::<String>() + "\n")
                .collect();
            if let Ok(events) = trace::parse(&src, Path::new("fuzz.trace"), terminals) {
                prop_assert!(!events.is_empty());
                prop_assert!(events.windows(2).all(|w| w[0].cycle <= w[1].cycle));
                for e in events {
                    prop_assert!(e.source.index() < terminals && e.dest.index() < terminals);
                    prop_assert!(e.len >= 1 && e.len <= flitsim::engine::length::MAX_PACKET_LENGTH);
                    prop_assert!(e.cycle < flitsim::router::Stamp::LAST);
                }
            }
            Ok(())
        })
        .unwrap();
}
