//! Move orders: which successor the depth-first search tries first.

use std::fmt;
use std::str::FromStr;

/// A move order of the report's section 4, as a search runs it. Text names one as an
/// [`OrderSpec`], which [`OrderSpec::load`] turns into an `Order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The rules' order: horizontal, vertical, then double jumps, in board order.
    Standard,
    /// The successor with the most legal moves of its own first (ties keep the
    /// standard order).
    MostOptions,
    /// On the first `levels` levels, `playouts` random playouts per successor; the
    /// successor with the lowest minimum stone count over its playouts comes first.
    /// Deeper levels use the standard order.
    MonteCarlo {
        /// Random playouts per successor.
        playouts: u32,
        /// Levels of the search that use playouts.
        levels: u32,
    },
    /// A seeded uniformly random order at every expansion.
    Random,
    /// Ranked by a knowledge base of move transitions learned from solved games
    /// (`learned:PATH[,R[,T]]`, see [`crate::learned`]): `kb` is its index in the
    /// process's registry, `radius` the longest radius used and `temp_milli` the
    /// temperature in thousandths (0: ties keep the standard order; [`TEMP_UNSET`] until
    /// [`Order::for_schedule`] settles a temperature the text left out).
    Learned {
        /// The knowledge base's index in the registry.
        kb: u32,
        /// The longest radius of transitions used.
        radius: u8,
        /// The temperature in thousandths.
        temp_milli: u16,
    },
}

/// Which order an [`Order`] is, without its arguments. Readers of an `order` column match
/// on it rather than on the names that [`Order`]'s `Display` writes, which belong to this
/// crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    /// [`Order::Standard`].
    Standard,
    /// [`Order::MostOptions`].
    MostOptions,
    /// [`Order::MonteCarlo`], with any playouts and levels.
    MonteCarlo,
    /// [`Order::Random`].
    Random,
    /// [`Order::Learned`], with any knowledge base, radius and temperature.
    Learned,
}

impl OrderKind {
    /// The kind of the order that `name` spells (as `Display` writes orders and order
    /// specs), or `None` when `name` is no order. Reads no file.
    pub fn of_name(name: &str) -> Option<OrderKind> {
        name.parse::<OrderSpec>().ok().map(|spec| spec.kind())
    }
}

/// A learned order's temperature that its text left out (`learned:KB` or `learned:KB,R`);
/// [`Order::for_schedule`] replaces it.
pub const TEMP_UNSET: u16 = u16::MAX;

/// The temperature, in thousandths, that a learned order takes under a schedule with
/// restarts when its text gives none: with 0, every restart would repeat the same
/// attempt (docs/learned-order.md).
pub const RESTART_TEMP_MILLI: u16 = 100;

impl Order {
    /// Which order this is, without its arguments.
    pub fn kind(&self) -> OrderKind {
        match self {
            Order::Standard => OrderKind::Standard,
            Order::MostOptions => OrderKind::MostOptions,
            Order::MonteCarlo { .. } => OrderKind::MonteCarlo,
            Order::Random => OrderKind::Random,
            Order::Learned { .. } => OrderKind::Learned,
        }
    }

    /// The order as it runs under `schedule`. A learned order whose text left its
    /// temperature out takes 0 under one attempt and [`RESTART_TEMP_MILLI`] under
    /// restarts; a temperature of 0 written with restarts is refused, since every restart
    /// would search the same tree in the same order. Every other order is unchanged.
    pub fn for_schedule(self, schedule: &crate::Schedule) -> Result<Order, OrderError> {
        let Order::Learned {
            kb,
            radius,
            temp_milli,
        } = self
        else {
            return Ok(self);
        };
        let temp_milli = match (temp_milli, schedule.restarts()) {
            (TEMP_UNSET, true) => RESTART_TEMP_MILLI,
            (TEMP_UNSET, false) => 0,
            (0, true) => {
                return Err(OrderError::FrozenRestarts {
                    order: self.to_string(),
                    schedule: schedule.to_string(),
                });
            }
            (t, _) => t,
        };
        Ok(Order::Learned {
            kb,
            radius,
            temp_milli,
        })
    }

    /// Checks that the order can order a puzzle whose features have version `features`
    /// (its [`hammer_puzzle::MoveFeatures::VERSION`]) and, when `size` is given, boards
    /// of that size (the family's size: Martello's side): a learned order's knowledge
    /// base must have been learned with those features, on that size. Every other order
    /// fits every puzzle.
    pub fn check_learned(&self, features: u32, size: Option<u8>) -> Result<(), OrderError> {
        if let Order::Learned { kb, .. } = *self {
            let loaded = crate::learned::get(kb).ok_or(OrderError::Unloaded(kb))?;
            loaded
                .kb
                .check_features(features)
                .map_err(|problem| OrderError::Knowledge {
                    text: format!("learned:{}", loaded.path),
                    source: crate::learned::KbError {
                        path: loaded.path.clone(),
                        problem,
                    },
                })?;
            if let Some(n) = size.filter(|&n| n != loaded.kb.n) {
                return Err(OrderError::Size {
                    path: loaded.path.clone(),
                    kb: loaded.kb.n,
                    n,
                });
            }
        }
        Ok(())
    }
}

