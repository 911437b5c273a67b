//! The mail package's integration tests, one binary: each module is a file of tests;
//! `properties` holds the property the `mail_no_panic` fuzz target checks too. (The tests
//! that need the package's private parts, and the engine's test helpers, are its unit
//! tests: `src/tests`.)

mod flowed;
mod hostile;
mod mail;
mod mail_memory;
mod policy;
pub mod properties;
