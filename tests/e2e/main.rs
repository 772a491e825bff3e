//! e2e tests
