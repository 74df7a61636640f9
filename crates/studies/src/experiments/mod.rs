//! Experiments made of many simulations: latency-throughput curves, the saturation search
//! and the buffer-depth search, all run on one job pool. The `sweep` and `buffers`
//! subcommands call these; tests and benches can too.

pub mod buffer_depth;
pub mod buffer_sizing;
pub mod curve;
pub mod curve_csv;
pub mod design_table;
pub mod labels;
pub mod pool;
pub mod rates;
pub mod saturation;
pub mod vary;

pub use buffer_depth::{by_port, search_depth, simulate_buffers, DepthSearch, PortBuffers, Tried};
pub use curve::{sample_curves, simulate_jobs, Bracket, Curve, CurveSpec, Point, Setting};
pub use pool::{parallel_map, Progress};
pub use saturation::{auto_rates, find_saturation, probe_saturated};
