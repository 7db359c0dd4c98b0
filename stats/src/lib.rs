//! Intervals: Wilson for proportions, Student t for means, a seeded percentile bootstrap
//! for ratios of means.
//!
//! Everything here is deterministic: the bootstrap draws from a ChaCha stream with a fixed
//! seed, so the same dataset always gives the same report, byte for byte.
//!
//! A crate of its own so that the viewer and the tuner get the intervals without the
//! analysis and its Parquet and chart stack.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Resamples of every bootstrap interval. 2,000 keeps the Monte Carlo error of a 2.5%
/// percentile near 0.3 percentage points of coverage, and costs a few seconds at most
/// for a million paired games.
pub const BOOTSTRAP_RESAMPLES: usize = 2_000;

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proportion {
    /// Trials that succeeded.
    pub successes: u64,
    /// All trials.
    pub total: u64,
    /// `successes / total`.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// The Wilson score interval: unlike the normal approximation it stays inside [0, 1] and
/// is still sensible at 0 or `total` successes, which is common here (every 3x3 sample
/// game solvable, a budget that never succeeds).
pub fn wilson(successes: u64, total: u64) -> Proportion {
    if total == 0 {
        return Proportion {
            successes,
            total,
            value: f64::NAN,
            low: f64::NAN,
            high: f64::NAN,
        };
    }
    let n = total as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or `total` successes one end is exactly 0 or 1 in exact arithmetic; floating
    // point can land a hair inside, which would make a published 1.00000 fall "outside".
    Proportion {
        successes,
        total,
        value: p,
        low: if successes == 0 {
            0.0
        } else {
            (center - half).max(0.0)
        },
        high: if successes >= total {
            1.0
        } else {
            (center + half).min(1.0)
        },
    }
}

/// A sample mean with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mean {
    /// Values in the sample.
    pub count: u64,
    /// The sample mean.
    pub value: f64,
    /// The interval's lower end (NaN with fewer than two values).
    pub low: f64,
    /// The interval's upper end (NaN with fewer than two values).
    pub high: f64,
}

/// Mean and Student t interval. With one value there is no spread to estimate, so the
/// interval is NaN rather than a misleading zero width.
///
/// The t interval is symmetric; for counts (expansions are never negative) a heavy right
/// tail on few games can push its lower end below zero, which is impossible for the true
/// mean, so the lower end is cut at zero when every value is at least zero.
pub fn mean_t(values: &[f64]) -> Mean {
    let mut m = TwoPassMean::default();
    for &v in values {
        m.add(v);
    }
    for &v in values {
        m.add_spread(v);
    }
    m.finish()
}

/// [`mean_t`] over values met one at a time, without holding them: every value is given
/// to [`TwoPassMean::add`] in a first pass and to [`TwoPassMean::add_spread`] in a second,
/// in the same order; the sums are the ones [`mean_t`] makes, so the result is identical.
#[derive(Debug, Clone, Copy)]
pub struct TwoPassMean {
    count: u64,
    sum: f64,
    spread: f64,
    nonnegative: bool,
}

impl Default for TwoPassMean {
    fn default() -> Self {
        // -0.0, as `Iterator::sum` starts: -0.0 + x is exactly x.
        TwoPassMean {
            count: 0,
            sum: -0.0,
            spread: -0.0,
            nonnegative: true,
        }
    }
}

impl TwoPassMean {
    /// Adds a value in the first pass.
    pub fn add(&mut self, v: f64) {
        self.count += 1;
        self.sum += v;
        self.nonnegative &= v >= 0.0;
    }

    /// The mean of the first pass.
    pub fn mean(&self) -> f64 {
        self.sum / self.count as f64
    }

    /// Adds a value again in the second pass, after the first pass's mean is known.
    pub fn add_spread(&mut self, v: f64) {
        let mean = self.mean();
        self.spread += (v - mean) * (v - mean);
    }

