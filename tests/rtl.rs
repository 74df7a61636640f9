//! flitsim against the RTL of the Stanford open-source VC router (docs/rtl.md). A packet
//! list in `tests/data/rtl/` ran through the RTL harness (`rtl/`, under Icarus Verilog)
//! once; the log it wrote is stored beside it (`NAME.rtl.log.bz2`). The tests run flitsim
//! on the same list (`flitsim trace --packets LIST --format rtl`) and compare the two logs
//! record by record, so no Verilog simulator is needed. They also check the packet-list
//! input and the record format of `flitsim trace`.

use std::io::Read;
use std::process::Command;

const DATA: &str = "tests/data/rtl";

/// flitsim's records for packet list `name` on netlist `config`.
fn flitsim_log(config: &str, name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["trace", &format!("{DATA}/{config}.toml"), "--rate", "0"])
        .args(["--packets", &format!("{DATA}/{name}.packets")])
        .args(["--format", "rtl", "--max-lines", "0"])
        .output()
        .expect("flitsim runs");
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 records")
}

/// The RTL's records for packet list `name`.
fn rtl_log(name: &str) -> String {
    let path = format!("{DATA}/{name}.rtl.log.bz2");
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut s = String::new();
    bzip2::read::MultiBzDecoder::new(f)
        .read_to_string(&mut s)
        .expect("bzip2 text");
    s
}

/// A record without its VC field (the fifth): cycle, kind, node, port and, for a flit,
/// its kind and packet.
fn without_vc(line: &str) -> String {
    let mut f: Vec<&str> = line.split(' ').collect();
    if f.len() >= 5 {
        f.remove(4);
    }
    f.join(" ")
}

/// Records of one log missing from the other (both sorted by the same rule), and the
/// first of them.
fn differences(rtl: &[String], ours: &[String]) -> (usize, Option<String>) {
    let (mut i, mut j, mut n, mut first) = (0, 0, 0, None);
    let key = |l: &str| -> (u64, String) {
        let (c, rest) = l.split_once(' ').unwrap_or((l, ""));
        (c.parse().unwrap_or(u64::MAX), rest.to_string())
    };
    while i < rtl.len() || j < ours.len() {
        let ord = match (rtl.get(i), ours.get(j)) {
            (Some(a), Some(b)) => key(a).cmp(&key(b)),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match ord {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
                continue;
            }
            std::cmp::Ordering::Less => {
                first.get_or_insert_with(|| format!("RTL only: {}", rtl[i]));
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                first.get_or_insert_with(|| format!("flitsim only: {}", ours[j]));
                j += 1;
            }
        }
        n += 1;
    }
    (n, first)
}

fn sorted(log: &str, f: impl Fn(&str) -> String) -> Vec<String> {
    let mut v: Vec<String> = log.lines().map(f).collect();
    v.sort_by(|a, b| {
        let k = |l: &str| {
            let (c, rest) = l.split_once(' ').unwrap_or((l, ""));
            (c.parse::<u64>().unwrap_or(u64::MAX), rest.to_string())
        };
        k(a).cmp(&k(b))
    });
    v
}

/// Compares packet list `name` on `config`; `vc` false leaves the VC fields out.
fn compare(config: &str, name: &str, vc: bool) -> (usize, usize, Option<String>) {
    let strip = |l: &str| if vc { l.to_string() } else { without_vc(l) };
    let rtl = sorted(&rtl_log(name), strip);
    let ours = sorted(&flitsim_log(config, name), strip);
    assert!(
        rtl.len() > 100,
        "{name}: the RTL log has {} records",
        rtl.len()
    );
    let (n, first) = differences(&rtl, &ours);
    (n, rtl.len(), first)
}

#[test]
fn differences_count_records_missing_on_either_side() {
    let a: Vec<String> = ["1 F r0 1 0 head 0:0.0", "2 C r0 4 0"]
        .map(String::from)
        .to_vec();
    let b: Vec<String> = ["1 F r0 1 1 head 0:0.0", "2 C r0 4 0"]
        .map(String::from)
        .to_vec();
    assert_eq!(differences(&a, &a), (0, None));
    let (n, first) = differences(&a, &b);
    assert_eq!(n, 2);
    assert_eq!(first.as_deref(), Some("RTL only: 1 F r0 1 0 head 0:0.0"));
    assert_eq!(without_vc("1 F r0 1 0 head 0:0.0"), "1 F r0 1 head 0:0.0");
}

/// Terminal 0 to every other terminal of the 3x3 mesh, one packet at a time (1 flit, then
/// 5), 30 cycles apart: every record as the RTL's, VC fields included (each input VC
/// picks its output VC with an arbiter over its route port's VCs,
/// `output_vc_arbiter = "port"`).
#[test]
fn single_packets_cycle_for_cycle() {
    let (n, total, first) = compare("mesh3x3", "from0-3x3", true);
    assert_eq!(n, 0, "{n} of {total} records differ; first: {first:?}");
}

