//! The memory estimate against the bytes really allocated: a counting global allocator
//! (its own test binary, so nothing else allocates beside it) records the peak heap of
//! `Simulation::new` on a loaded netlist (the netlist counted, the parser's transient
//! not), which the estimate must match within 10% for every generator family and for
//! an explicit netlist.

use flitsim_engine::{SimConfig, Simulation};
use flitsim_netlist::Netlist;
use peak_alloc::PeakAlloc;
use std::sync::{Mutex, MutexGuard};

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// One test at a time: the counter is global to the process, so another test's
/// allocations (even while it prepares its netlist) would count in this one's peak.
static ONE: Mutex<()> = Mutex::new(());

fn alone() -> MutexGuard<'static, ()> {
    ONE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The source of a generator netlist with `topology` (the lines of its `[topology]`
/// table).
fn generated(name: &str, topology: &str) -> String {
    format!(
        "name = \"{name}\"\nchannel_latency = 2\nterminal_latency = 1\n\
         [topology]\n{topology}\n[defaults]\nvcs = 4\nbuffer_depth = 8\nrouting = \"dor\"\n"
    )
}

fn load(src: &str) -> Netlist {
    flitsim_netlist::parse_str(src, std::path::Path::new("peak.toml")).unwrap()
}

/// The netlist of `src`, the heap it holds once loaded plus what `Simulation::new` takes
/// at its peak (above what was allocated before loading), and the estimate, in bytes.
/// The parser's own transient peak is left out: it is over before the estimate is made
/// (the estimate needs the netlist), and on a small explicit netlist it exceeds the
/// simulation's.
fn peak_and_estimate(src: &str) -> (Netlist, u64, u64) {
    let config = SimConfig {
        rate: 0.1,
        threads: 1,
        ..SimConfig::default()
    };
    let before = HEAP.current_usage();
    let netlist = load(src);
    HEAP.reset_peak_usage();
    let sim = Simulation::new(&netlist, &config).unwrap();
    let peak = HEAP.peak_usage() - before;
    drop(sim);
    let estimate = Simulation::memory_estimate(&netlist, &config).unwrap();
    (netlist, peak as u64, estimate)
}

/// Call with [`alone`] held.
fn assert_within_ten_percent(src: &str) {
    let (netlist, peak, estimate) = peak_and_estimate(src);
    let ratio = estimate as f64 / peak as f64;
    eprintln!(
        "{}: estimate {estimate} B, peak {peak} B, ratio {ratio:.3}",
        netlist.name
    );
    assert!(
        (0.9..=1.1).contains(&ratio),
        "{}: estimate {estimate} B against a peak of {peak} B (ratio {ratio:.3})",
        netlist.name
    );
}

#[test]
fn the_estimate_of_a_torus_is_its_peak_within_ten_percent() {
    let _alone = alone();
    assert_within_ten_percent(&generated("torus", "kind = \"torus\"\nradix = [8, 8]"));
}

#[test]
fn the_estimate_of_a_mesh_is_its_peak_within_ten_percent() {
    let _alone = alone();
    assert_within_ten_percent(&generated("mesh", "kind = \"mesh\"\nradix = [8, 8]"));
}

#[test]
fn the_estimate_of_a_ring_is_its_peak_within_ten_percent() {
    let _alone = alone();
    assert_within_ten_percent(&generated("ring", "kind = \"ring\"\nn = 64"));
}

#[test]
fn the_estimate_of_a_hypercube_is_its_peak_within_ten_percent() {
    let _alone = alone();
    assert_within_ten_percent(&generated("hypercube", "kind = \"hypercube\"\ndim = 6"));
}

#[test]
fn the_estimate_of_an_explicit_netlist_is_its_peak_within_ten_percent() {
    let _alone = alone();
    let torus = load(&generated("torus", "kind = \"torus\"\nradix = [8, 8]"));
    let src = flitsim_netlist::expand(&torus).replace("routing = \"dor\"", "routing = \"table\"");
    assert_within_ten_percent(&src);
}

#[test]
fn the_estimate_of_a_concentrated_torus_is_its_peak_within_ten_percent() {
    let _alone = alone();
    let src = generated("torus-c4", "kind = \"torus\"\nradix = [8, 8]");
    assert_within_ten_percent(&format!("concentration = 4\n{src}"));
}
