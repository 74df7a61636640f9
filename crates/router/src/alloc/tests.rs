//! Allocator tests: each allocation path against a plain model from the definitions, and
//! each one-word fast path against the general path it stands in for.

use super::*;
use crate::mask;
use flitsim_netlist::{AllocatorKind, ArbiterKind};
use proptest::prelude::*;

const KINDS: [AllocatorKind; 2] = [
    AllocatorKind::SeparableInputFirst,
    AllocatorKind::SeparableOutputFirst,
];
// The fair kinds: the skipping round-robin starves requesters (its own test, `arbiter`).
const ARBS: [ArbiterKind; 2] = [ArbiterKind::RoundRobin, ArbiterKind::Matrix];

fn matrix(rows: usize, cols: usize, bits: &[bool]) -> RequestMatrix {
    let mut m = BitMatrix::new(rows, cols);
    for r in 0..rows {
        for c in 0..cols {
            if bits[(r * cols + c) % bits.len()] {
                m.set(r, c);
            }
        }
    }
    m
}

/// The set bits of a [`WordMatrix`] as `(row, col)` pairs, row-major.
fn word_ones(m: &WordMatrix) -> Vec<(usize, usize)> {
    let mut ones = Vec::new();
    for r in mask::ones(&[m.rows()]) {
        ones.extend(mask::ones(&[m.row(r)]).map(|c| (r, c)));
    }
    ones
}

#[test]
fn word_matrix_sets_reads_and_clears() {
    let mut m = WordMatrix::new();
    m.set(0, 63);
    m.set(63, 0);
    m.set(5, 7);
    m.set(5, 9);
    assert_eq!(m.rows(), 1 | 1 << 5 | 1 << 63);
    assert_eq!(
        (m.row(0), m.row(5), m.row(63)),
        (1 << 63, 1 << 7 | 1 << 9, 1)
    );
    assert_eq!(word_ones(&m), vec![(0, 63), (5, 7), (5, 9), (63, 0)]);
    let kept = m.clone();
    m.clear();
    assert_eq!(m, WordMatrix::default());
    m = kept;
    let rows: Vec<_> = m.drain().collect();
    assert_eq!(rows, vec![(0, 1 << 63), (5, 1 << 7 | 1 << 9), (63, 1)]);
    assert_eq!(m, WordMatrix::default());
}

/// A plain model of an arbiter, from its definition: round-robin grants the first
/// requester at or after the pointer (cyclically); matrix grants the requester served
/// least recently (never served: lower index first).
struct PlainArbiter {
    kind: ArbiterKind,
    n: usize,
    pointer: usize,
    served: Vec<i64>,
    t: i64,
}

impl PlainArbiter {
    fn new(kind: ArbiterKind, n: usize) -> PlainArbiter {
        let served = (0..n).map(|i| i as i64 - n as i64).collect();
        PlainArbiter {
            kind,
            n,
            // The skipping rule starts at requester 1 (`RoundRobinArbiter::skipping`).
            pointer: usize::from(kind == ArbiterKind::RoundRobinSkip) % n.max(1),
            served,
            t: 0,
        }
    }
    fn pick(&self, req: &[bool]) -> Option<usize> {
        match self.kind {
            ArbiterKind::RoundRobin | ArbiterKind::RoundRobinSkip => (0..self.n)
                .map(|k| (self.pointer + k) % self.n)
                .find(|&i| req[i]),
            ArbiterKind::Matrix => (0..self.n)
                .filter(|&i| req[i])
                .min_by_key(|&i| self.served[i]),
        }
    }
    fn update(&mut self, w: usize) {
        let step = if self.kind == ArbiterKind::RoundRobinSkip {
            2
        } else {
            1
        };
        self.pointer = (w + step) % self.n;
        self.served[w] = self.t;
        self.t += 1;
    }
}

