//! Hostile messages on archive pages, round 4: addresses that survive obfuscation, and
//! messages whose pages grew past the memory bound (link-dense bodies, long address
//! fields, flowed parts), each measured against the bound the guide states.
