//! Buffer requirements: per input VC FIFO the time-average occupancy histogram, mean, p99
//! and maximum, with arrivals and residence times (Little's law per VC:
//! mean occupancy = arrival rate x mean residence time). Measured like the channel
//! statistics, from the opening of the measurement window to the report.

use serde::{Deserialize, Serialize};

/// Occupancy of one input VC FIFO.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BufferStats {
    /// Router name.
    pub router: String,
    /// Input port name (`local` = injection).
    pub port: String,
    /// Input port index.
    pub port_index: u8,
    /// VC index.
    pub vc: u8,
    /// FIFO depth (`null` = unbounded).
    pub depth: Option<u32>,
    /// Time-average occupancy (flits).
    pub mean: f64,
    /// 99th percentile of the time-weighted occupancy (flits).
    pub p99: u32,
    /// Largest occupancy (flits): for unbounded buffers, the peak storage used.
    pub max: u32,
    /// `histogram[n]`: fraction of the cycles the FIFO held `n` flits.
    pub histogram: Vec<f64>,
    /// Flits arriving per cycle.
    pub arrival_rate: f64,
    /// Mean cycles a flit spends in the FIFO; `null` without departures.
    pub residence_mean: Option<f64>,
}

impl BufferStats {
    /// Little's law prediction of `mean`: arrival rate x mean residence time.
    pub fn little_predicted(&self) -> Option<f64> {
        self.residence_mean.map(|w| self.arrival_rate * w)
    }
}
