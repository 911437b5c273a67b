#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets under fuzz/corpus/<target>/ from the shared
# data folder (../shared beside the repository, or $LINKSCAN_SHARED): every line of the
# official detection test file (marks removed), every line of the formatting test files,
# and slices of the multilingual corpus samples. Nothing from the shared folder is
# committed; run this before `cargo +nightly fuzz run <target>`.
#
#   fuzz/seed-corpus.sh            # the targets of the library and mail_no_panic
#   fuzz/seed-corpus.sh finder_oracle html_text mail_archive
set -euo pipefail
cd "$(dirname "$0")"
shared="${LINKSCAN_SHARED:-../../shared}"
unicode="$shared/unicode/17.0.0"
draft="$shared/unicode/18.0.0-draft"
corpus="$shared/corpus"
for f in "$unicode/LinkDetectionTest.txt" "$unicode/LinkFormattingTest.txt"; do
    [ -r "$f" ] || { echo "seed-corpus.sh: cannot read $f (set LINKSCAN_SHARED)" >&2; exit 1; }
done

# One file per line of input: name = the line's checksum, so re-running adds nothing twice.
lines_to() {
    local dir=$1
    mkdir -p "$dir"
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        printf '%s' "$line" > "$dir/seed-$(printf '%s' "$line" | cksum | cut -d' ' -f1)"
    done
}

# Detection lines without the ⸠ ⸡ marks, and formatting lines (both sides of each pair).
text_seeds() {
    local dir=$1
    grep -v '^#' "$unicode/LinkDetectionTest.txt" | sed 's/⸠//g; s/⸡//g' | lines_to "$dir"
    cat "$unicode/LinkFormattingTest.txt" "$draft/LinkFormattingTest.txt" 2>/dev/null \
        | grep -v '^#' | lines_to "$dir"
    # Slices of real mail: 64 pieces of 2 KiB spread over each sample.
    for sample in "$corpus/email-intl.txt" "$corpus/email-en.mbox"; do
        [ -r "$sample" ] || continue
        local size step
        size=$(stat -c %s "$sample")
        step=$(( size / 64 ))
        for k in $(seq 0 63); do
            dd if="$sample" of="$dir/slice-$(basename "$sample")-$k" bs=2048 count=1 \
                skip=$(( k * step )) iflag=skip_bytes status=none
        done
    done
}

# Formatting pairs' URLs only, for the targets whose input is a URL string.
url_seeds() {
    cat "$unicode/LinkFormattingTest.txt" "$draft/LinkFormattingTest.txt" 2>/dev/null \
        | grep -v '^#' | lines_to "$1"
}

# Deep and wide messages for mail_no_panic, in the form its expansion reads: a count and
# a scale (copies = count << (scale % 16 - 8), no shift below 9), the shape (template * 2,
# + 1 for wide), the length of the unit added to every copy, the unit, the tail. 30,080,
# 1,000 and 70 copies of each of the six templates, deep and wide.
structure_seeds() {
    local dir=$1 unit=$'Subject: s\n\nhttps://deep.example.com/x\n' tail=$'\nend https://tail.example.com\n'
    mkdir -p "$dir"
    for reps in '\xeb\x0f' '\xfa\x0a' '\x46\x00'; do
        for shape in 0 1 2 3 4 5 6 7 8 9 10 11; do
            printf "$reps\\x$(printf %02x "$shape")\\x$(printf %02x ${#unit})%s%s" "$unit" "$tail" \
                > "$dir/structure-$shape-$(printf '%s' "$reps" | tr -d '\\')"
        done
    done
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(finder_oracle api_agree no_panic escape_detect split_scans mail_no_panic)
for target in "${targets[@]}"; do
    case $target in
        # Structured targets read their parts from raw bytes; URLs make fine seeds too.
        escape_detect) url_seeds "corpus/$target" ;;
        # Whole messages: the repository's small test archives and slices of the mbox
        # sample, which start at arbitrary points of real mail.
        mail_no_panic)
            text_seeds "corpus/$target"
            for f in ../crates/mail/tests/data/mail/*.mbox; do
                [ -r "$f" ] && cp "$f" "corpus/$target/archive-$(basename "$f")"
            done
            structure_seeds "corpus/$target" ;;
        # Whole archives: the same, and the test messages on their own (a Maildir file).
        mail_archive)
            text_seeds "corpus/$target"
            for f in ../crates/mail/tests/data/mail/*.mbox ../crates/mail/tests/data/mail/*.eml; do
                [ -r "$f" ] && cp "$f" "corpus/$target/archive-$(basename "$f")"
            done ;;
        *) text_seeds "corpus/$target" ;;
    esac
    echo "corpus/$target: $(ls "corpus/$target" | wc -l) seeds"
done
