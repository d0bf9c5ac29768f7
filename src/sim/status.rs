//! What a refused request carries: the reason and message of a metav1.Status, with the
//! constructors the API server's handlers use. A leaf, so validation, the garbage
//! collector and the API server all speak it without importing each other.

use thiserror::Error;

use super::kind::Kind;

/// Why a request failed, as the API reports it (the `Reason` of a metav1.Status).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    NotFound,
    AlreadyExists,
    Conflict,
    Invalid,
    BadRequest,
    /// 429: the Eviction API refusing to break a disruption budget.
    TooManyRequests,
    /// 403.
    Forbidden,
    /// 500 from apierrors.NewInternalError: a webhook that could not be called.
    InternalError,
    /// 422 Invalid whose one cause has no field (a ValidatingAdmissionPolicy's denial):
    /// the message is the Status message, `pods "x" is forbidden: ...`, which kubectl
    /// prints as `The pods "x" is invalid: : ...`.
    InvalidCause,
    /// 413, a ValidatingAdmissionPolicy validation's own reason.
    RequestEntityTooLarge,
    /// 405: a create of a custom object while its CRD is being deleted.
    MethodNotAllowed,
    /// A storage error the API server did not convert: a 500 whose Status has no reason,
    /// which kubectl prints as `Error from server: ...`.
    Unknown,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NotFound => "NotFound",
            Reason::AlreadyExists => "AlreadyExists",
            Reason::Conflict => "Conflict",
            Reason::Invalid => "Invalid",
            Reason::BadRequest => "BadRequest",
            Reason::TooManyRequests => "TooManyRequests",
            Reason::Forbidden => "Forbidden",
            Reason::InternalError => "InternalError",
            Reason::InvalidCause => "Invalid",
            Reason::RequestEntityTooLarge => "RequestEntityTooLarge",
            Reason::MethodNotAllowed => "MethodNotAllowed",
            Reason::Unknown => "",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ApiError {
    pub reason: Reason,
    pub message: String,
}

impl ApiError {
    pub fn not_found(kind: Kind, name: &str) -> Self {
        ApiError {
            reason: Reason::NotFound,
            message: format!("{} \"{name}\" not found", kind.group_resource()),
        }
    }
    pub fn already_exists(kind: Kind, name: &str) -> Self {
        ApiError {
            reason: Reason::AlreadyExists,
            message: format!("{} \"{name}\" already exists", kind.group_resource()),
        }
    }
    /// A6: a stale resourceVersion.
    pub fn conflict(kind: Kind, name: &str) -> Self {
        ApiError {
            reason: Reason::Conflict,
            message: format!(
                "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again",
                kind.group_resource()
            ),
        }
    }
    /// A Conflict with its own message (a binding refused).
    pub fn conflict_message(message: String) -> Self {
        ApiError {
            reason: Reason::Conflict,
            message,
        }
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        ApiError {
            reason: Reason::Invalid,
            message: message.into(),
        }
    }
}
