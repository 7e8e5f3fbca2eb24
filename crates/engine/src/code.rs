//! Share codes (see issue 7).
