//! One module per subcommand; `src/main.rs` only parses arguments and calls these.

pub mod args;
pub mod buffers;
pub mod buffers_sizing;
pub mod check;
pub mod cost_args;
pub mod experiment;
pub mod failure;
pub mod import;
pub mod model;
pub mod netlist;
pub mod progress;
pub mod reproduce;
pub mod run;
pub mod sweep;
pub mod sweep_designs;
pub mod sweep_inputs;
pub mod trace;

/// `println!` that returns an `io::Error` instead of panicking when stdout is closed
/// (`flitsim ... | head`); `main` ends such a run quietly.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` that returns an `io::Error` instead of panicking (see `outln!`).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub(crate) use {out, outln};

/// Whether `e` comes from writing to a closed stdout (the reader, e.g. `head`, is gone).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
