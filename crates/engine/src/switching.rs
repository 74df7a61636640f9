//! Engine-side checks and counters of the switching techniques (wormhole, virtual
//! cut-through, store-and-forward) and of timeout reset.
//!
//! Under `vct` and `saf` a downstream VC is granted only when it can hold the whole
//! packet, so a bounded `buffer_depth` below the longest packet would block that packet
//! forever: the run is refused before it starts.

use crate::error::ConfigError;
use crate::length::LengthDist;
use flitsim_netlist::{validate, BufferDepth, Netlist, Switching};

/// Request/reply traffic: replies fit the `vct`/`saf` buffers as requests must, and a
/// service delay is shorter than the watchdog's limit (a network waiting only for
/// replies in service moves no flit).
///
/// # Errors
/// As [`check_depth`], or `ConfigError::TrafficDoesNotFit`.
pub(crate) fn check_replies(netlist: &Netlist, watchdog: u64) -> Result<(), ConfigError> {
    let Some(longest) = netlist.routers().map(|r| r.config.reply_length).max() else {
        return Ok(());
    };
    if longest == 0 {
        return Ok(());
    }
    check_depth(netlist, &LengthDist::Fixed(longest))?;
    let slow = netlist.routers().find(|r| {
        r.config.reply_length > 0 && watchdog > 0 && u64::from(r.config.service_delay) >= watchdog
    });
    match slow {
        Some(r) => Err(ConfigError::TrafficDoesNotFit {
            traffic: "request/reply".into(),
            netlist: netlist.name.clone(),
            reason: format!(
                "router {} has service_delay = {}, not below the watchdog's {watchdog} cycles",
                r.name, r.config.service_delay
            ),
            help: "lower service_delay or raise --watchdog".into(),
        }),
        None => Ok(()),
    }
}

/// Refuses `vct`/`saf` routers whose buffers cannot hold the longest packet `lengths`
/// produces (exponential lengths need `buffer_depth = "unbounded"`).
///
/// # Errors
/// `ConfigError::BufferTooShallow` with the netlist's located diagnostic,
/// `SafInjectionTooShallow` or `NoLongestPacket`.
pub(crate) fn check_depth(netlist: &Netlist, lengths: &LengthDist) -> Result<(), ConfigError> {
    match lengths.max() {
        Some(max) => {
            validate::check_vct_depth(netlist, max).map_err(ConfigError::BufferTooShallow)?;
            // Store-and-forward also stores the whole packet at the injection port.
            for r in netlist.routers() {
                let local = &r.ports[0];
                if r.config.switching == Switching::Saf
                    && local.buffer_depth.flits().is_some_and(|d| d < max)
                {
                    return Err(ConfigError::SafInjectionTooShallow {
                        router: r.name.clone(),
                        port: local.name.clone(),
                        depth: local.buffer_depth,
                        max,
                    });
                }
            }
            Ok(())
        }
        None => {
            let bounded = netlist.routers().find(|r| {
                matches!(r.config.switching, Switching::Vct | Switching::Saf)
                    && r.ports
                        .iter()
                        .any(|p| matches!(p.buffer_depth, BufferDepth::Flits(_)))
            });
            match bounded {
                Some(r) => Err(ConfigError::NoLongestPacket {
                    router: r.name.clone(),
                    switching: match r.config.switching {
                        Switching::Saf => "saf",
                        _ => "vct",
                    },
                    lengths: lengths.to_string(),
                }),
                None => Ok(()),
            }
        }
    }
}