/// A plain separable allocator on `Vec<bool>` matrices, from the definitions in
/// `separable_input_first.rs` and `separable_output_first.rs`.
fn plain_allocate(
    kind: AllocatorKind,
    rows_arb: &[PlainArbiter],
    cols_arb: &[PlainArbiter],
    req: &[Vec<bool>],
) -> Vec<(usize, usize)> {
    let (rows, cols) = (req.len(), req[0].len());
    let mut mid = vec![vec![false; cols]; rows];
    let mut grants = Vec::new();
    match kind {
        AllocatorKind::SeparableInputFirst => {
            for r in 0..rows {
                if let Some(c) = rows_arb[r].pick(&req[r]) {
                    mid[r][c] = true;
                }
            }
            for c in 0..cols {
                let col: Vec<bool> = (0..rows).map(|r| mid[r][c]).collect();
                if let Some(r) = cols_arb[c].pick(&col) {
                    grants.push((r, c));
                }
            }
        }
        AllocatorKind::SeparableOutputFirst => {
            for c in 0..cols {
                let col: Vec<bool> = (0..rows).map(|r| req[r][c]).collect();
                if let Some(r) = cols_arb[c].pick(&col) {
                    mid[r][c] = true;
                }
            }
            for r in 0..rows {
                if let Some(c) = rows_arb[r].pick(&mid[r]) {
                    grants.push((r, c));
                }
            }
        }
        _ => unreachable!("the separable kinds only"),
    }
    grants.sort_unstable();
    grants
}

/// `bytes` of a matrix and of an allocator is what `new` allocates (the vectors'
/// capacities), for one-word and multi-word shapes, word banks and vectors of
/// arbiters, every kind.
#[test]
fn bytes_are_what_new_allocates() {
    for (rows, cols) in [
        (0, 0),
        (1, 1),
        (6, 6),
        (20, 20),
        (64, 64),
        (65, 3),
        (3, 65),
        (130, 70),
    ] {
        assert_eq!(
            BitMatrix::bytes(rows, cols),
            BitMatrix::new(rows, cols).heap_bytes(),
            "{rows} x {cols}"
        );
        for kind in KINDS.into_iter().chain(OTHERS) {
            for arb in ARBS {
                assert_eq!(
                    Allocator::bytes(kind, arb, rows, cols),
                    Allocator::new(kind, arb, rows, cols).heap_bytes(),
                    "{kind:?} {arb:?} {rows} x {cols}"
                );
            }
        }
    }
    // A 6 x 6 matrix: one word per row and the row mask.
    assert_eq!(BitMatrix::bytes(6, 6), (6 + 1) * 8);
    // Matrix arbiters, one per row over 130 columns and one per column over 130 rows:
    // each a vector of arbiters (40 bytes each) and 130 rows of 3 words per arbiter.
    let words = |rows: u64, cols: u64| (rows * cols.div_ceil(64) + rows.div_ceil(64)) * 8;
    assert_eq!(std::mem::size_of::<crate::arbiter::MatrixArbiter>(), 40);
    assert_eq!(
        Allocator::bytes(
            AllocatorKind::SeparableInputFirst,
            ArbiterKind::Matrix,
            130,
            130
        ),
        2 * 130 * (40 + 130 * 3 * 8) + words(130, 130)
    );
}

/// A request matrix drawn from `seed` (each bit set with probability `density`/16), as a
/// `BitMatrix` and as plain booleans for the reference models.
fn random_requests(
    rows: usize,
    cols: usize,
    seed: u64,
    density: u64,
) -> (BitMatrix, Vec<Vec<bool>>) {
    let mut x = seed;
    let mut req = BitMatrix::new(rows, cols);
    let mut plain = vec![vec![false; cols]; rows];
    for (r, row) in plain.iter_mut().enumerate() {
        for (c, bit) in row.iter_mut().enumerate() {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if (x >> 60) < density {
                req.set(r, c);
                *bit = true;
            }
        }
    }
    (req, plain)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Over sizes past one word, a sequence of allocations grants exactly what the
    /// plain model grants, and priorities move the same way.
    #[test]
    fn allocators_follow_the_plain_model(
        rows in 1usize..140, cols in 1usize..140,
        seeds in proptest::collection::vec(any::<u64>(), 1..6),
        density in 1u64..8,
    ) {
        for kind in KINDS { for arb in ARBS {
            let mut a = Allocator::new(kind, arb, rows, cols);
            let mut g = BitMatrix::new(rows, cols);
            let mut ra: Vec<_> = (0..rows).map(|_| PlainArbiter::new(arb, cols)).collect();
            let mut ca: Vec<_> = (0..cols).map(|_| PlainArbiter::new(arb, rows)).collect();
            for &seed in &seeds {
                let (req, plain) = random_requests(rows, cols, seed, density);
                a.allocate(&req, &mut g);
                let want = plain_allocate(kind, &ra, &ca, &plain);
                prop_assert_eq!(g.ones().collect::<Vec<_>>(), want.clone());
                a.update(&g);
                for &(r, c) in &want {
                    ra[r].update(c);
                    ca[c].update(r);
                }
            }
        }}
    }
}

