//! Hostile archive folders and inputs, round 4: an input that cannot be read, two runs on
//! one folder, an input rewritten during a build, old pages and state files that are
//! links, FIFOs or devices, and state values that do not hold together. Each test fails
//! on a build without the fix it names.