/// Why an order's text or its knowledge base was refused.
#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    /// A name that is no move order.
    #[error(
        "unknown move order '{0}': expected standard, most-options, monte-carlo, monte-carlo:K,L (K playouts on the first L levels), random or learned:KB[,R[,T]] (a knowledge base file, radius R, temperature T)"
    )]
    Unknown(String),
    /// A learned order whose text is malformed.
    #[error("move order '{text}': {problem}")]
    Learned {
        /// The order as written.
        text: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The knowledge base of a learned order could not be loaded.
    #[error("move order '{text}'")]
    Knowledge {
        /// The order as written.
        text: String,
        /// Why loading failed.
        #[source]
        source: crate::learned::KbError,
    },
    /// A knowledge base learned on another board size.
    #[error("move order 'learned:{path}': learned on {kb}x{kb} boards, not {n}x{n}")]
    Size {
        /// The knowledge base's path.
        path: String,
        /// Its board side.
        kb: u8,
        /// The board side searched.
        n: u8,
    },
    /// A registry index with no knowledge base behind it.
    #[error("no knowledge base {0} is loaded in this process")]
    Unloaded(u32),
    /// A deterministic learned order under a restarting schedule.
    #[error(
        "move order '{order}' with temperature 0 under schedule '{schedule}': every restart would repeat the same attempt; give a temperature above 0 (learned:KB,R,0.1), leave it out (restarts then take 0.1), or use the exact schedule"
    )]
    FrozenRestarts {
        /// The order as written.
        order: String,
        /// The schedule as written.
        schedule: String,
    },
}

/// A move order as text names it: a learned order names its knowledge base by path, and
/// parsing reads no file. [`OrderSpec::load`] reads the knowledge base where the order is
/// used and gives the [`Order`] a search runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderSpec {
    /// An order that needs no file.
    Plain(Order),
    /// `learned:PATH[,R[,T]][#DIGEST]`: `radius` is `u8::MAX` and `temp_milli`
    /// [`TEMP_UNSET`] when the text leaves them out; a digest (as `Display` writes it, so
    /// that a configuration names the very file it used) is checked on loading.
    Learned {
        /// The knowledge base file.
        path: String,
        /// The longest radius of transitions used.
        radius: u8,
        /// The temperature in thousandths.
        temp_milli: u16,
        /// The digest the file must have, if the text gives one.
        digest: Option<String>,
    },
}

impl OrderSpec {
    /// Which order the text names, without its arguments.
    pub fn kind(&self) -> OrderKind {
        match self {
            OrderSpec::Plain(order) => order.kind(),
            OrderSpec::Learned { .. } => OrderKind::Learned,
        }
    }

    /// The order a search runs: a learned order's knowledge base is read into the
    /// process's registry (once per file) and its digest checked. Which puzzle it can
    /// order is checked where the two meet ([`Order::check_learned`]).
    pub fn load(&self) -> Result<Order, OrderError> {
        let (path, radius, temp_milli, digest) = match self {
            OrderSpec::Plain(order) => return Ok(*order),
            OrderSpec::Learned {
                path,
                radius,
                temp_milli,
                digest,
            } => (path, *radius, *temp_milli, digest),
        };
        let kb = crate::learned::load(path).map_err(|source| OrderError::Knowledge {
            text: self.to_string(),
            source,
        })?;
        let loaded = crate::learned::get(kb).ok_or(OrderError::Unloaded(kb))?;
        if let Some(d) = digest
            && *d != format!("{:032x}", loaded.digest)
        {
            return Err(OrderError::Learned {
                text: self.to_string(),
                problem: format!(
                    "{path} has digest {:032x}, the configuration expects {d}",
                    loaded.digest
                ),
            });
        }
        Ok(Order::Learned {
            kb,
            radius: radius.min(loaded.kb.radius() as u8),
            temp_milli,
        })
    }
}

impl FromStr for OrderSpec {
    type Err = OrderError;

