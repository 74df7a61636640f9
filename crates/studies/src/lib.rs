//! flitsim studies: what users run on top of the engine. Experiments made of many
//! simulations (curves, saturation and buffer-depth searches) in [`experiments`], the
//! papers' validation experiments in [`reproduce`], the simulator measured against the
//! analytical models in [`measure`] and [`crosscheck`], the models alone in [`models`],
//! charts in [`plot`], and the spread of a study's simulations over an MPI job in
//! [`cluster`]. The CLI's logic lives here too: the JSON of a run ([`run_report`]), the
//! scripted packets and RTL records of a trace ([`packet_list`], [`rtl_log`]).

pub mod check;
pub mod cluster;
pub mod cost;
pub mod crosscheck;
pub mod experiment_designs;
pub mod experiment_file;
pub mod experiments;
pub mod measure;
pub mod models;
pub mod packet_list;
pub mod plot;
pub mod reproduce;
pub mod rtl_log;
pub mod run_report;
pub mod run_summary;
pub mod trace_window;
pub mod whole_file;
