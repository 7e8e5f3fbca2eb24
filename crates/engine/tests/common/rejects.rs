//! The check behind the tables of bad inputs: shared by the integration tests (through
//! `common`) and the crate's own unit tests (included by path), so it names no engine type.

use std::fmt::Debug;

/// Every input of `cases` fails with `code` and a message containing its words:
/// `fail(input)` is the (code, message) of the error the input gives.
pub fn assert_rejects<C: PartialEq + Debug>(
    code: C,
    cases: &[(&str, &str)],
    fail: impl Fn(&str) -> (C, String),
) {
    for &(input, words) in cases {
        let (got, message) = fail(input);
        assert_eq!(got, code, "{input}: {message}");
        assert!(
            message.contains(words),
            "{input}: {message:?} lacks {words:?}"
        );
    }
}
