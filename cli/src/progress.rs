//! Progress display and the end-of-sweep summary, shared by `hammer run`,
//! `hammer coordinator` and `hammer status`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use hammer_proto::v1::StatusResponse;
use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar on stderr when it is a terminal; otherwise a log line every few
/// seconds, so that logs of unattended runs still show progress without control codes.
pub struct Progress {
    bar: Option<ProgressBar>,
    last_line: Option<Instant>,
    every: Duration,
}

impl Progress {
    pub fn new(total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            let style = ProgressStyle::with_template(
                "{bar:40.cyan/blue} {human_pos}/{human_len} games  {per_sec}  ETA {eta}  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            last_line: None,
            every: Duration::from_secs(5),
        }
    }

    pub fn update(&mut self, status: &StatusResponse) {
        let done = status.games_committed + status.games_pending;
        match &self.bar {
            Some(bar) => {
                bar.set_length(status.games_total);
                bar.set_position(done);
                bar.set_message(format!("{} workers", status.workers));
            }
            None => {
                if self.last_line.is_none_or(|t| t.elapsed() >= self.every) {
                    self.last_line = Some(Instant::now());
                    eprintln!("{}", progress_line(status));
                }
            }
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// One line of progress: games done of total, rate, ETA.
pub fn progress_line(status: &StatusResponse) -> String {
    let done = status.games_committed + status.games_pending;
    let percent = if status.games_total == 0 {
        100.0
    } else {
        100.0 * done as f64 / status.games_total as f64
    };
    let rate = status.games_per_second;
    let eta = if status.complete {
        "done".to_owned()
    } else if rate > 0.0 {
        format_duration(Duration::from_secs_f64(
            status.games_total.saturating_sub(done) as f64 / rate,
        ))
    } else {
        "unknown".to_owned()
    };
    format!(
        "progress: {done}/{total} games ({percent:.1}%), {committed} committed, {rate}, ETA {eta}, {workers} workers, units {uc}/{ut} committed, {ul} leased",
        total = status.games_total,
        committed = status.games_committed,
        workers = status.workers,
        uc = status.units_committed,
        ut = status.units_total,
        ul = status.units_leased,
        rate = format_rate(rate),
    )
}

/// A rate of games in the unit that shows it with two or three digits: a sweep of
/// 8x8 games makes a few games a minute, a 5x5 sweep thousands a second.
pub fn format_rate(per_second: f64) -> String {
    if per_second >= 100.0 || per_second == 0.0 {
        format!("{per_second:.0} games/s")
    } else if per_second >= 1.0 {
        format!("{per_second:.1} games/s")
    } else if per_second * 60.0 >= 1.0 {
        format!("{:.1} games/min", per_second * 60.0)
    } else {
        format!("{:.1} games/h", per_second * 3600.0)
    }
}

pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials, or [0, 1] when nothing
/// has run yet. It is the analysis crate's, so the run summary and `hammer analyze`
/// always print the same interval.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let p = hammer_stats::wilson(k, n);
    (p.low, p.high)
}

/// The per experiment, size and configuration table of committed results. A sweep
/// whose points are more than a size (another family's parameters) is shown by point.
pub fn summary(status: &StatusResponse) -> String {
    let mut out = String::new();
    let by_point = status
        .experiments
        .iter()
        .any(|e| !e.params.is_empty() && e.params != format!("n={}", e.n));
    let header = [
        "experiment",
        if by_point { "params" } else { "n" },
        "config",
        "games",
        "solvable",
        "95% CI",
        "mean expansions",
    ];
    let mut rows: Vec<[String; 7]> = Vec::new();
    for e in &status.experiments {
        if e.games_committed == 0 {
            continue;
        }
        let (lo, hi) = wilson(e.solvable, e.games_committed);
        let games = if e.games_committed == e.games_total {
            e.games_committed.to_string()
        } else {
            format!("{}/{}", e.games_committed, e.games_total)
        };
        rows.push([
            e.experiment.clone(),
            if by_point {
                e.params.clone()
            } else {
                e.n.to_string()
            },
            e.config.clone(),
            games,
            format!("{:.3}", e.solvable as f64 / e.games_committed as f64),
            format!("[{lo:.3}, {hi:.3}]"),
            format!("{:.1}", e.expansions as f64 / e.games_committed as f64),
        ]);
    }
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: &[&str]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            // Text columns left-aligned, numbers right-aligned.
            if i <= 2 {
                s.push_str(&format!("{cell:<w$}  "));
            } else {
                s.push_str(&format!("{cell:>w$}  "));
            }
        }
        s.trim_end().to_owned() + "\n"
    };
    out.push_str(&line(&header));
    for row in &rows {
        out.push_str(&line(&row.each_ref().map(String::as_str)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{format_rate, wilson};

    #[test]
    fn rates_show_in_a_unit_that_keeps_their_digits() {
        assert_eq!(format_rate(0.0), "0 games/s");
        assert_eq!(format_rate(5_432.1), "5432 games/s");
        assert_eq!(format_rate(2.25), "2.2 games/s");
        assert_eq!(format_rate(2.0 / 60.0), "2.0 games/min");
        assert_eq!(format_rate(3.0 / 3600.0), "3.0 games/h");
    }

    #[test]
    fn wilson_matches_known_values() {
        // 8 of 10: Wilson 95% interval [0.490, 0.943].
        let (lo, hi) = wilson(8, 10);
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, _) = wilson(0, 50);
        assert_eq!(lo, 0.0);
    }
}
