//! One error type for everything the facade does.

/// Any error of the facade: a map that cannot be read, a query with a bad endpoint, a planner
/// name or option the table does not know, or something a planner needs that cannot be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A map or scenario file that cannot be read or is malformed.
    #[error(transparent)]
    Grid(#[from] taut_grid::GridError),
    /// A start or goal off the map or on a blocked cell.
    #[error(transparent)]
    Query(#[from] taut_grid::QueryError),
    /// A search stopped by its limit (expansions or deadline) before it ended.
    #[error(transparent)]
    Limit(#[from] taut_grid::LimitReached),
    /// An unknown planner name or option.
    #[error(transparent)]
    Spec(#[from] crate::registry::BadPlannerSpec),
    /// A mesh, CPD or hub index that cannot be built or read, or belongs to another map.
    #[error(transparent)]
    Setup(#[from] crate::setup::SetupError),
}

impl From<crate::registry::UnknownAlgo> for Error {
    fn from(e: crate::registry::UnknownAlgo) -> Self {
        Error::Spec(e.into())
    }
}
