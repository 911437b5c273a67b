#!/bin/sh
# Whole-process throughput of the main jobs, as users run them: `find --count` and
# `find --format jsonl` on plain text, and the same two with `--mbox`, each at -j 1 and
# at -j N, on inputs of at least 256 MB made from the corpora.
#
#   benches/pipeline.sh [-j N[,N...]] [-n RUNS] [-s MB] [-d DIR] [-b BINARY]
#
#   -j N     the parallel runs' threads, one or more, comma-separated (default: the
#            number of CPUs), e.g. -j 2,4,8,16
#   -n RUNS  runs of each command; the median wall time is used (default 3)
#   -s MB    the least size of each input in MB (default 256)
#   -d DIR   where the inputs are made (default: $TMPDIR or /tmp, then linkscan-bench)
#   -b BIN   time this linkscan binary instead of building the profiling binary (to compare
#            builds, or on a machine without a toolchain)
#
# The corpora are read from $LINKSCAN_SHARED/corpus (default ../shared/corpus beside the
# repository): the text input is email-intl.txt repeated, the archive email-en.mbox
# repeated (so both hold real text in many scripts, and the archive real messages). The
# binary is built first with the `profiling` profile (the release code with symbols, so a
# profiler can look at the build that was timed). Output goes to /dev/null, as a pipe to a
# consumer would cost the consumer's time. Printed: MB/s per mode and thread count, each
# -j N / -j 1 ratio, and the ratio of mail mode to plain text mode on the same archive file.
set -eu

jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
runs=3
size_mb=256
dir="${TMPDIR:-/tmp}/linkscan-bench"
bin=""
while getopts j:n:s:d:b: opt; do
    case $opt in
    j) jobs=$OPTARG ;;
    n) runs=$OPTARG ;;
    s) size_mb=$OPTARG ;;
    d) dir=$OPTARG ;;
    b) bin=$OPTARG ;;
    *) sed -n '2,22p' "$0" >&2; exit 2 ;;
    esac
done
jobs=$(echo "$jobs" | tr ',' ' ')
for j in $jobs; do
    case $j in
    '' | *[!0-9]* | 0) echo "pipeline.sh: -j takes thread counts of 1 or more, not '$j'" >&2; exit 2 ;;
    esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
shared="${LINKSCAN_SHARED:-$root/../shared}"
corpus="$shared/corpus"
for f in email-intl.txt email-en.mbox; do
    [ -r "$corpus/$f" ] || { echo "pipeline.sh: $corpus/$f is missing" >&2; exit 2; }
done

if [ -z "$bin" ]; then
    (cd "$root" && cargo build --profile profiling --locked --quiet)
    bin="$root/target/profiling/linkscan"
fi
[ -x "$bin" ] || { echo "pipeline.sh: $bin is not an executable" >&2; exit 2; }

# repeat SOURCE TARGET: SOURCE concatenated until TARGET holds at least size_mb MB.
repeat() {
    want=$((size_mb * 1000000))
    if [ -f "$2" ] && [ "$(wc -c < "$2")" -ge "$want" ]; then
        return
    fi
    : > "$2.part"
    while [ "$(wc -c < "$2.part")" -lt "$want" ]; do
        cat "$1" >> "$2.part"
    done
    mv "$2.part" "$2"
}
mkdir -p "$dir"
repeat "$corpus/email-intl.txt" "$dir/text.txt"
repeat "$corpus/email-en.mbox" "$dir/archive.mbox"

# seconds CMD...: the median wall time of `runs` runs, in seconds.
seconds() {
    i=0
    times=""
    while [ $i -lt "$runs" ]; do
        start=$(date +%s%N)
        "$@" > /dev/null 2>&1
        end=$(date +%s%N)
        times="$times $((end - start))"
        i=$((i + 1))
    done
    echo $times | tr ' ' '\n' | sort -n | awk '{ t[NR] = $1 } END { printf "%.4f", t[int((NR + 1) / 2)] / 1e9 }'
}

mb() { awk -v b="$(wc -c < "$1")" -v s="$2" 'BEGIN { printf "%.0f", b / 1e6 / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "inputs: text.txt $(($(wc -c < "$dir/text.txt") / 1000000)) MB, archive.mbox $(($(wc -c < "$dir/archive.mbox") / 1000000)) MB; median of $runs runs; MB/s, and (ratio to -j 1)"
printf '%-42s %10s' "mode" "-j 1"
for j in $jobs; do
    printf ' %18s' "-j $j"
done
echo
report() {
    label=$1
    file=$2
    shift 2
    one=$(seconds "$bin" "$@" -j 1 "$file")
    printf '%-42s %10s' "$label" "$(mb "$file" "$one")"
    for j in $jobs; do
        many=$(seconds "$bin" "$@" -j "$j" "$file")
        printf ' %18s' "$(mb "$file" "$many") ($(ratio "$one" "$many"))"
    done
    echo
    last_one=$one
}
report "find --count (text.txt)" "$dir/text.txt" find --count
report "find --format jsonl (text.txt)" "$dir/text.txt" find --format jsonl
report "find --count (archive.mbox)" "$dir/archive.mbox" find --count
report "find --format jsonl (archive.mbox)" "$dir/archive.mbox" find --format jsonl
plain_jsonl=$last_one
report "find --mbox --no-progress --count" "$dir/archive.mbox" find --mbox --no-progress --count
report "find --mbox --no-progress --format jsonl" "$dir/archive.mbox" find --mbox --no-progress --format jsonl
echo "mail mode / plain text mode, jsonl at -j 1 on archive.mbox: $(ratio "$plain_jsonl" "$last_one")"
