//! Daily challenge (see issue 7).
