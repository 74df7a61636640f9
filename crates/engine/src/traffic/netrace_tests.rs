use super::*;

fn rec(cycle: u64, id: u32, kind: u8, src: u8, dst: u8, deps: &[u32]) -> NetraceRecord {
    NetraceRecord {
        cycle,
        id,
        addr: 0x40 * id,
        kind,
        src,
        dst,
        node_types: 0,
        dependents: deps.to_vec(),
    }
}

fn bytes(records: &[NetraceRecord]) -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, "unit", 4, records).unwrap();
    out
}

fn parse_bytes(b: &[u8]) -> Result<Netrace, TraceFileError> {
    parse(b, Path::new("t.tra"))
}

/// A read request (1 flit) and its 5-flit response, which waits for it; cycles shift.
#[test]
fn parses_packets_lengths_and_dependents() {
    let t = parse_bytes(&bytes(&[
        rec(100, 7, 1, 0, 3, &[9, 1234]),
        rec(100, 8, 27, 2, 1, &[]),
        rec(130, 9, 2, 3, 0, &[]),
    ]))
    .unwrap();
    assert_eq!(t.nodes, 4);
    assert_eq!(t.benchmark, "unit");
    let cycles: Vec<u64> = t.packets.iter().map(|p| p.cycle.0).collect();
    assert_eq!(cycles, vec![0, 0, 30]);
    let lens: Vec<u32> = t.packets.iter().map(|p| p.len).collect();
    assert_eq!(lens, vec![1, 1, 5]);
    assert_eq!(t.parents, vec![0, 0, 1]);
    assert_eq!(t.dependents_of(0), &[2]);
    assert!(t.dependents_of(1).is_empty());
    // Id 1234 is not in the file: ignored, counted.
    assert_eq!(t.missing, 1);
}

/// The compressed form round-trips through `load`.
#[test]
fn compressed_file_loads() {
    let records = [rec(5, 1, 1, 0, 1, &[2]), rec(9, 2, 2, 1, 0, &[])];
    let path = std::env::temp_dir().join(format!("flitsim-netrace-{}.tra.bz2", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    write_compressed(file, "unit", 2, &records).unwrap();
    let t = load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(t.packets.len(), 2);
    assert_eq!(t.parents, vec![0, 1]);
}

/// Each malformed input is refused naming the file and the packet.
#[test]
fn malformed_traces_name_the_packet() {
    let good = bytes(&[rec(0, 1, 1, 0, 1, &[2]), rec(4, 2, 2, 1, 0, &[])]);
    let mut bad_magic = good.clone();
    bad_magic[0] ^= 1;
    let mut truncated = good.clone();
    truncated.truncate(good.len() - 2);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (bad_magic, "bad magic"),
        (good[..40].to_vec(), "the header: the file ends inside it"),
        (truncated, "packet 1: the file ends inside it"),
        (bytes(&[]), "no packet"),
        (bytes(&[rec(0, 1, 9, 0, 1, &[])]), "packet 0 (id 1): type 9"),
        (
            bytes(&[rec(0, 1, 1, 0, 4, &[])]),
            "packet 0 (id 1): destination node 4",
        ),
        (
            bytes(&[rec(5, 1, 1, 0, 1, &[]), rec(4, 2, 1, 0, 1, &[])]),
            "packet 1 (id 2): cycle 4 is before",
        ),
        (
            bytes(&[rec(0, 1, 1, 0, 1, &[]), rec(1, 1, 1, 0, 1, &[])]),
            "packet 1: id 1 occurs twice",
        ),
        (
            bytes(&[rec(0, 1, 1, 0, 1, &[]), rec(1, 2, 1, 0, 1, &[1])]),
            "packet 1 lists packet 0",
        ),
    ];
    for (b, says) in cases {
        let e = parse_bytes(&b).unwrap_err().to_string();
        assert!(e.starts_with("t.tra: ") && e.contains(says), "{says}: {e}");
    }
}

/// Not bzip2, and not a regular file: refused with the file named.
#[test]
fn unreadable_files_are_refused() {
    let path = std::env::temp_dir().join(format!("flitsim-netrace-raw-{}", std::process::id()));
    std::fs::write(&path, bytes(&[rec(0, 1, 1, 0, 1, &[])])).unwrap();
    let e = load(&path).unwrap_err().to_string();
    std::fs::remove_file(&path).unwrap();
    assert!(e.contains("cannot decompress"), "{e}");
    let e = load(&std::env::temp_dir()).unwrap_err().to_string();
    assert!(e.contains("is a directory, not a file"), "{e}");
}
