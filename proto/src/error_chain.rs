//! [`error_chain`]: an error and its causes on one line.

/// The error and its causes on one line: `message: cause: cause of the cause`.
///
/// This is the one place that prints an error chain: the `hammer` binary's exit message,
/// log lines, and messages that leave the process (a coordinator's fatal write error,
/// a worker's last connection error). hammer's own error types never repeat their
/// source in their message; a cause whose text the line already holds is still
/// skipped, because some foreign errors (transport errors among them) do repeat theirs.
///
/// ```
/// #[derive(Debug, thiserror::Error)]
/// #[error("cannot listen on 127.0.0.1:7070")]
/// struct Bind(#[source] std::io::Error);
///
/// let err = Bind(std::io::Error::new(std::io::ErrorKind::AddrInUse, "Address already in use"));
/// assert_eq!(
///     hammer_proto::error_chain(&err),
///     "cannot listen on 127.0.0.1:7070: Address already in use"
/// );
/// ```
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::error_chain;

    #[derive(Debug, thiserror::Error)]
    #[error("{message}")]
    struct Layer {
        message: &'static str,
        #[source]
        source: Option<Box<Layer>>,
    }

    fn chain(messages: &[&'static str]) -> Layer {
        let mut layer: Option<Box<Layer>> = None;
        for &message in messages.iter().rev() {
            layer = Some(Box::new(Layer {
                message,
                source: layer,
            }));
        }
        *layer.expect("at least one message")
    }

    #[test]
    fn an_error_without_a_cause_is_its_message() {
        assert_eq!(error_chain(&chain(&["no token"])), "no token");
    }

    #[test]
    fn causes_follow_the_message_in_order() {
        let err = chain(&["cannot start", "cannot listen on 127.0.0.1:1", "in use"]);
        assert_eq!(
            error_chain(&err),
            "cannot start: cannot listen on 127.0.0.1:1: in use"
        );
    }

    #[test]
    fn a_cause_the_line_already_holds_is_printed_once() {
        // As transport errors do: "transport error: connection refused", caused by
        // "connection refused".
        let err = chain(&["transport error: connection refused", "connection refused"]);
        assert_eq!(error_chain(&err), "transport error: connection refused");
    }
}
