//! The command line's integration tests, one binary: each module is a file of tests that
//! run the `linkscan` binary; `common` holds the helpers (the engine's, included by path,
//! and the runs and memory measurements of the binary).

mod common;

mod archive_attachments;
mod archive_downloads;
mod archive_feeds;
mod archive_obfuscate;
mod archive_search;
mod archive_update;
mod browser;
mod checks;
mod cli;
mod conventions;
mod defaults;
mod display;
mod filter_memory;
mod find_memory;
mod flowed;
mod formatting_conformance;
mod grep;
mod hostile;
mod hostile_archive;
mod hostile_mail;
mod hostile_pages;
mod initiation;
mod mail;
mod pipeline;
mod policy;
mod records;
mod redact;
mod windows;
