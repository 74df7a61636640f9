//! Separable input-first allocator: each row's arbiter picks one of the row's requested
//! columns; then each column's arbiter picks one of the rows that picked it. A row
//! arbiter's priority moves only when its pick was granted (in `update`).

use super::{Allocator, GrantMatrix, RequestMatrix, Separable};
use flitsim_netlist::ArbiterKind;

/// Separable input-first allocator (see the module docs).
#[derive(Debug)]
pub struct SeparableInputFirst {
    s: Separable,
}

impl SeparableInputFirst {
    /// Over `rows x cols` with arbiters of `arbiter`.
    pub fn new(arbiter: ArbiterKind, rows: usize, cols: usize) -> SeparableInputFirst {
        SeparableInputFirst {
            s: Separable::new(arbiter, rows, cols),
        }
    }
}

impl Allocator for SeparableInputFirst {
    fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        let s = &mut self.s;
        debug_assert_eq!((req.rows(), req.cols()), (s.rows, s.cols));
        grant.clear();
        s.mid.clear();
        let mut any = false;
        for r in 0..s.rows {
            if let Some(c) = s.row_arb[r].arbitrate(req.row(r)) {
                s.mid.set(r, c);
                any = true;
            }
        }
        if !any {
            return;
        }
        for c in 0..s.cols {
            let mut n = 0;
            for r in 0..s.rows {
                let b = s.mid.get(r, c);
                s.scratch_rows.set(r, b);
                n += usize::from(b);
            }
            if n == 0 {
                continue;
            }
            if let Some(r) = s.col_arb[c].arbitrate(&s.scratch_rows) {
                grant.set(r, c);
            }
        }
    }

    fn update(&mut self, used: &GrantMatrix) {
        self.s.update(used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::BitMatrix;

    #[test]
    fn two_rows_wanting_one_column_share_it() {
        let mut a = SeparableInputFirst::new(ArbiterKind::RoundRobin, 2, 2);
        let mut req = BitMatrix::new(2, 2);
        req.set(0, 0);
        req.set(1, 0);
        let mut g = BitMatrix::new(2, 2);
        a.allocate(&req, &mut g);
        assert!(g.get(0, 0) && !g.get(1, 0));
        a.update(&g);
        a.allocate(&req, &mut g);
        assert!(g.get(1, 0) && !g.get(0, 0));
    }
}