    fn from_str(text: &str) -> Result<OrderSpec, OrderError> {
        let err = || OrderError::Unknown(text.to_string());
        if let Some(spec) = text.trim().strip_prefix("learned:") {
            return parse_learned(text, spec);
        }
        let order = match text.trim() {
            "standard" => Order::Standard,
            "most-options" => Order::MostOptions,
            "random" => Order::Random,
            "monte-carlo" => Order::MonteCarlo {
                playouts: 100,
                levels: 3,
            },
            other => {
                let args = other.strip_prefix("monte-carlo:").ok_or_else(err)?;
                let (k, l) = args.split_once(',').ok_or_else(err)?;
                let playouts: u32 = k.trim().parse().map_err(|_| err())?;
                let levels: u32 = l.trim().parse().map_err(|_| err())?;
                if playouts == 0 {
                    return Err(err());
                }
                Order::MonteCarlo { playouts, levels }
            }
        };
        Ok(OrderSpec::Plain(order))
    }
}

/// `PATH[,R[,T]][#DIGEST]`, the text after `learned:`.
fn parse_learned(text: &str, spec: &str) -> Result<OrderSpec, OrderError> {
    let bad = |problem: String| OrderError::Learned {
        text: text.to_string(),
        problem,
    };
    let (spec, digest) = match spec.split_once('#') {
        Some((s, d)) => (s, Some(d.trim().to_string())),
        None => (spec, None),
    };
    let mut parts = spec.split(',');
    let path = parts.next().unwrap_or("").trim();
    if path.is_empty() {
        return Err(bad("no knowledge base file".into()));
    }
    let radius = match parts.next() {
        Some(r) => r
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|&r| r >= 1)
            .ok_or_else(|| bad(format!("radius '{r}' is not a whole number from 1")))?,
        None => u8::MAX,
    };
    let temp_milli = match parts.next() {
        Some(t) => t
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|t| (0.0..=60.0).contains(t))
            .map(|t| (t * 1000.0).round() as u16)
            .ok_or_else(|| bad(format!("temperature '{t}' is not a number from 0 to 60")))?,
        None => TEMP_UNSET,
    };
    if parts.next().is_some() {
        return Err(bad("expected learned:KB[,R[,T]]".into()));
    }
    Ok(OrderSpec::Learned {
        path: path.to_string(),
        radius,
        temp_milli,
        digest,
    })
}

impl fmt::Display for OrderSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, radius, temp_milli, digest) = match self {
            OrderSpec::Plain(order) => return order.fmt(f),
            OrderSpec::Learned {
                path,
                radius,
                temp_milli,
                digest,
            } => (path, radius, temp_milli, digest),
        };
        write!(f, "learned:{path}")?;
        if *radius != u8::MAX || *temp_milli != TEMP_UNSET {
            write!(f, ",{radius}")?;
        }
        if *temp_milli != TEMP_UNSET {
            write!(f, ",{}", *temp_milli as f64 / 1000.0)?;
        }
        if let Some(d) = digest {
            write!(f, "#{d}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Standard => f.write_str("standard"),
            Order::MostOptions => f.write_str("most-options"),
            Order::Random => f.write_str("random"),
            Order::MonteCarlo {
                playouts: 100,
                levels: 3,
            } => f.write_str("monte-carlo"),
            Order::MonteCarlo { playouts, levels } => write!(f, "monte-carlo:{playouts},{levels}"),
            Order::Learned {
                kb,
                radius,
                temp_milli,
            } => match crate::learned::get(*kb) {
                Some(l) if *temp_milli == TEMP_UNSET => {
                    write!(f, "learned:{},{radius}#{:032x}", l.path, l.digest)
                }
                Some(l) => {
                    let t = *temp_milli as f64 / 1000.0;
                    write!(f, "learned:{},{radius},{t}#{:032x}", l.path, l.digest)
                }
                None => write!(f, "learned:?{kb},{radius}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_of_the_names_display_writes() {
        let orders = [
            (Order::Standard, OrderKind::Standard),
            (Order::MostOptions, OrderKind::MostOptions),
            (Order::Random, OrderKind::Random),
            (
                Order::MonteCarlo {
                    playouts: 100,
                    levels: 3,
                },
                OrderKind::MonteCarlo,
            ),
            (
                Order::MonteCarlo {
                    playouts: 5,
                    levels: 2,
                },
                OrderKind::MonteCarlo,
            ),
        ];
        for (order, kind) in orders {
            assert_eq!(order.kind(), kind);
            assert_eq!(
                OrderKind::of_name(&order.to_string()),
                Some(kind),
                "{order}"
            );
        }
        let learned = "learned:kb.bin,3,0.1#00ff";
        assert_eq!(OrderKind::of_name(learned), Some(OrderKind::Learned));
        assert_eq!(OrderKind::of_name("standard (mean of runs)"), None);
        assert_eq!(OrderKind::of_name("exact"), None);
    }
}
