//! Restart schedules: how many expansions each attempt of a search may use.
//!
//! Between attempts the memo keeps every fully explored state, so restarting wastes no
//! finished work, and a schedule that ends in an unlimited attempt (or grows without
//! bound) always ends with an exact result.

use std::fmt;
use std::str::FromStr;

/// The attempts of a search, in order. `None` is an unlimited attempt.
#[derive(Clone, Debug, PartialEq)]
pub enum Schedule {
    /// One unlimited attempt: the plain exact depth-first search.
    Exact,
    /// The report's meta-solver: 1x10,000, 40x250, 60x1,000, 4x2,500, 1x10,000
    /// expansions, then "the regular limitless solver": an unlimited search in the
    /// standard order, whatever order the budgeted attempts use.
    Paper,
    /// `count x budget` phases, then an unlimited attempt if `then_exact`.
    List {
        /// Attempts and the expansion budget of each, in order.
        phases: Vec<(u32, u64)>,
        /// Whether an unlimited attempt follows the phases.
        then_exact: bool,
    },
    /// Luby's universal sequence 1, 1, 2, 1, 1, 2, 4, ... times `unit`, forever.
    Luby {
        /// Expansions of one step of the sequence.
        unit: u64,
    },
    /// `base`, `base * ratio`, `base * ratio^2`, ... forever.
    Geometric {
        /// The first attempt's budget.
        base: u64,
        /// The growth factor from one attempt to the next.
        ratio: f64,
    },
    /// The same cutoff for every attempt, forever (the fixed-cutoff strategy).
    Fixed {
        /// Every attempt's budget.
        cutoff: u64,
    },
}

/// Which schedule a [`Schedule`] is, without its budgets. Readers of a `schedule` column
/// match on it rather than on the names that [`Schedule`]'s `Display` writes, which belong
/// to this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScheduleKind {
    /// [`Schedule::Exact`].
    Exact,
    /// [`Schedule::Paper`].
    Paper,
    /// [`Schedule::List`], with any phases.
    List,
    /// [`Schedule::Luby`], with any unit.
    Luby,
    /// [`Schedule::Geometric`], with any base and ratio.
    Geometric,
    /// [`Schedule::Fixed`], with any cutoff.
    Fixed,
}

impl ScheduleKind {
    /// The kind of the schedule that `name` spells (as `Display` writes schedules), or
    /// `None` when `name` is no schedule.
    pub fn of_name(name: &str) -> Option<ScheduleKind> {
        name.parse::<Schedule>().ok().map(|s| s.kind())
    }
}

/// The phases of the report's meta-solver.
pub const PAPER_PHASES: [(u32, u64); 5] =
    [(1, 10_000), (40, 250), (60, 1_000), (4, 2_500), (1, 10_000)];

/// A schedule's text that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad schedule '{text}': {reason}. Expected exact, paper, luby:U, geometric:B,R, fixed:B, or a list such as 1x10000,40x250,exact"
)]
pub struct ScheduleError {
    /// The schedule as written.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Luby's sequence lives in the engine, whose searches restart by it too.
pub use hammer_puzzle::seeded::luby;

impl Schedule {
    /// Which schedule this is, without its budgets.
    pub fn kind(&self) -> ScheduleKind {
        match self {
            Schedule::Exact => ScheduleKind::Exact,
            Schedule::Paper => ScheduleKind::Paper,
            Schedule::List { .. } => ScheduleKind::List,
            Schedule::Luby { .. } => ScheduleKind::Luby,
            Schedule::Geometric { .. } => ScheduleKind::Geometric,
            Schedule::Fixed { .. } => ScheduleKind::Fixed,
        }
    }