    /// Values added in the first pass.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The mean with its Student t interval, from both passes.
    pub fn finish(&self) -> Mean {
        let count = self.count;
        if count == 0 {
            return Mean {
                count,
                value: f64::NAN,
                low: f64::NAN,
                high: f64::NAN,
            };
        }
        let n = count as f64;
        let mean = self.mean();
        if count < 2 {
            return Mean {
                count,
                value: mean,
                low: f64::NAN,
                high: f64::NAN,
            };
        }
        let var = self.spread / (n - 1.0);
        let half = t_quantile_975(n - 1.0) * (var / n).sqrt();
        let floor = if self.nonnegative {
            0.0
        } else {
            f64::NEG_INFINITY
        };
        Mean {
            count,
            value: mean,
            low: (mean - half).max(floor),
            high: mean + half,
        }
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom, by bisection on the CDF.
pub fn t_quantile_975(df: f64) -> f64 {
    if df.is_nan() || df < 1.0 {
        return f64::NAN;
    }
    if df > 1e7 {
        return Z95;
    }
    // Upper tail 0.025 at t: 0.5 * I_{df/(df+t^2)}(df/2, 1/2) = 0.025.
    let tail = |t: f64| 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    let (mut lo, mut hi) = (0.0f64, 20.0f64);
    while tail(hi) > 0.025 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) > 0.025 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-12 {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9; about 15 significant digits).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised incomplete beta function I_x(a, b) (continued fraction, Lentz).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_fraction(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..500 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// A ratio estimate with a 95% percentile-bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// Pairs in the sample.
    pub count: u64,
    /// The ratio of the sums.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// `sum(num) / sum(den)` over paired values (one pair per game), with a percentile
/// bootstrap interval that resamples games.
///
/// Resampling whole games keeps each game's two numbers together, which is what makes the
/// comparison paired: the spread between games (huge for expansions) then cancels instead
/// of swamping the difference between the two solvers. `label` seeds the stream, so two
/// different tables do not share their resamples and the report is reproducible.
pub fn paired_ratio(num: &[f64], den: &[f64], label: &str) -> Ratio {
    let len = num.len().min(den.len());
    let sum_den: f64 = den[..len].iter().sum();
    let sum_num: f64 = num[..len].iter().sum();
    let value = sum_num / sum_den;
    if len < 2 {
        return Ratio {
            count: len as u64,
            value,
            low: f64::NAN,
            high: f64::NAN,
        };
    }
    let mut rng = ChaCha8Rng::seed_from_u64(label_seed(label));
    let mut stats = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
    for _ in 0..BOOTSTRAP_RESAMPLES {
        let (mut a, mut b) = (0.0, 0.0);
        for _ in 0..len {
            let i = bounded(&mut rng, len as u64) as usize;
            if let (Some(x), Some(y)) = (num.get(i), den.get(i)) {
                a += x;
                b += y;
            }
        }
        let r = a / b;
        if r.is_finite() {
            stats.push(r);
        }
    }
    let (low, high) = percentile_interval(&mut stats);
    Ratio {
        count: len as u64,
        value,
        low,
        high,
    }
}

/// The mean of `values` with a percentile bootstrap interval that resamples them (games).
/// Used where the values are per-game predictions whose spread is far from normal; `label`
/// seeds the stream, as in [`paired_ratio`].
pub fn bootstrap_mean(values: &[f64], label: &str) -> Mean {
    let count = values.len() as u64;
    let value = values.iter().sum::<f64>() / values.len().max(1) as f64;
    if values.len() < 2 {
        return Mean {
            count,
            value: if values.is_empty() { f64::NAN } else { value },
            low: f64::NAN,
            high: f64::NAN,
        };
    }
    let mut rng = ChaCha8Rng::seed_from_u64(label_seed(label));
    let mut stats = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
    let len = values.len();
    for _ in 0..BOOTSTRAP_RESAMPLES {
        let mut sum = 0.0;
        for _ in 0..len {
            sum += values
                .get(bounded(&mut rng, len as u64) as usize)
                .copied()
                .unwrap_or(f64::NAN);
        }
        let m = sum / len as f64;
        if m.is_finite() {
            stats.push(m);
        }
    }
    let (low, high) = percentile_interval(&mut stats);
    Mean {
        count,
        value,
        low,
        high,
    }
}

/// The 2.5% and 97.5% percentiles (nearest rank) of `values`.
fn percentile_interval(values: &mut [f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
        values.get(rank - 1).copied().unwrap_or(f64::NAN)
    };
    (at(0.025), at(0.975))
}

/// FNV-1a of the label: a stable seed per table without a hash function that could change
/// between Rust versions.
fn label_seed(label: &str) -> u64 {
    label.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A uniform integer in `0..bound` (Lemire's multiply-and-reject), fixed here so that a
/// library update cannot change the report.
fn bounded(rng: &mut ChaCha8Rng, bound: u64) -> u64 {
    let bound = bound.max(1);
    let mut m = u128::from(rng.next_u64()) * u128::from(bound);
    if (m as u64) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(bound);
        }
    }
    (m >> 64) as u64
}

/// The median and other order statistics (nearest rank).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted.get(rank - 1).copied().unwrap_or(f64::NAN)
}

/// [`quantile`] of the values `counts` holds, as (value, how many times) sorted by value,
/// without expanding them: the same rank, found in the cumulative counts.
pub fn quantile_of_counts(counts: &[(i64, u64)], q: f64) -> f64 {
    let total: u64 = counts.iter().map(|c| c.1).sum();
    if total == 0 {
        return f64::NAN;
    }
    let rank = ((q * total as f64).ceil() as u64).clamp(1, total);
    let mut seen = 0u64;
    for &(value, count) in counts {
        seen += count;
        if seen >= rank {
            return value as f64;
        }
    }
    f64::NAN
}

/// Whether a published value lies inside our interval; `None` when we have no interval.
pub fn within(report: f64, low: f64, high: f64) -> Option<bool> {
    (low.is_finite() && high.is_finite()).then_some(low <= report && report <= high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_tables() {
        for (df, want) in [
            (1.0, 12.706_204_736),
            (2.0, 4.302_652_730),
            (5.0, 2.570_581_836),
            (10.0, 2.228_138_852),
            (30.0, 2.042_272_456),
            (1000.0, 1.962_339_081),
        ] {
            let got = t_quantile_975(df);
            assert!((got - want).abs() < 1e-6, "df {df}: {got} vs {want}");
        }
    }

    #[test]
    fn wilson_matches_known_values() {
        // 81 of 263 (a textbook example): 0.2553 .. 0.3662.
        let p = wilson(81, 263);
        assert!(
            (p.low - 0.2553).abs() < 5e-4 && (p.high - 0.3662).abs() < 5e-4,
            "{p:?}"
        );
        let all = wilson(10, 10);
        assert_eq!(all.high, 1.0);
        assert!(all.low > 0.69 && all.low < 0.73);
        assert!(wilson(0, 0).value.is_nan());
    }

    #[test]
    fn mean_interval_of_a_small_sample() {
        let m = mean_t(&[1.0, 2.0, 3.0, 4.0]);
        // sd = 1.29099, se = 0.645497, t(3) = 3.182446
        assert!((m.value - 2.5).abs() < 1e-12);
        assert!(
            (m.high - (2.5 + 3.182_446 * 0.645_497)).abs() < 1e-4,
            "{m:?}"
        );
        assert!(mean_t(&[5.0]).low.is_nan());
    }

    /// Quantiles of (value, count) pairs are those of the expanded, sorted values.
    #[test]
    fn quantiles_of_counts_match_the_expanded_values() {
        let counts = [(0i64, 3u64), (7, 1), (12, 5), (40_000, 2), (1 << 40, 1)];
        let mut expanded: Vec<f64> = Vec::new();
        for &(v, c) in &counts {
            expanded.extend(std::iter::repeat_n(v as f64, c as usize));
        }
        for q in [0.0, 0.1, 0.25, 0.5, 0.9, 0.99, 1.0] {
            assert_eq!(
                quantile_of_counts(&counts, q),
                quantile(&expanded, q),
                "q={q}"
            );
        }
        assert!(quantile_of_counts(&[], 0.5).is_nan());
    }

    #[test]
    fn bootstrap_is_reproducible_and_covers_the_estimate() {
        let num: Vec<f64> = (0..200).map(|i| f64::from(i % 17) + 1.0).collect();
        let den: Vec<f64> = (0..200).map(|i| f64::from(i % 13) + 2.0).collect();
        let a = paired_ratio(&num, &den, "x");
        let b = paired_ratio(&num, &den, "x");
        assert_eq!(a, b);
        assert!(a.low < a.value && a.value < a.high, "{a:?}");
    }
}
