//! The threads harness: immutable data shared by several threads, each with its own search
//! state, must answer exactly as one thread alone.

use std::fmt::Debug;

/// Compiles only when `T` may be shared between threads (`Send + Sync`). Call it in a constant
/// (`const _: () = assert_send_sync::<Grid>();`) to check at compile time.
pub const fn assert_send_sync<T: Send + Sync + ?Sized>() {}

/// Compiles only when `T` may be moved to another thread (`Send`): per-thread state such as a
/// search context.
pub const fn assert_send<T: Send + ?Sized>() {}

/// Runs `queries` on `threads` threads at once and asserts that every thread answers every
/// query exactly (`==`) as one thread alone; returns the answers of that single-threaded
/// reference run.
///
/// Each thread makes its own state with `new_state` (a search context, planners, an answer
/// buffer) and answers query `q` with `solve(&mut state, &q)`; everything else the closures
/// capture is shared. The reference runs the queries in order; thread `t` runs them all in
/// its own order (`i ↦ (i·k + 13·t) mod n` for a `k >= 7` prime to `n`), so that its state is
/// warm from different queries when it meets each one.
///
/// # Panics
/// When a thread answers a query differently (naming the thread, the query index and both
/// answers), when a thread panics, and when `queries` is empty (a vacuous test).
pub fn assert_threads_agree<Q, S, A>(
    threads: usize,
    queries: &[Q],
    new_state: impl Fn() -> S + Sync,
    solve: impl Fn(&mut S, &Q) -> A + Sync,
) -> Vec<A>
where
    Q: Sync,
    A: PartialEq + Debug + Send,
{
    let n = queries.len();
    assert!(n > 0, "no queries: the threads would agree vacuously");
    let run = |order: &mut dyn Iterator<Item = usize>| {
        let mut state = new_state();
        let mut answers: Vec<Option<A>> = (0..n).map(|_| None).collect();
        for i in order {
            answers[i] = Some(solve(&mut state, &queries[i]));
        }
        answers
            .into_iter()
            .map(|a| a.expect("the order is a permutation"))
            .collect::<Vec<A>>()
    };
    let k = (7..)
        .find(|&k| gcd(k, n) == 1)
        .expect("some k is prime to n");
    let reference = run(&mut (0..n));
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let run = &run;
                scope.spawn(move || run(&mut (0..n).map(|i| (i * k + t * 13) % n)))
            })
            .collect();
        for (t, h) in handles.into_iter().enumerate() {
            let answers = h
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            if let Some(i) = (0..n).find(|&i| answers[i] != reference[i]) {
                panic!(
                    "thread {t} of {threads} answered query {i} with {:?}, one thread alone with {:?}",
                    answers[i], reference[i]
                );
            }
        }
    });
    reference
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreeing_threads_pass_and_return_the_reference() {
        let queries: Vec<u64> = (0..14).collect();
        // Warm state that must not change the answers: a running count of queries seen.
        let answers = assert_threads_agree(
            3,
            &queries,
            || 0u64,
            |seen, &q| {
                *seen += 1;
                q * q
            },
        );
        assert_eq!(answers, queries.iter().map(|q| q * q).collect::<Vec<_>>());
    }

    #[test]
    #[should_panic(expected = "answered query")]
    fn answers_that_depend_on_the_order_fail() {
        let queries: Vec<u64> = (0..10).collect();
        assert_threads_agree(2, &queries, || 0u64, |last, &q| std::mem::replace(last, q));
    }

    const _: () = assert_send_sync::<Vec<u8>>();
    const _: () = assert_send::<std::cell::Cell<u8>>();
}
