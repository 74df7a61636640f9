//! Markov models of virtual-channel occupancy.
