//! Run-length encoding of one first-move row.
//!
//! A row gives, for each column (target), the *set* of symbols allowed there: the optimal
//! out-edges, the direct move E for neighbours, or every symbol (the wildcard: the source
//! itself, or a target the source cannot reach). A run covers consecutive columns with one
//! symbol that is allowed in all of them.
//!
//! # The greedy is optimal
//!
//! The greedy extends the current run while the intersection of its columns' sets stays
//! non-empty, and starts a new run at the first column that would empty it. Whether columns
//! `a..b` fit in one run only depends on that intersection, and a sub-interval of a feasible
//! interval is feasible (its intersection is a superset). Let the greedy's runs end at
//! `g_1 < g_2 < ...` and any other valid encoding's at `o_1 < o_2 < ...`. By induction
//! `g_k >= o_k`: for `k = 1` the greedy's first run is the longest feasible prefix; if
//! `g_k >= o_k`, the greedy's run `k + 1` starts at `g_k`, and `g_k..o_{k+1}` (when not empty)
//! lies inside the other encoding's feasible run `o_k..o_{k+1}`, so it is feasible and the
//! greedy extends at least to `o_{k+1}`. Hence the greedy reaches the last column after no more
//! runs than any other encoding: its number of runs is the minimum for the row. (The choice
//! of symbol inside a run does not affect later runs: each run restarts from its first
//! column's own set.)

/// The symbol E ("go straight to the target") in a row under construction.
pub(crate) const DIRECT: u32 = u32::MAX;

/// Run-length encodes one row of `n` columns whose allowed sets are bitsets of `words` words
/// (bit `k < e_bit` is out-edge `k`, bit `e_bit` is E). `set_of(c)` is the set of column `c`.
/// `cur` is scratch of at least `words` words. Appends each run's first column to `starts`
/// and its symbol (an out-edge index, or [`DIRECT`]) to `symbols`; a run's symbol is E when
/// allowed throughout, else its smallest allowed out-edge.
pub(crate) fn encode_row<'a>(
    n: usize,
    words: usize,
    e_bit: usize,
    mut set_of: impl FnMut(usize) -> &'a [u64],
    cur: &mut [u64],
    starts: &mut Vec<u32>,
    symbols: &mut Vec<u32>,
) {
    let cur = &mut cur[..words];
    if n == 0 {
        return;
    }
    cur.copy_from_slice(&set_of(0)[..words]);
    let mut start = 0usize;
    for c in 1..n {
        let set = &set_of(c)[..words];
        let meets = cur.iter().zip(set).any(|(a, b)| a & b != 0);
        if meets {
            for (a, b) in cur.iter_mut().zip(set) {
                *a &= b;
            }
        } else {
            starts.push(start as u32);
            symbols.push(choose(cur, e_bit));
            start = c;
            cur.copy_from_slice(set);
        }
    }
    starts.push(start as u32);
    symbols.push(choose(cur, e_bit));
}

/// E when allowed, else the smallest allowed out-edge. `set` is not empty.
fn choose(set: &[u64], e_bit: usize) -> u32 {
    if set[e_bit / 64] >> (e_bit % 64) & 1 == 1 {
        return DIRECT;
    }
    for (i, &w) in set.iter().enumerate() {
        if w != 0 {
            return (i * 64) as u32 + w.trailing_zeros();
        }
    }
    unreachable!("a run's set of symbols is never empty")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Fewest runs by dynamic programming over all ways to cut the row.
    fn brute_min_runs(sets: &[u64]) -> usize {
        let n = sets.len();
        let mut best = vec![usize::MAX; n + 1];
        best[0] = 0;
        for end in 1..=n {
            for start in 0..end {
                let inter = sets[start..end].iter().fold(u64::MAX, |a, b| a & b);
                if inter != 0 && best[start] != usize::MAX {
                    best[end] = best[end].min(best[start] + 1);
                }
            }
        }
        best[n]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn greedy_is_minimal_and_decodes_to_allowed_symbols(
            deg in 0usize..6,
            raw in prop::collection::vec(1u64..u64::MAX, 0..14),
        ) {
            let e_bit = deg;
            let mask = (1u64 << (deg + 1)) - 1;
            // Non-empty sets over the deg + 1 symbols, with some wildcards (all symbols).
            let sets: Vec<u64> = raw
                .iter()
                .map(|&r| if r % 5 == 0 { mask } else { let s = r & mask; if s == 0 { 1 << (r % (deg as u64 + 1)) } else { s } })
                .collect();
            let mut starts = Vec::new();
            let mut symbols = Vec::new();
            let mut cur = [0u64; 1];
            encode_row(sets.len(), 1, e_bit, |c| std::slice::from_ref(&sets[c]), &mut cur, &mut starts, &mut symbols);
            prop_assert_eq!(starts.len(), brute_min_runs(&sets));
            if !sets.is_empty() {
                prop_assert_eq!(starts[0], 0);
            }
            prop_assert!(starts.windows(2).all(|w| w[0] < w[1]));
            for (c, &set) in sets.iter().enumerate() {
                let r = starts.partition_point(|&s| s as usize <= c) - 1;
                let bit = if symbols[r] == DIRECT { e_bit } else { symbols[r] as usize };
                prop_assert!(bit <= deg);
                prop_assert!(set >> bit & 1 == 1, "column {} gets symbol {} outside its set {:b}", c, symbols[r], set);
            }
        }
    }

    #[test]
    fn prefers_e_then_the_smallest_edge() {
        let sets = [0b110u64, 0b111, 0b011, 0b010];
        let (mut starts, mut symbols, mut cur) = (Vec::new(), Vec::new(), [0u64]);
        encode_row(
            4,
            1,
            2,
            |c| std::slice::from_ref(&sets[c]),
            &mut cur,
            &mut starts,
            &mut symbols,
        );
        // {1,E} ∩ {0,1,E} = {1,E}, ∩ {0,1} = {1}, ∩ {1} = {1}: one run, edge 1.
        assert_eq!((starts, symbols), (vec![0], vec![1]));
        let sets = [0b110u64, 0b111, 0b001];
        let (mut starts, mut symbols) = (Vec::new(), Vec::new());
        encode_row(
            3,
            1,
            2,
            |c| std::slice::from_ref(&sets[c]),
            &mut cur,
            &mut starts,
            &mut symbols,
        );
        assert_eq!((starts, symbols), (vec![0, 2], vec![DIRECT, 0]));
    }

    #[test]
    fn wide_sets() {
        // 130 symbols: E is bit 129, three words.
        let e_bit = 129;
        let mut a = [0u64; 3];
        a[2] |= 1 << 1; // E
        a[1] |= 1 << 5; // edge 69
        let mut b = [0u64; 3];
        b[1] |= 1 << 5;
        let sets = [a, a, b, a];
        let (mut starts, mut symbols, mut cur) = (Vec::new(), Vec::new(), [0u64; 3]);
        encode_row(
            4,
            3,
            e_bit,
            |c| &sets[c][..],
            &mut cur,
            &mut starts,
            &mut symbols,
        );
        assert_eq!((starts, symbols), (vec![0], vec![69]));
    }
}