    /// The budgets of the attempts, in order; `None` is unlimited. Infinite schedules
    /// give an endless iterator.
    pub fn budgets(&self) -> Box<dyn Iterator<Item = Option<u64>> + '_> {
        match self {
            Schedule::Exact => Box::new(std::iter::once(None)),
            Schedule::Paper => Box::new(
                PAPER_PHASES
                    .iter()
                    .flat_map(|&(count, budget)| std::iter::repeat_n(Some(budget), count as usize))
                    .chain(std::iter::once(None)),
            ),
            Schedule::List { phases, then_exact } => Box::new(
                phases
                    .iter()
                    .flat_map(|&(count, budget)| std::iter::repeat_n(Some(budget), count as usize))
                    .chain(then_exact.then_some(None)),
            ),
            Schedule::Luby { unit } => {
                Box::new((1u64..).map(move |i| Some(luby(i).saturating_mul(*unit))))
            }
            Schedule::Geometric { base, ratio } => Box::new((0i32..).map(move |k| {
                let b = (*base as f64) * ratio.powi(k);
                Some(if b >= 1e18 {
                    1_000_000_000_000_000_000
                } else {
                    b.round() as u64
                })
            })),
            Schedule::Fixed { cutoff } => Box::new(std::iter::repeat(Some(*cutoff))),
        }
    }

    /// The order of the final unlimited attempt, when the schedule fixes one.
    pub fn tail_order(&self) -> Option<crate::Order> {
        match self {
            Schedule::Paper => Some(crate::Order::Standard),
            _ => None,
        }
    }

    /// Whether the schedule may make more than one attempt at a game (restarts).
    pub fn restarts(&self) -> bool {
        match self {
            Schedule::Exact => false,
            Schedule::Paper
            | Schedule::Luby { .. }
            | Schedule::Geometric { .. }
            | Schedule::Fixed { .. } => true,
            Schedule::List { phases, then_exact } => {
                phases
                    .iter()
                    .map(|&(count, _)| u64::from(count))
                    .sum::<u64>()
                    + u64::from(*then_exact)
                    > 1
            }
        }
    }

    /// Whether the schedule ends with an exact result whatever the game: it ends in an
    /// unlimited attempt, or its budgets grow without bound.
    pub fn always_exact(&self) -> bool {
        match self {
            Schedule::Exact | Schedule::Paper | Schedule::Luby { .. } => true,
            Schedule::Geometric { .. } | Schedule::Fixed { .. } => true,
            Schedule::List { then_exact, .. } => *then_exact,
        }
    }
}

impl Schedule {
    /// A schedule from the text of a schedule file (as `hammer tune` writes): `#` starts
    /// a comment, and the remaining lines, trimmed, are joined into one schedule, so a
    /// long list may be wrapped over several lines.
    pub fn from_file_text(text: &str) -> Result<Schedule, ScheduleError> {
        let joined: String = text
            .lines()
            .map(|l| l.split_once('#').map_or(l, |(before, _)| before).trim())
            .collect();
        if joined.is_empty() {
            return Err(ScheduleError {
                text: String::new(),
                reason: "the schedule file holds no schedule (only comments or blank lines)"
                    .to_string(),
            });
        }
        joined.parse()
    }
}

fn parse_budget(text: &str, whole: &str) -> Result<u64, ScheduleError> {
    let cleaned: String = text.trim().chars().filter(|&c| c != '_').collect();
    match cleaned.parse::<u64>() {
        Ok(0) | Err(_) => Err(ScheduleError {
            text: whole.to_string(),
            reason: format!(
                "'{}' is not a positive whole number of expansions",
                text.trim()
            ),
        }),
        Ok(b) => Ok(b),
    }
}

impl FromStr for Schedule {
    type Err = ScheduleError;