proptest! {
    /// Grants are a subset of requests, at most one per row and per column, and a
    /// request matrix with any request gets at least one grant (separable allocators
    /// are maximal-ish: the first row/column choice always finds a winner).
    #[test]
    fn grants_are_a_matching_within_requests(
        rows in 1usize..10, cols in 1usize..10,
        bits in proptest::collection::vec(any::<bool>(), 1..100),
    ) {
        let req = matrix(rows, cols, &bits);
        for kind in KINDS { for arb in ARBS {
            let mut a = Allocator::new(kind, arb, rows, cols);
            let mut g = BitMatrix::new(rows, cols);
            // The same allocator driven through `allocate_word` on a `WordMatrix` (grants
            // in place of the requests) and `update_grant`.
            let mut w = Allocator::new(kind, arb, rows, cols);
            let mut wreq = WordMatrix::new();
            for (r, c) in req.ones() {
                wreq.set(r, c);
            }
            for _ in 0..3 {
                a.allocate(&req, &mut g);
                let used: Vec<_> = g.ones().collect();
                let mut wg = wreq.clone();
                w.allocate_word(&mut wg);
                prop_assert_eq!(word_ones(&wg), used.clone());
                for (r, c) in used {
                    w.update_grant(r, c);
                }
                wg.clear();
                prop_assert_eq!(&wg, &WordMatrix::new());
                for (r, c) in g.ones() { prop_assert!(req.get(r, c)); }
                for r in 0..rows { prop_assert!(g.row_bits(r).count_ones() <= 1); }
                for c in 0..cols {
                    prop_assert!((0..rows).filter(|&r| g.get(r, c)).count() <= 1);
                }
                prop_assert_eq!(req.is_empty(), g.is_empty());
                if req.is_matching() {
                    prop_assert_eq!(&g, &req);
                }
                a.update(&g);
            }
        }}
    }

    /// One requesting row: `allocate` (the row arbiter alone) grants what the full
    /// separable allocation grants, and priorities then move the same way, from
    /// priorities left by earlier allocations of any requests.
    #[test]
    fn a_lone_row_gets_the_separable_grant(
        rows in 1usize..=64, cols in 1usize..=64,
        history in proptest::collection::vec(any::<bool>(), 1..100),
        rounds in proptest::collection::vec((any::<usize>(), any::<u64>()), 1..12),
    ) {
        let warm = matrix(rows, cols, &history);
        let col_mask = if cols == 64 { u64::MAX } else { (1 << cols) - 1 };
        for kind in KINDS { for arb in ARBS {
            let mut a = Allocator::new(kind, arb, rows, cols);
            let mut g = BitMatrix::new(rows, cols);
            // Priorities moved by a full allocation first.
            a.allocate(&warm, &mut g);
            a.update(&g);
            let mut full = a.clone();
            let mut fg = BitMatrix::new(rows, cols);
            for &(r, bits) in &rounds {
                let (r, bits) = (r % rows, bits & col_mask);
                let mut req = BitMatrix::new(rows, cols);
                for c in mask::ones(&[bits]) {
                    req.set(r, c);
                }
                a.allocate(&req, &mut g);
                full.allocate_arbitrated(&req, &mut fg);
                prop_assert_eq!(&g, &fg);
                a.update(&g);
                full.update(&fg);
                // Same priorities: the same grants for a contended request next.
                a.allocate_arbitrated(&warm, &mut g);
                full.allocate_arbitrated(&warm, &mut fg);
                prop_assert_eq!(&g, &fg);
            }
        }}
    }

    /// Requests contended on one side only: `allocate_word_one_per_row` (each row
    /// requests one column) and `allocate_word_one_per_col` (no column requested by two
    /// rows) grant what `allocate_word` grants, from priorities left by earlier
    /// allocations of any requests.
    #[test]
    fn one_sided_requests_get_the_separable_grants(
        rows in 1usize..=64, cols in 1usize..=64,
        history in proptest::collection::vec(any::<bool>(), 1..100),
        picks in proptest::collection::vec(any::<u64>(), 64),
    ) {
        let warm = matrix(rows, cols, &history);
        for kind in KINDS { for arb in ARBS {
            let mut a = Allocator::new(kind, arb, rows, cols);
            let mut g = BitMatrix::new(rows, cols);
            for _ in 0..3 {
                a.allocate(&warm, &mut g);
                a.update(&g);
            }
            // Row r requests column picks[r] / 4 % cols, or nothing when picks[r] % 4 is 0.
            let mut one_per_row = WordMatrix::new();
            let mut by_col = [0u64; 64];
            let mut requested = 0u64;
            for (r, &x) in picks.iter().enumerate().take(rows).filter(|(_, &x)| x % 4 != 0) {
                let c = (x / 4) as usize % cols;
                one_per_row.set(r, c);
                by_col[c] |= 1 << r;
                requested |= 1 << c;
            }
            let mut want = one_per_row.clone();
            a.allocate_word(&mut want);
            let mut got = one_per_row;
            a.allocate_word_one_per_row(&mut got, requested, |c| by_col[c]);
            prop_assert_eq!(&got, &want);
            // Column c is requested by row picks[c] / 4 % rows, or by none.
            let mut one_per_col = WordMatrix::new();
            for (c, &x) in picks.iter().enumerate().take(cols).filter(|(_, &x)| x % 4 != 0) {
                one_per_col.set((x / 4) as usize % rows, c);
            }
            let mut want = one_per_col.clone();
            a.allocate_word(&mut want);
            let mut got = one_per_col;
            a.allocate_word_one_per_col(&mut got);
            prop_assert_eq!(&got, &want);
        }}
    }

    /// A request that stays asserted is granted within rows * cols rounds, whatever
    /// the other requests are (and they stay asserted too: the worst case).
    #[test]
    fn no_starvation(
        rows in 1usize..6, cols in 1usize..6,
        bits in proptest::collection::vec(any::<bool>(), 1..40),
        pick in any::<usize>(),
    ) {
        let mut req = matrix(rows, cols, &bits);
        let (vr, vc) = (pick % rows, (pick / rows) % cols);
        req.set(vr, vc);
        for kind in KINDS { for arb in ARBS {
            let mut a = Allocator::new(kind, arb, rows, cols);
            let mut g = BitMatrix::new(rows, cols);
            let mut won = false;
            for _ in 0..rows * cols {
                a.allocate(&req, &mut g);
                a.update(&g);
                if g.get(vr, vc) { won = true; break; }
            }
            prop_assert!(won, "{:?}/{:?}: ({}, {}) starved", kind, arb, vr, vc);
        }}
    }
}

