//! Message classes (`message_classes`): each class's packets stay in the class's VC range
//! on every channel, with the routing's own VC classes (datelines) inside it.

use std::process::Command;

fn flitsim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .output()
        .expect("flitsim runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// The VC numbers named in a trace line's detail (`r3.east/vc2 <- ...`).
fn vcs_named(detail: &str) -> Vec<u8> {
    detail
        .split("/vc")
        .skip(1)
        .map(|s| {
            let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().expect("a VC number")
        })
        .collect()
}

#[test]
fn every_flit_of_a_class_stays_in_its_vc_range() {
    // Torus 4x4, 4 VCs, 2 classes: class c on VCs 2c..2c+2, two dateline classes each.
    let (code, trace, err) = flitsim(&[
        "trace",
        "netlists/torus-4x4.toml",
        "--rate",
        "0.1",
        "--length",
        "4",
        "--to",
        "400",
        "--set",
        "message_classes=2",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut seen = [[false; 4]; 2];
    for line in trace.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols[3] == "-" {
            continue; // a credit: no packet
        }
        // The flit column is `source:seq.index`; a packet's class is seq mod 2.
        let seq: u32 = cols[3].split([':', '.']).nth(1).unwrap().parse().unwrap();
        let class = (seq % 2) as usize;
        for vc in vcs_named(&cols[5..].join(" ")) {
            assert!(
                (2 * class..2 * class + 2).contains(&usize::from(vc)),
                "class {class} on vc{vc}: {line}"
            );
            seen[class][usize::from(vc)] = true;
        }
    }
    assert_eq!(
        seen,
        [[true, true, false, false], [false, false, true, true]]
    );
}

#[test]
fn classes_too_narrow_for_the_routing_are_refused() {
    let (code, _, err) = flitsim(&[
        "run",
        "netlists/torus-4x4.toml",
        "--rate",
        "0.01",
        "--cycles",
        "100",
        "--set",
        "vcs=2",
        "--set",
        "message_classes=2",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("each of the 2 message classes gets 1 VC of"),
        "{err}"
    );
    assert!(err.contains("help: use at least 4 VCs per port"), "{err}");
    // `netlist check` refuses what `run` refuses.
    let (code, _, err) = flitsim(&[
        "netlist",
        "check",
        "netlists/torus-4x4.toml",
        "--set",
        "vcs=2",
        "--set",
        "message_classes=2",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[message-classes-do-not-fit]"), "{err}");
    let (code, _, err) = flitsim(&[
        "netlist",
        "check",
        "netlists/torus-4x4.toml",
        "--set",
        "vcs=4",
        "--set",
        "message_classes=2",
    ]);
    assert_eq!(code, 0, "{err}");
}
