//! Paper 000 (Quaglia, Ciciani, Colajanni 2002): adaptive wormhole routing on a 2-D torus.
