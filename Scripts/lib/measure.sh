# Timing for the Scripts/bench-* benchmarks; source it after `cd` to the repository.
#
#   measure LABEL COMMAND...
#
# runs COMMAND $MEASURE_RUNS times (default 5), its output discarded, and prints the median wall
# time with the median peak memory (GNU time), plus MB/s when $MEASURE_BYTES names the input's
# size. The median seconds are left in $MEASURED for `ratio`. A run that fails prints
# "LABEL: failed (exit N)", leaves $MEASURED empty, and the benchmark goes on with the next row.
#
#   ratio ASSETC_SECONDS REFERENCE_SECONDS REFERENCE_NAME
#
# prints how many times faster assetc was than the reference tool measured in the same run.
measure() {
  local label=$1; shift
  local runs=${MEASURE_RUNS:-5} bytes=${MEASURE_BYTES:-0}
  local status secs=() kibs=()
  MEASURED=""
  mkdir -p .build/bench
  for ((run = 0; run < runs; run++)); do
    status=0
    # Wall time from bash's own microsecond clock (GNU time's %e counts only hundredths, too
    # coarse for the 30 ms rows; `date` would add its own start, a millisecond or two, to every
    # row); GNU time for the peak resident memory.
    local t0 t1
    t0=${EPOCHREALTIME/./}
    /usr/bin/time -f "%M" -o .build/bench/time.txt "$@" >/dev/null 2>&1 || status=$?
    t1=${EPOCHREALTIME/./}
    if [ "$status" -ne 0 ]; then echo "$label: failed (exit $status)"; return 0; fi
    read -r k < .build/bench/time.txt
    secs+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b - a) / 1e6}')"); kibs+=("$k")
  done
  local median_s median_k
  median_s=$(printf '%s\n' "${secs[@]}" | sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}')
  median_k=$(printf '%s\n' "${kibs[@]}" | sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}')
  MEASURED=$median_s
  awk -v l="$label" -v s="$median_s" -v k="$median_k" -v b="$bytes" -v n="$runs" 'BEGIN{
    printf "%-48s %7.4f s", l, s
    if (b > 0) printf "  %7.1f MB/s", (s > 0 ? b / 1e6 / s : 0)
    printf "  peak %6.1f MiB  (median of %d)\n", k / 1024, n }'
}

ratio() {
  local ours=$1 theirs=$2 name=$3
  if [ -z "$ours" ] || [ -z "$theirs" ]; then echo "  ratio: not measured"; return 0; fi
  awk -v a="$ours" -v b="$theirs" -v n="$name" 'BEGIN{
    if (a > 0) printf "  assetc is %.1fx as fast as %s\n", b / a, n; else printf "  assetc under the timer resolution; %s %.3f s\n", n, b }'
}
