//! The share card (see issue 7): rendered to PNG bytes, no I/O.
