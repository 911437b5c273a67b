//! The options of `linkify`'s HTML archive (`--mbox`/`--maildir` with `--out`) that exist
//! with the `mail` feature only: how addresses are shown, and the check of the folder.
//!
//! Invariant: `--out` is refused before any input is read when it names something that is
//! not a folder, so a run never writes half an archive over a file.

use super::LinkifyArgs;

/// `--addresses`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AddressesArg {
    Show,
    Obfuscate,
}

/// `--attachments`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AttachmentsArg {
    Inline,
    Link,
    None,
}

impl LinkifyArgs {
    /// `--attachments` and `--attachment-limit`, as the archive takes them.
    pub(crate) fn attachments(&self) -> (linkscan_mail::archive::Attachments, u64) {
        use linkscan_mail::archive::{Attachments, DEFAULT_ATTACHMENT_LIMIT};
        let how = match self.attachments {
            None | Some(AttachmentsArg::Inline) => Attachments::Inline,
            Some(AttachmentsArg::Link) => Attachments::Link,
            Some(AttachmentsArg::None) => Attachments::None,
        };
        (
            how,
            self.attachment_limit.unwrap_or(DEFAULT_ATTACHMENT_LIMIT),
        )
    }

    /// `--addresses obfuscate`.
    pub(crate) fn obfuscate_addresses(&self) -> bool {
        self.addresses == Some(AddressesArg::Obfuscate)
    }

    /// Refuses an `--out` that exists and is not a folder (before anything is read).
    pub(crate) fn check_out_folder(&self) -> Result<(), String> {
        match self.out.as_deref() {
            Some(path) if path.exists() && !path.is_dir() => Err(format!(
                "--out {}: not a folder (the HTML archive is a folder of pages)",
                path.display()
            )),
            _ => Ok(()),
        }
    }
}
