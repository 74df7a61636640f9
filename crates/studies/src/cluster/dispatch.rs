//! Rank 0 hands out jobs one at a time; the other ranks run them and send the results
//! back; rank 0 then sends every result to every rank.
//!
//! Messages (tags): a worker sends READY when it starts, and RESULT (job index and the
//! encoded result) or FAILED (job index and the panic message) after each job; rank 0
//! answers each with JOB (an index) or, when no job is left, STOP.

use super::codec::{decode, encode, join, split};
use super::held;
use super::Portable;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::Root;
use std::panic::{catch_unwind, AssertUnwindSafe};

const READY: i32 = 1;
const RESULT: i32 = 2;
const FAILED: i32 = 3;
const JOB: i32 = 4;
const STOP: i32 = 5;

/// `f` applied to every job, spread over the ranks; every rank returns the same vector, in
/// job order. Call it on every rank with the same jobs (each rank plans them alike).
pub fn map<T: Sync, R: Send + Portable>(jobs: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let world = SimpleCommunicator::world();
    let mut results = if world.rank() == 0 {
        hand_out(&world, jobs.len())
    } else {
        work(&world, jobs, &f);
        Vec::new()
    };
    broadcast(&world, &mut results);
    split(&results).into_iter().map(decode).collect()
}

/// Rank 0: answers every READY or RESULT with the next job or STOP, until every worker
/// has stopped; returns the encoded results joined in job order.
fn hand_out(world: &SimpleCommunicator, n: usize) -> Vec<u8> {
    let mut results: Vec<Option<Vec<u8>>> = vec![None; n];
    let mut next = 0;
    let mut working = world.size() - 1;
    while working > 0 {
        let (msg, status) = world.any_process().receive_vec::<u8>();
        let worker = world.process_at_rank(status.source_rank());
        match status.tag() {
            RESULT => {
                let (index, result) = msg.split_at(8);
                results[index_of(index)] = Some(result.to_vec());
            }
            FAILED => fail(world, status.source_rank(), &msg, n),
            _ => {}
        }
        if next < n {
            held::hand(status.source_rank(), next, n);
            worker.send_with_tag(&(next as u64).to_le_bytes()[..], JOB);
            next += 1;
        } else {
            held::release(status.source_rank());
            worker.send_with_tag(&[0u8; 0][..], STOP);
            working -= 1;
        }
    }
    let results: Vec<Vec<u8>> = results
        .into_iter()
        .map(|r| r.expect("every job handed out returned"))
        .collect();
    join(&results)
}

/// A worker: asks for jobs and runs them until rank 0 says STOP.
fn work<T, R: Portable>(world: &SimpleCommunicator, jobs: &[T], f: &impl Fn(&T) -> R) {
    let root = world.process_at_rank(0);
    root.send_with_tag(&[0u8; 0][..], READY);
    loop {
        let (msg, status) = root.receive_vec::<u8>();
        if status.tag() == STOP {
            return;
        }
        let index = index_of(&msg);
        let mut reply = msg.clone();
        match catch_unwind(AssertUnwindSafe(|| f(&jobs[index]))) {
            Ok(r) => {
                reply.extend(encode(&r));
                root.send_with_tag(&reply[..], RESULT);
            }
            Err(panic) => {
                reply.extend(panic_message(panic.as_ref()).into_bytes());
                root.send_with_tag(&reply[..], FAILED);
            }
        }
    }
}

/// Rank 0 sends its joined results to every rank (length first, then the bytes).
fn broadcast(world: &SimpleCommunicator, results: &mut Vec<u8>) {
    let root = world.process_at_rank(0);
    let mut len = results.len() as u64;
    root.broadcast_into(&mut len);
    results.resize(len as usize, 0);
    root.broadcast_into(&mut results[..]);
}

/// Rank 0 on a worker's failure: names the rank and the job, then ends the whole MPI job
/// before anything is written.
fn fail(world: &SimpleCommunicator, rank: i32, msg: &[u8], n: usize) -> ! {
    let (index, text) = msg.split_at(8);
    eprintln!(
        "error: rank {rank} failed while running job {} of {n}: {}",
        index_of(index) + 1,
        String::from_utf8_lossy(text)
    );
    eprintln!("help: no output was written; the same job fails alone in a one-process run");
    world.abort(70)
}

fn index_of(bytes: &[u8]) -> usize {
    u64::from_le_bytes(bytes[..8].try_into().expect("8-byte job index")) as usize
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}