/// Grants as `(row, col)` pairs.
type Grants = Vec<(usize, usize)>;

/// A plain model of the iterative and wavefront allocators on `Vec<bool>` matrices, from
/// their definitions (`islip.rs`, `wavefront.rs`, `pim.rs`), with its own priorities.
struct PlainOther {
    kind: AllocatorKind,
    iters: u8,
    rows_arb: Vec<PlainArbiter>,
    cols_arb: Vec<PlainArbiter>,
    /// Wavefront: the priority diagonal.
    diagonal: usize,
    /// PIM: the same stream as the allocator's.
    rng: rand_pcg::Pcg64Mcg,
}

impl PlainOther {
    fn new(
        kind: AllocatorKind,
        arb: ArbiterKind,
        iters: u8,
        seed: u64,
        rows: usize,
        cols: usize,
    ) -> PlainOther {
        use rand::SeedableRng;
        PlainOther {
            kind,
            iters,
            rows_arb: (0..rows).map(|_| PlainArbiter::new(arb, cols)).collect(),
            cols_arb: (0..cols).map(|_| PlainArbiter::new(arb, rows)).collect(),
            diagonal: 0,
            rng: rand_pcg::Pcg64Mcg::seed_from_u64(seed),
        }
    }

    /// A uniformly random true index of `bits`, as PIM draws it.
    fn random(&mut self, bits: &[bool]) -> Option<usize> {
        use rand::RngExt;
        let ones: Vec<usize> = (0..bits.len()).filter(|&i| bits[i]).collect();
        match ones.len() {
            0 => None,
            1 => Some(ones[0]),
            n => Some(ones[self.rng.random_range(0..n as u32) as usize]),
        }
    }

