//! Every grid planner of the workspace by command-line name, and the factory that builds them.
//!
//! Algorithm crates know nothing of each other; this is the one place that lists them all.

use taut_anya::{AnyaPlanner, Options};
use taut_grid::{Grid, Planner};

/// A planner by its command-line name: a baseline of `taut-baselines` or Anya.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// `astar`, `theta`, `lazy-theta`, `vg` (see [`taut_baselines::Algo`]).
    Baseline(taut_baselines::Algo),
    /// `anya`: Anya (optimal any-angle lengths, online).
    Anya,
}

impl Algo {
    /// Every planner.
    pub const ALL: [Algo; 5] = {
        let b = taut_baselines::Algo::ALL;
        [
            Algo::Baseline(b[0]),
            Algo::Baseline(b[1]),
            Algo::Baseline(b[2]),
            Algo::Baseline(b[3]),
            Algo::Anya,
        ]
    };

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Baseline(b) => b.name(),
            Algo::Anya => "anya",
        }
    }
}

/// What a planner promises about its lengths, which decides what the bench checks them against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guarantee {
    /// The shortest 8-connected path: equal to a scenario file's octile column.
    OctileOptimal,
    /// The shortest any-angle path: equal to the reference optimum, never above the octile one.
    AnyAngleOptimal,
    /// A legal any-angle path, not necessarily shortest: never below the optimum.
    AnyAngleFeasible,
}

impl Algo {
    /// What this planner's lengths promise.
    pub fn guarantee(self) -> Guarantee {
        use taut_baselines::Algo as B;
        match self {
            Algo::Baseline(B::AStar) => Guarantee::OctileOptimal,
            Algo::Baseline(B::Theta | B::LazyTheta) => Guarantee::AnyAngleFeasible,
            Algo::Baseline(B::Vg) | Algo::Anya => Guarantee::AnyAngleOptimal,
        }
    }
}

impl std::fmt::Display for Algo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown planner name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?} (expected one of: astar, theta, lazy-theta, vg, anya)")]
pub struct UnknownAlgo(pub String);

impl std::str::FromStr for Algo {
    type Err = UnknownAlgo;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "anya" {
            return Ok(Algo::Anya);
        }
        s.parse()
            .map(Algo::Baseline)
            .map_err(|_| UnknownAlgo(s.to_owned()))
    }
}

/// Options that only some planners read (the others ignore them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tuning {
    /// Anya's pruning and root-history options.
    pub anya: Options,
}

/// Builds a planner for `grid`. The planner owns its search context; build one per thread.
pub fn make_planner<'g>(
    algo: Algo,
    grid: &'g Grid,
    tuning: &Tuning,
) -> Box<dyn Planner + Send + 'g> {
    match algo {
        Algo::Baseline(b) => taut_baselines::make_planner(b, grid),
        Algo::Anya => Box::new(AnyaPlanner::with_options(grid, tuning.anya)),
    }
}

/// A planner with its options, as the bench names it: `NAME` or `NAME:OPT+OPT`. Only Anya
/// takes options: `no-cul-de-sac`, `no-intermediate` (turn a pruning rule off) and `hash` /
/// `flat` (where the root history lives), e.g. `anya:no-cul-de-sac+no-intermediate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannerSpec {
    /// The planner.
    pub algo: Algo,
    /// Its options.
    pub tuning: Tuning,
    /// The name as written (options in the order given), used in reports.
    pub label: String,
}

impl PlannerSpec {
    /// The planner with default options.
    pub fn plain(algo: Algo) -> Self {
        PlannerSpec {
            algo,
            tuning: Tuning::default(),
            label: algo.name().to_owned(),
        }
    }
}

impl std::fmt::Display for PlannerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label)
    }
}

/// A planner name or option the bench does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPlannerSpec {
    /// The planner name is unknown.
    #[error(transparent)]
    Algo(#[from] UnknownAlgo),
    /// The option is unknown or does not apply to this planner.
    #[error(
        "{planner} has no option {option:?} (anya takes: no-cul-de-sac, no-intermediate, hash, flat; other planners take none)"
    )]
    Option {
        /// The planner.
        planner: String,
        /// The option.
        option: String,
    },
}

impl std::str::FromStr for PlannerSpec {
    type Err = BadPlannerSpec;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, opts) = s.split_once(':').unwrap_or((s, ""));
        let algo: Algo = name.parse()?;
        let mut tuning = Tuning::default();
        for opt in opts.split('+').filter(|o| !o.is_empty()) {
            let a = &mut tuning.anya;
            match (algo, opt) {
                (Algo::Anya, "no-cul-de-sac") => a.cul_de_sac = false,
                (Algo::Anya, "no-intermediate") => a.intermediate = false,
                (Algo::Anya, "hash") => a.history = taut_anya::RootHistory::Hash,
                (Algo::Anya, "flat") => a.history = taut_anya::RootHistory::Flat,
                _ => {
                    return Err(BadPlannerSpec::Option {
                        planner: name.to_owned(),
                        option: opt.to_owned(),
                    });
                }
            }
        }
        Ok(PlannerSpec {
            algo,
            tuning,
            label: s.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planner_specs_parse_with_their_options() {
        let s: PlannerSpec = "anya:no-cul-de-sac+hash".parse().unwrap();
        assert_eq!(s.algo, Algo::Anya);
        assert!(!s.tuning.anya.cul_de_sac && s.tuning.anya.intermediate);
        assert_eq!(s.tuning.anya.history, taut_anya::RootHistory::Hash);
        assert_eq!(s.to_string(), "anya:no-cul-de-sac+hash");
        assert_eq!(
            "astar".parse::<PlannerSpec>().unwrap(),
            PlannerSpec::plain(Algo::Baseline(taut_baselines::Algo::AStar))
        );
        let e = "astar:hash".parse::<PlannerSpec>().unwrap_err();
        assert!(
            e.to_string().contains("astar has no option \"hash\""),
            "{e}"
        );
        let e = "anya:fast".parse::<PlannerSpec>().unwrap_err();
        assert!(e.to_string().contains("no option \"fast\""), "{e}");
        assert!("dijkstra".parse::<PlannerSpec>().is_err());
    }
}
