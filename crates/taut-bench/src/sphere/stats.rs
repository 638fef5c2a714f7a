//! The statistics of the paper's tables: share below a threshold, min, quartiles, median,
//! mean, max and standard deviation of a sample of ratios.
//!
//! Conventions (the paper's implementation was Python, whose usual tools are pandas and
//! numpy): quantiles interpolate linearly between order statistics (numpy's default, "type 7"
//! of Hyndman and Fan: the q-quantile of n sorted values is at position q·(n − 1)), and the
//! standard deviation is the sample one (divisor n − 1, pandas' default; 0 for one value).

/// The distribution of a sample as one row of the paper's Tables 1–4.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Describe {
    /// Number of values.
    pub n: usize,
    /// Percentage of values strictly below the threshold given to [`describe`] ("% less").
    pub less_pct: f64,
    /// Smallest value.
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Third quartile.
    pub q3: f64,
    /// Largest value.
    pub max: f64,
    /// Sample standard deviation (divisor n − 1).
    pub stdev: f64,
}

/// The q-quantile (`0 <= q <= 1`) of `sorted` (ascending, non-empty) by linear interpolation
/// between order statistics: position `q·(n − 1)`.
///
/// # Panics
/// When `sorted` is empty.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    assert!(!sorted.is_empty(), "quantile of an empty sample");
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let frac = pos - lo as f64;
    sorted[lo] + (sorted[hi] - sorted[lo]) * frac
}

/// Describes the finite values of `values`; "% less" counts those strictly below `below`.
/// `None` when no value is finite.
pub fn describe(values: &[f64], below: f64) -> Option<Describe> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let mean = v.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    Some(Describe {
        n,
        less_pct: 100.0 * v.iter().filter(|&&x| x < below).count() as f64 / n as f64,
        min: v[0],
        q1: quantile_sorted(&v, 0.25),
        median: quantile_sorted(&v, 0.5),
        mean,
        q3: quantile_sorted(&v, 0.75),
        max: v[n - 1],
        stdev: var.sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn quartiles_interpolate_like_numpy() {
        // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) = [1.75, 2.5, 3.25].
        let d = describe(&[4.0, 1.0, 3.0, 2.0], 2.5).unwrap();
        assert_eq!(d.n, 4);
        assert!(close(d.q1, 1.75) && close(d.median, 2.5) && close(d.q3, 3.25));
        assert_eq!((d.min, d.max), (1.0, 4.0));
        assert!(close(d.mean, 2.5));
        // pandas Series([1, 2, 3, 4]).std() = 1.2909944487358056 (divisor n - 1).
        assert!(close(d.stdev, 1.2909944487358056));
        assert!(close(d.less_pct, 50.0));
        // Odd count: the median is the middle value; numpy gives Q1 = 2, Q3 = 4 for 1..=5.
        let d = describe(&[5.0, 3.0, 1.0, 4.0, 2.0], 1.0).unwrap();
        assert!(close(d.median, 3.0) && close(d.q1, 2.0) && close(d.q3, 4.0));
        // "% less" is strict: 1.0 itself is not below 1.0.
        assert!(close(d.less_pct, 0.0));
        // numpy.percentile(range(10), 95) = 8.55.
        let v: Vec<f64> = (0..10).map(f64::from).collect();
        assert!(close(quantile_sorted(&v, 0.95), 8.55));
    }

    #[test]
    fn stdev_and_share_below() {
        // The classic sample 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population sd 2, sample sd
        // sqrt(32 / 7).
        let d = describe(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0], 4.5).unwrap();
        assert!(close(d.mean, 5.0));
        assert!(close(d.stdev, (32.0f64 / 7.0).sqrt()));
        assert!(close(d.less_pct, 50.0));
        assert!(close(d.q1, 4.0) && close(d.median, 4.5) && close(d.q3, 5.5));
    }

    #[test]
    fn one_value_and_non_finite_values() {
        let d = describe(&[f64::NAN, 0.7, f64::INFINITY], 1.0).unwrap();
        assert_eq!(d.n, 1);
        assert_eq!(
            (d.min, d.q1, d.median, d.q3, d.max),
            (0.7, 0.7, 0.7, 0.7, 0.7)
        );
        assert_eq!(d.stdev, 0.0);
        assert!(close(d.less_pct, 100.0));
        assert!(describe(&[], 1.0).is_none());
        assert!(describe(&[f64::NAN], 1.0).is_none());
    }
}