    /// The grants (sorted) and, for iSLIP, the first round's grants.
    fn allocate(&mut self, req: &[Vec<bool>]) -> (Grants, Grants) {
        let (rows, cols) = (req.len(), req[0].len());
        if self.kind == AllocatorKind::Wavefront {
            let n = rows.max(cols);
            let (mut row_free, mut col_free) = (vec![true; rows], vec![true; cols]);
            let mut grants = Vec::new();
            for d in 0..n {
                for r in 0..rows {
                    let c = (self.diagonal + d + n - r) % n;
                    if c < cols && req[r][c] && row_free[r] && col_free[c] {
                        grants.push((r, c));
                        row_free[r] = false;
                        col_free[c] = false;
                    }
                }
            }
            grants.sort_unstable();
            return (grants, Vec::new());
        }
        let (mut row_free, mut col_free) = (vec![true; rows], vec![true; cols]);
        let (mut grants, mut first) = (Vec::new(), Vec::new());
        for round in 0..self.iters {
            let mut offers = vec![vec![false; cols]; rows];
            for c in (0..cols).filter(|&c| col_free[c]) {
                let col: Vec<bool> = (0..rows).map(|r| row_free[r] && req[r][c]).collect();
                let pick = match self.kind {
                    AllocatorKind::Pim => self.random(&col),
                    _ => self.cols_arb[c].pick(&col),
                };
                if let Some(r) = pick {
                    offers[r][c] = true;
                }
            }
            for (r, offered) in offers.iter().enumerate() {
                let pick = match self.kind {
                    AllocatorKind::Pim => self.random(offered),
                    _ => self.rows_arb[r].pick(offered),
                };
                if let Some(c) = pick {
                    grants.push((r, c));
                    row_free[r] = false;
                    col_free[c] = false;
                    if round == 0 {
                        first.push((r, c));
                    }
                }
            }
        }
        grants.sort_unstable();
        (grants, first)
    }

    /// The grants of the last allocation were used.
    fn update(
        &mut self,
        grants: &[(usize, usize)],
        first: &[(usize, usize)],
        rows: usize,
        cols: usize,
    ) {
        match self.kind {
            AllocatorKind::Wavefront if !grants.is_empty() => {
                self.diagonal = (self.diagonal + 1) % rows.max(cols);
            }
            AllocatorKind::Islip => {
                for &(r, c) in first {
                    self.rows_arb[r].update(c);
                    self.cols_arb[c].update(r);
                }
            }
            _ => {}
        }
    }
}

/// Every arbiter kind, the skipping round-robin too (the differential tests compare
/// paths, not fairness).
const ARBS3: [ArbiterKind; 3] = [
    ArbiterKind::RoundRobin,
    ArbiterKind::Matrix,
    ArbiterKind::RoundRobinSkip,
];

/// What an allocator keeps from one allocation to the next, for comparing two paths:
/// its arbiters, and iSLIP's first-round grants, the wavefront's priority, PIM's stream.
fn state(a: &Allocator) -> String {
    let (s, own) = match a {
        // With one round iSLIP's first-round grants are not read (every grant is one).
        Allocator::Islip(x) if x.one_round => (&x.s, String::new()),
        Allocator::Islip(x) => (&x.s, format!("{:?}", x.r.first)),
        Allocator::Wavefront(x) => (&x.s, format!("{} {}", x.priority, x.granted)),
        Allocator::Pim(x) => (&x.s, format!("{:?}", x.r.rng)),
        Allocator::InputFirst(x) => (&x.s, String::new()),
        Allocator::OutputFirst(x) => (&x.s, String::new()),
    };
    format!("{:?}\n{:?}\n{own}", s.row_arb, s.col_arb)
}

