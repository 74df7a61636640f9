//! Queueing models (M/G/1 and friends).