    fn from_str(text: &str) -> Result<Schedule, ScheduleError> {
        let whole = text;
        let text = text.trim();
        let err = |reason: &str| ScheduleError {
            text: whole.to_string(),
            reason: reason.to_string(),
        };
        match text {
            "exact" => return Ok(Schedule::Exact),
            "paper" => return Ok(Schedule::Paper),
            "" => return Err(err("it is empty")),
            _ => {}
        }
        if let Some(u) = text.strip_prefix("luby:") {
            return Ok(Schedule::Luby {
                unit: parse_budget(u, whole)?,
            });
        }
        if let Some(b) = text.strip_prefix("fixed:") {
            return Ok(Schedule::Fixed {
                cutoff: parse_budget(b, whole)?,
            });
        }
        if let Some(args) = text.strip_prefix("geometric:") {
            let (b, r) = args.split_once(',').ok_or_else(|| {
                err("geometric takes a base and a ratio, such as geometric:100,2")
            })?;
            let base = parse_budget(b, whole)?;
            let ratio: f64 = r
                .trim()
                .parse()
                .map_err(|_| err(&format!("ratio '{}' is not a number", r.trim())))?;
            if !(ratio.is_finite() && ratio >= 1.0) {
                return Err(err("the ratio must be a number of at least 1"));
            }
            return Ok(Schedule::Geometric { base, ratio });
        }
        let mut phases = Vec::new();
        let mut then_exact = false;
        let items: Vec<&str> = text.split(',').collect();
        for (i, item) in items.iter().enumerate() {
            let item = item.trim();
            if item == "exact" || item == "inf" {
                if i + 1 != items.len() {
                    return Err(err("'exact' can only be the last item"));
                }
                then_exact = true;
                continue;
            }
            let (count, budget) = match item.split_once('x') {
                Some((c, b)) => {
                    let count: u32 = c.trim().parse().ok().filter(|&c| c > 0).ok_or_else(|| {
                        err(&format!("'{}' is not a positive attempt count", c.trim()))
                    })?;
                    (count, parse_budget(b, whole)?)
                }
                None => (1, parse_budget(item, whole)?),
            };
            phases.push((count, budget));
        }
        if phases.is_empty() {
            return Ok(Schedule::Exact);
        }
        Ok(Schedule::List { phases, then_exact })
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::Exact => f.write_str("exact"),
            Schedule::Paper => f.write_str("paper"),
            Schedule::Luby { unit } => write!(f, "luby:{unit}"),
            Schedule::Fixed { cutoff } => write!(f, "fixed:{cutoff}"),
            Schedule::Geometric { base, ratio } => write!(f, "geometric:{base},{ratio}"),
            Schedule::List { phases, then_exact } => {
                let mut items: Vec<String> = phases
                    .iter()
                    .map(|&(c, b)| {
                        if c == 1 {
                            b.to_string()
                        } else {
                            format!("{c}x{b}")
                        }
                    })
                    .collect();
                if *then_exact {
                    items.push("exact".into());
                }
                f.write_str(&items.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_files_drop_comments_and_join_lines() {
        let text = "# tuned\n2x100, # first\n 3x400,exact\n\n";
        assert_eq!(
            Schedule::from_file_text(text).unwrap().to_string(),
            "2x100,3x400,exact"
        );
        assert!(Schedule::from_file_text("# nothing\n").is_err());
        assert!(Schedule::from_file_text("2x100,banana").is_err());
    }

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn paper_schedule_matches_the_report() {
        let budgets: Vec<Option<u64>> = Schedule::Paper.budgets().collect();
        assert_eq!(budgets.len(), 1 + 40 + 60 + 4 + 1 + 1);
        assert_eq!(budgets[0], Some(10_000));
        assert_eq!(budgets[1], Some(250));
        assert_eq!(budgets[41], Some(1_000));
        assert_eq!(budgets[101], Some(2_500));
        assert_eq!(budgets[105], Some(10_000));
        assert_eq!(budgets[106], None);
        let total: u64 = budgets.iter().flatten().sum();
        assert_eq!(
            total, 100_000,
            "the report: 'none of these 100'000 explorations'"
        );
    }

    #[test]
    fn names_round_trip() {
        for text in [
            "exact",
            "paper",
            "luby:64",
            "fixed:1000",
            "geometric:100,1.5",
            "2x500,1000,exact",
            "3x250",
        ] {
            let s: Schedule = text.parse().unwrap();
            assert_eq!(s.to_string(), text);
            assert_eq!(ScheduleKind::of_name(text), Some(s.kind()));
        }
        assert_eq!(ScheduleKind::of_name("exact"), Some(ScheduleKind::Exact));
        assert_eq!(ScheduleKind::of_name("paper"), Some(ScheduleKind::Paper));
        assert_eq!(ScheduleKind::of_name("banana"), None);
        let s: Schedule = "geometric:100,2".parse().unwrap();
        let first: Vec<_> = s.budgets().take(4).collect();
        assert_eq!(first, [Some(100), Some(200), Some(400), Some(800)]);
    }

    #[test]
    fn bad_schedules_say_why() {
        for (text, needle) in [
            ("luby:0", "'0' is not a positive"),
            ("geometric:100", "base and a ratio"),
            ("geometric:100,0.5", "at least 1"),
            ("exact,100", "last item"),
            ("0x100", "attempt count"),
            ("fast", "'fast' is not a positive"),
        ] {
            let e = text.parse::<Schedule>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }
}
