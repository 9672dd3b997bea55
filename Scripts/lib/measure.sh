# Timing for the Scripts/bench-* benchmarks; source it after `cd` to the repository.
#
#   measure LABEL COMMAND...
#
# runs COMMAND $MEASURE_RUNS times (default 3), its output discarded, and prints the best wall time
# with that run's peak memory (GNU time), plus MB/s when $MEASURE_BYTES names the input's size.
# A run that fails prints "LABEL: failed (exit N)" and the benchmark goes on with the next row.
measure() {
  local label=$1; shift
  local runs=${MEASURE_RUNS:-3} bytes=${MEASURE_BYTES:-0}
  local best="" bestkib="" secs kib status
  mkdir -p .build/bench
  for ((run = 0; run < runs; run++)); do
    status=0
    /usr/bin/time -f "%e %M" -o .build/bench/time.txt "$@" >/dev/null 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then echo "$label: failed (exit $status)"; return 0; fi
    read -r secs kib < .build/bench/time.txt
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; bestkib=$kib; fi
  done
  awk -v l="$label" -v s="$best" -v k="$bestkib" -v b="$bytes" 'BEGIN{
    printf "%-44s %6.3f s", l, s
    if (b > 0) printf "  %7.1f MB/s", (s > 0 ? b / 1e6 / s : 0)
    printf "  peak %6.1f MiB\n", k / 1024 }'
}
