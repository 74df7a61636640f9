//! Every key of BookSim 2's configuration (its `booksim_config.cpp`), with BookSim's
//! default and what the importer does with it.

/// What the importer does with a BookSim key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Use {
    /// Translated into a flitsim setting (see `mapping.rs`).
    Mapped,
    /// Only changes what BookSim prints or how it runs its loop; ignored with a note.
    Output,
    /// flitsim has no such feature: the key is accepted only at BookSim's default.
    DefaultOnly,
}

/// A BookSim key: its name, BookSim's default value and its use here.
pub struct Key {
    /// The key.
    pub name: &'static str,
    /// BookSim's default, as BookSim would print it.
    pub default: &'static str,
    /// What the importer does with it.
    pub used: Use,
}

const fn k(name: &'static str, default: &'static str, used: Use) -> Key {
    Key {
        name,
        default,
        used,
    }
}

use Use::{DefaultOnly as D, Mapped as M, Output as O};

/// BookSim's keys in the order of its `booksim_config.cpp`.
pub const KEYS: &[Key] = &[
    k("channel_file", "", D),
    k("subnets", "1", D),
    k("topology", "torus", M),
    k("k", "8", M),
    k("n", "2", M),
    k("c", "1", D),
    k("routing_function", "none", M),
    k("use_noc_latency", "1", M),
    k("x", "8", O),
    k("y", "8", O),
    k("xr", "1", O),
    k("yr", "1", O),
    k("link_failures", "0", D),
    k("fail_seed", "0", O),
    k("in_ports", "5", O),
    k("out_ports", "5", O),
    k("router", "iq", D),
    k("output_delay", "0", D),
    k("credit_delay", "0", M),
    k("internal_speedup", "1.0", D),
    k("output_buffer_size", "-1", D),
    k("noq", "0", D),
    k("speculative", "0", M),
    k("spec_check_elig", "1", O),
    k("spec_check_cred", "1", O),
    k("spec_mask_by_reqs", "0", O),
    k("spec_sw_allocator", "prio", O),
    k("num_vcs", "16", M),
    k("vc_buf_size", "8", M),
    k("buf_size", "-1", D),
    k("buffer_policy", "private", D),
    k("private_bufs", "-1", D),
    k("private_buf_size", "1", D),
    k("private_buf_start_vc", "-1", D),
    k("private_buf_end_vc", "-1", D),
    k("max_held_slots", "-1", D),
    k("feedback_aging_scale", "1", O),
    k("feedback_offset", "0", O),
    k("wait_for_tail_credit", "0", M),
    k("vc_busy_when_full", "0", D),
    k("vc_prioritize_empty", "0", D),
    k("vc_priority_donation", "0", D),
    k("vc_shuffle_requests", "0", D),
    k("hold_switch_for_packet", "0", D),
    k("input_speedup", "1", M),
    k("output_speedup", "1", M),
    k("routing_delay", "1", M),
    k("vc_alloc_delay", "1", M),
    k("sw_alloc_delay", "1", M),
    k("st_prepare_delay", "0", M),
    k("st_final_delay", "1", M),
    k("vct", "0", D),
    k("vc_allocator", "islip", M),
    k("sw_allocator", "islip", M),
    k("arb_type", "round_robin", M),
    k("alloc_iters", "1", M),
    k("classes", "1", D),
    k("traffic", "uniform", M),
    k("class_priority", "0", O),
    k("perm_seed", "0", M),
    k("injection_rate", "0.1", M),
    k("injection_rate_uses_flits", "0", M),
    k("packet_size", "1", M),
    k("packet_size_rate", "1", M),
    k("injection_process", "bernoulli", M),
    k("burst_alpha", "0.5", M),
    k("burst_beta", "0.5", M),
    k("burst_r1", "-1.0", M),
    k("priority", "none", D),
    k("batch_size", "1000", O),
    k("batch_count", "1", O),
    k("max_outstanding_requests", "0", D),
    k("use_read_write", "0", D),
    k("write_fraction", "0.5", O),
    k("read_request_begin_vc", "0", O),
    k("read_request_end_vc", "5", O),
    k("write_request_begin_vc", "2", O),
    k("write_request_end_vc", "7", O),
    k("read_reply_begin_vc", "8", O),
    k("read_reply_end_vc", "13", O),
    k("write_reply_begin_vc", "10", O),
    k("write_reply_end_vc", "15", O),
    k("read_request_subnet", "0", O),
    k("read_reply_subnet", "0", O),
    k("write_request_subnet", "0", O),
    k("write_reply_subnet", "0", O),
    k("read_request_size", "1", O),
    k("write_request_size", "1", O),
    k("read_reply_size", "1", O),
    k("write_reply_size", "1", O),
    k("sim_type", "latency", M),
    k("warmup_periods", "3", M),
    k("sample_period", "1000", M),
    k("max_samples", "10", M),
    k("measure_stats", "1", D),
    k("pair_stats", "0", O),
    k("latency_thres", "500.0", O),
    k("warmup_thres", "0.05", O),
    k("acc_warmup_thres", "0.05", O),
    k("stopping_thres", "0.05", O),
    k("acc_stopping_thres", "0.05", O),
    k("sim_count", "1", O),
    k("include_queuing", "1", D),
    k("seed", "0", M),
    k("print_activity", "0", O),
    k("print_csv_results", "0", O),
    k("deadlock_warn_timeout", "256", O),
    k("viewer_trace", "0", O),
    k("watch_file", "", O),
    k("watch_flits", "", O),
    k("watch_packets", "", O),
    k("watch_transactions", "", O),
    k("watch_out", "", O),
    k("stats_out", "", O),
    k("injected_flits_out", "", O),
    k("received_flits_out", "", O),
    k("stored_flits_out", "", O),
    k("sent_flits_out", "", O),
    k("outstanding_credits_out", "", O),
    k("ejected_flits_out", "", O),
    k("active_packets_out", "", O),
    k("used_credits_out", "", O),
    k("free_credits_out", "", O),
    k("max_credits_out", "", O),
    k("sent_packets_out", "", O),
    k("sim_power", "0", M),
    k("power_output_file", "pwr_tmp", O),
    k("tech_file", "", M),
    k("channel_width", "128", M),
    k("channel_sweep", "0", M),
    k("network_file", "", M),
];

/// The key named `name`, if BookSim has it.
#[must_use]
pub fn find(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|key| key.name == name)
}

/// The known key closest to `name` (fewest single-character edits), for a help line.
#[must_use]
pub fn nearest(name: &str) -> Option<&'static str> {
    KEYS.iter()
        .map(|key| (edits(name, key.name), key.name))
        .filter(|&(d, key)| d <= key.len() / 3 + 1)
        .min()
        .map(|(_, key)| key)
}

/// Levenshtein distance.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_typos_find_their_key() {
        for (i, key) in KEYS.iter().enumerate() {
            assert!(
                KEYS[..i].iter().all(|other| other.name != key.name),
                "{}",
                key.name
            );
        }
        assert_eq!(nearest("num_vc"), Some("num_vcs"));
        assert_eq!(nearest("vc_buffer_size"), Some("vc_buf_size"));
        assert_eq!(nearest("zzzzzzzz"), None);
    }
}
