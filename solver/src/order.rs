//! Move orders: which successor the depth-first search tries first.

use std::fmt;
use std::str::FromStr;

/// A move order of the report's section 4, selected by name on the command line and in
/// sweep files.
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
    MonteCarlo { playouts: u32, levels: u32 },
    /// A seeded uniformly random order at every expansion.
    Random,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown move order '{0}': expected standard, most-options, monte-carlo, monte-carlo:K,L (K playouts on the first L levels) or random"
)]
pub struct OrderError(pub String);

impl FromStr for Order {
    type Err = OrderError;

    fn from_str(text: &str) -> Result<Order, OrderError> {
        let err = || OrderError(text.to_string());
        match text.trim() {
            "standard" => Ok(Order::Standard),
            "most-options" => Ok(Order::MostOptions),
            "random" => Ok(Order::Random),
            "monte-carlo" => Ok(Order::MonteCarlo {
                playouts: 100,
                levels: 3,
            }),
            other => {
                let args = other.strip_prefix("monte-carlo:").ok_or_else(err)?;
                let (k, l) = args.split_once(',').ok_or_else(err)?;
                let playouts: u32 = k.trim().parse().map_err(|_| err())?;
                let levels: u32 = l.trim().parse().map_err(|_| err())?;
                if playouts == 0 {
                    return Err(err());
                }
                Ok(Order::MonteCarlo { playouts, levels })
            }
        }
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
        }
    }
}