const OTHERS: [AllocatorKind; 3] = [
    AllocatorKind::Islip,
    AllocatorKind::Wavefront,
    AllocatorKind::Pim,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// iSLIP (1 to 4 rounds), wavefront and PIM, over sizes past one word, through
    /// `allocate` (one-word path up to 64, general past): a sequence of allocations grants
    /// exactly what the plain model grants, and priorities move the same way. The grants
    /// form a matching within the requests, and wavefront's is maximal.
    #[test]
    fn other_allocators_follow_the_plain_model(
        rows in 1usize..100, cols in 1usize..100,
        seeds in proptest::collection::vec(any::<u64>(), 1..6),
        density in 1u64..8, iters in 1u8..5, seed in any::<u64>(),
    ) {
        for kind in OTHERS { for arb in ARBS {
            let mut a = Allocator::configured(kind, arb, iters, seed, rows, cols);
            prop_assert_eq!(a.is_separable(), kind == AllocatorKind::Islip && iters == 1);
            let mut plain = PlainOther::new(kind, arb, iters, seed, rows, cols);
            let mut g = BitMatrix::new(rows, cols);
            for &s in &seeds {
                let (req, bits) = random_requests(rows, cols, s, density);
                a.allocate(&req, &mut g);
                let (want, first) = plain.allocate(&bits);
                let got: Vec<_> = g.ones().collect();
                prop_assert_eq!(&got, &want, "{:?}/{:?}", kind, arb);
                for r in 0..rows { prop_assert!(g.row_bits(r).count_ones() <= 1); }
                for c in 0..cols {
                    prop_assert!((0..rows).filter(|&r| g.get(r, c)).count() <= 1);
                }
                if kind == AllocatorKind::Wavefront {
                    // Maximal: no request with both its row and its column free.
                    for (r, c) in req.ones() {
                        prop_assert!(g.row_bits(r).any() || (0..rows).any(|q| g.get(q, c)));
                    }
                }
                // Half the updates through `update`, half grant by grant.
                if s % 2 == 0 {
                    a.update(&g);
                } else {
                    for (r, c) in g.ones() {
                        a.update_grant(r, c);
                    }
                }
                plain.update(&want, &first, rows, cols);
            }
        }}
    }

    /// The one-word paths of iSLIP (1 to 4 rounds), wavefront and PIM against their
    /// general path, over a sequence of random requests (sparse to full, a lone row
    /// among them): `allocate`, `allocate_word` on a `WordMatrix`, its one-sided variants
    /// and `lone_row` grant what the general path grants, and after the same updates the
    /// arbiters, iSLIP's first-round grants, the wavefront's priority and PIM's stream
    /// are the same.
    #[test]
    fn other_allocators_one_word_paths_match_the_general_path(
        rows in 1usize..=64, cols in 1usize..=64,
        seeds in proptest::collection::vec(any::<u64>(), 1..12),
        iters in 1u8..5, seed in any::<u64>(),
    ) {
        for kind in OTHERS { for arb in ARBS3 {
            let mut general = Allocator::configured(kind, arb, iters, seed, rows, cols);
            let mut word = general.clone();
            let mut g = BitMatrix::new(rows, cols);
            let mut h = BitMatrix::new(rows, cols);
            for (k, &s) in seeds.iter().enumerate() {
                let (mut req, _) = random_requests(rows, cols, s, 1 + s % 16);
                if k % 4 == 3 {
                    // A lone row: the row of the first request, or none.
                    let lone = req.ones().next().map(|(r, _)| r);
                    let mut one = BitMatrix::new(rows, cols);
                    for (r, c) in req.ones().filter(|&(r, _)| Some(r) == lone) {
                        one.set(r, c);
                    }
                    req = one;
                }
                general.allocate_general(&req, &mut g);
                let want: Vec<_> = g.ones().collect();
                let got = match k % 4 {
                    0 => {
                        word.allocate(&req, &mut h);
                        h.ones().collect::<Vec<_>>()
                    }
                    1 => {
                        let mut m = WordMatrix::new();
                        for (r, c) in req.ones() { m.set(r, c); }
                        word.allocate_word(&mut m);
                        word_ones(&m)
                    }
                    2 => {
                        let mut m = WordMatrix::new();
                        for (r, c) in req.ones() { m.set(r, c); }
                        // The one-sided variants' preconditions bind the separable kinds
                        // (iSLIP of one round) only.
                        let one_per_col = (0..cols)
                            .all(|c| (0..rows).filter(|&r| req.get(r, c)).count() <= 1);
                        let one_per_row = (0..rows).all(|r| req.row_bits(r).count_ones() <= 1);
                        let free = !word.is_separable();
                        if s % 2 == 0 && (free || one_per_col) {
                            word.allocate_word_one_per_col(&mut m);
                        } else if !(free || one_per_row) {
                            word.allocate_word(&mut m);
                        } else {
                            let by_col = |c: usize| {
                                (0..rows).filter(|&r| req.get(r, c)).fold(0u64, |w, r| w | 1 << r)
                            };
                            let cols_req = (0..cols).filter(|&c| by_col(c) != 0)
                                .fold(0u64, |w, c| w | 1 << c);
                            word.allocate_word_one_per_row(&mut m, cols_req, by_col);
                        }
                        word_ones(&m)
                    }
                    _ => {
                        let r = req.ones().next().map_or(s as usize % rows, |(r, _)| r);
                        let w = if req.is_empty() { 0 } else { req.row_word(r) };
                        word.lone_row(r, w).map(|c| (r, c)).into_iter().collect()
                    }
                };
                prop_assert_eq!(&got, &want, "{:?}/{:?} step {}", kind, arb, k);
                // The grants used: all, or all but the last (a grant left unused).
                let used = if s % 3 == 0 { want.len().saturating_sub(1) } else { want.len() };
                for &(r, c) in &want[..used] {
                    general.update_grant(r, c);
                    word.update_grant(r, c);
                }
                prop_assert_eq!(state(&general), state(&word), "{:?}/{:?} step {}", kind, arb, k);
            }
        }}
    }
    /// A request that stays asserted is granted within rows * cols rounds (wavefront,
    /// iSLIP) whatever the other requests are; PIM grants it within 200 (a random
    /// matching: the chance of losing 200 times is below 10^-8 at these sizes).
    #[test]
    fn other_allocators_do_not_starve(
        rows in 1usize..6, cols in 1usize..6,
        bits in proptest::collection::vec(any::<bool>(), 1..40),
        pick in any::<usize>(), iters in 1u8..4,
    ) {
        let mut req = matrix(rows, cols, &bits);
        let (vr, vc) = (pick % rows, (pick / rows) % cols);
        req.set(vr, vc);
        for kind in OTHERS { for arb in ARBS {
            let mut a = Allocator::configured(kind, arb, iters, 11, rows, cols);
            let mut g = BitMatrix::new(rows, cols);
            let limit = if kind == AllocatorKind::Pim { 200 } else { rows * cols };
            let won = (0..limit).any(|_| {
                a.allocate(&req, &mut g);
                a.update(&g);
                g.get(vr, vc)
            });
            prop_assert!(won, "{:?}/{:?}: ({}, {}) starved", kind, arb, vr, vc);
        }}
    }
}

/// A router holds two allocators inline, each the size of the largest kind: iSLIP and
/// PIM keep what they add to the separable state boxed, so no kind is larger than
/// separable output-first (its state and one matrix) and the tag.
#[test]
fn no_allocator_kind_is_larger_than_separable_output_first() {
    use std::mem::size_of;
    let of = size_of::<super::SeparableOutputFirst>();
    assert!(size_of::<super::Islip>() <= of);
    assert!(size_of::<super::Pim>() <= of);
    assert!(size_of::<super::Wavefront>() <= of);
    assert_eq!(size_of::<Allocator>(), of + 8);
}
