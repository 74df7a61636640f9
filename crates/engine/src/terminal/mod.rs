//! A terminal: generates packets into an infinite source queue, injects them one flit per
//! cycle onto its injection channel (into router input port 0), and consumes every flit
//! its ejection channel delivers.
//!
//! Timing: a packet generated at cycle `g` may put its head
//! on the injection channel at `g` itself if a VC is free. Packets leave the source queue
//! in FIFO order, one at a time; a packet takes the lowest-index injection VC whose
//! credits are all home and that no packet owns, and keeps it until its tail is sent.
//! Ejection never blocks: each arriving flit is consumed the cycle it arrives and its
//! credit is sent back at once (`credit_delay` 0 on the terminal side). Request/reply
//! traffic is the exception: a terminal whose reply queue is full refuses request tails
//! (see `reply.rs`).
//!
//! Within one step the order is: credits in, flit consumed, generation, injection. Only
//! the terminal's own random stream is drawn from, and only for generation: one Bernoulli
//! trial per cycle (then the destination and length of a generated packet). The trials are
//! drawn ahead, in cycle order, up to the next success (at most [`DRAW_AHEAD`] of them at a
//! time), so the stream and the results are those of one trial per step; the engine skips
//! the steps of an idle terminal in which nothing arrives up to the cycle
//! [`Terminal::look_ahead`] names.

mod delivery;
mod ejection;
mod fixed_vc;
mod injection;
mod records;
mod reply;
mod source;
mod state;
mod tally;

pub use delivery::Delivery;
pub use records::ReplyConfig;
pub use reply::{is_reply, ReplyWait, REPLY_BIT};
pub use state::{Terminal, TerminalConfig, DRAW_AHEAD};
pub use tally::Tally;

#[cfg(test)]
mod tests;
