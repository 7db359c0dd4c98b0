//! What the viewer refuses, and why. Each variant becomes an HTTP status and a JSON body
//! `{"error": "..."}` that the page shows as it is, so a message names the field, value
//! or file at fault.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    Dataset(#[from] hammer_dataset::Error),
    #[error("{field}={value:?}: expected {expected}")]
    BadQuery {
        field: &'static str,
        value: String,
        expected: String,
    },
    #[error("unknown field '{field}'")]
    UnknownField { field: String },
    #[error("no game {key} in the dataset")]
    NoGame { key: String },
    #[error("the dataset is still loading")]
    Loading,
    #[error("no dataset was given: start `hammer view DATASET` to browse one")]
    NoDataset,
    #[error("{0}")]
    Family(#[from] hammer_family::FamilyError),
    #[error("{context}: {message}")]
    Input { context: String, message: String },
    /// A move the rules refuse, with the rules' reason.
    #[error("{0}")]
    Refused(String),
    #[error("the hint search failed: {0}")]
    Hints(String),
    #[error("wrong or missing token: open the URL that `hammer view` printed")]
    Unauthorized,
}

impl ViewError {
    fn status(&self) -> StatusCode {
        match self {
            ViewError::Dataset(_) | ViewError::NoDataset => StatusCode::SERVICE_UNAVAILABLE,
            ViewError::Loading => StatusCode::SERVICE_UNAVAILABLE,
            ViewError::NoGame { .. } => StatusCode::NOT_FOUND,
            ViewError::Unauthorized => StatusCode::UNAUTHORIZED,
            ViewError::Hints(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ViewError::BadQuery { .. }
            | ViewError::UnknownField { .. }
            | ViewError::Family(_)
            | ViewError::Refused(_)
            | ViewError::Input { .. } => StatusCode::BAD_REQUEST,
        }
    }
}

impl IntoResponse for ViewError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": hammer_proto::error_chain(&self) });
        (self.status(), axum::Json(body)).into_response()
    }
}
