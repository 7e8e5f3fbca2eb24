//! Shared helpers of the integration and end-to-end tests.