/// The same list under flitsim's default output VC choice (one arbiter over every output
/// VC of the router): the VC fields differ from the RTL's, which shows the option is what
/// makes the single packets match.
#[test]
fn single_packets_differ_under_the_router_wide_vc_arbiter() {
    let strip = |l: &str| l.to_string();
    let rtl = sorted(&rtl_log("from0-3x3"), strip);
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["trace", &format!("{DATA}/mesh3x3.toml"), "--rate", "0"])
        .args(["--packets", &format!("{DATA}/from0-3x3.packets")])
        .args(["--format", "rtl", "--max-lines", "0"])
        .args(["--set", "output_vc_arbiter=router"])
        .output()
        .expect("flitsim runs");
    assert!(out.status.success());
    let ours = sorted(&String::from_utf8_lossy(&out.stdout), strip);
    let (n, _) = differences(&rtl, &ours);
    assert!(n > 0, "the router-wide arbiter matched the RTL's VCs");
    let (n, _) = differences(
        &sorted(&rtl_log("from0-3x3"), without_vc),
        &sorted(&String::from_utf8_lossy(&out.stdout), without_vc),
    );
    assert_eq!(n, 0, "only the VC fields differ");
}

/// A record with neither cycle (set to 0) nor VC: which flit or credit crossed which
/// channel.
fn place(line: &str) -> String {
    let stripped = without_vc(line);
    let rest = stripped
        .split_once(' ')
        .map_or(stripped.as_str(), |(_, r)| r);
    format!("0 {rest}")
}

/// Uniform random traffic on the 3x3 mesh, 2,000 cycles at 5% and at 15% of an injection
/// channel's capacity (`scripts/rtl-packet-list.sh`): every flit crosses the channels it
/// crosses in the RTL, as the same kind, and every credit returns on the RTL's channels;
/// the cycles and VCs are left out (their differences: `random_traffic_cycle_for_cycle`).
#[test]
fn random_traffic_crosses_the_rtls_channels() {
    for name in ["random-01-load005", "random-04-load015"] {
        let rtl = sorted(&rtl_log(name), place);
        let ours = sorted(&flitsim_log("mesh3x3", name), place);
        let (n, first) = differences(&rtl, &ours);
        assert_eq!(
            n,
            0,
            "{name}: {n} of {} records differ; first: {first:?}",
            rtl.len()
        );
    }
}

/// The same lists cycle for cycle: 242 of the RTL's 6,676 records have no equal in
/// flitsim's log at 5%, 5,151 of 22,060 at 15% (76 and 932 with the VC fields left out;
/// docs/rtl.md).
#[test]
#[ignore = "the switch allocator's port order and speculation masking differ from the RTL (docs/rtl.md)"]
fn random_traffic_cycle_for_cycle() {
    for name in ["random-01-load005", "random-04-load015"] {
        let (n, total, first) = compare("mesh3x3", name, true);
        assert_eq!(
            n, 0,
            "{name}: {n} of {total} records differ; first: {first:?}"
        );
    }
}

/// A packet list's bad line and a VC the network lacks are refused, named by file and
/// line or by flag, with exit status 1.
#[test]
fn bad_packet_lists_are_refused_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("flitsim-rtl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let list = dir.join("bad.packets");
    std::fs::write(&list, "# cycle src dst len vc\n0 0 8 5 1\n3 0 8 five 1\n").expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_flitsim"))
            .args(["trace", &format!("{DATA}/mesh3x3.toml"), "--rate", "0"])
            .args(args)
            .output()
            .expect("flitsim runs")
    };
    let out = run(&["--packets", list.to_str().expect("utf-8 path")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("bad.packets:3:"), "{err}");
    assert!(err.contains("help:"), "{err}");
    let out = run(&["--inject", "0:0:8:5:4"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("injection VC 4 does not exist"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A packet on a named injection VC leaves on it, and the records name ports as the RTL
/// does: terminal 0's head goes out of router 0's port 1 (east, +1 in dimension 0) two
/// cycles after the router reads it.
#[test]
fn the_rtl_format_names_the_injection_vc_and_rtl_ports() {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["trace", &format!("{DATA}/mesh3x3.toml"), "--rate", "0"])
        .args(["--inject", "0:0:8:2:2", "--format", "rtl"])
        .output()
        .expect("flitsim runs");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(log.starts_with("0 F t0 0 2 head 0:0.0\n"), "{log}");
    assert!(log.contains("\n3 F r0 1 "), "{log}");
    assert!(log.contains("\n2 C r0 4 2\n"), "{log}");
    assert!(log.lines().any(|l| l.starts_with("15 F r8 4 ")), "{log}");
}
