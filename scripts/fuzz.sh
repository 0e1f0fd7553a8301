#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang-19, ASan+UBSan, TRIDENT_FUZZ=ON) and
# runs each for SECONDS, starting from its seed corpus (fuzz/corpus/<target>/; the
# frontend's is tests/frontend/fuzz_corpus/). New inputs stay in the build folder
# ($build/fuzz-work/<target>/), crashes go to $build/fuzz-artifacts/<target>/; the
# repository's corpus changes only with --merge, which adds the new inputs that reach
# new coverage (keep it small: review before committing). Prints executions, exec/s
# and the outcome of each target; exits 1 if any target crashed, leaked or hung.
#
# Usage: scripts/fuzz.sh [--merge] [--runs N] [--jobs N] [--no-build] [SECONDS] [TARGET...]
#   SECONDS defaults to 60; TARGET: frontend block_ir thread_ir signature cache_entry spirv
#   --runs N: stop each target after N executions (SECONDS is then the most it may take)
#   --jobs N: N processes of each target, every target at once, each process with its own
#     work folder and random seed; the executions printed are their sum (for a machine
#     with many cores: N x targets processes); a TARGET written NAME:K gets K processes
#     instead (--jobs 1 spirv:6 block_ir:3: the slow targets get more of the cores)
#   --no-build: run the binaries in the build folder as they are (a machine without clang,
#     the build folder carried there)
#   TRIDENT_FUZZ_BUILD_DIR (default build-fuzz), TRIDENT_JOBS (ninja jobs, default 1)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TRIDENT_FUZZ_BUILD_DIR:-$root/build-fuzz}"
merge=0 runs= jobs=0 build_it=1
while [ $# -gt 0 ]; do
  case "$1" in
    --merge) merge=1; shift ;;
    --runs) runs="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --no-build) build_it=0; shift ;;
    *) break ;;
  esac
done
seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(frontend block_ir thread_ir signature cache_entry spirv)

if [ $build_it = 1 ]; then
  command -v clang++-19 >/dev/null || { echo "fuzz.sh: clang++-19 missing (scripts/deps.sh installs it)" >&2; exit 2; }
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
      -DTRIDENT_FUZZ=ON -DTRIDENT_BUILD_TESTS=OFF -DTRIDENT_ENABLE_LLVM=OFF >/dev/null || exit 2
  fi
  names=("${targets[@]%%:*}")
  nice -n 10 ninja -C "$build" -j "${TRIDENT_JOBS:-1}" "${names[@]/#/trident_fuzz_}" >/dev/null || exit 2
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
printf '%-12s %12s %10s %8s %8s  %s\n' target executions exec/s seconds corpus outcome
# inputs TARGET: sets seeds and dict
inputs() {
  seeds="$root/fuzz/corpus/$1"
  dict="$root/fuzz/dict/$1.dict"
  if [ "$1" = frontend ]; then
    seeds="$root/tests/frontend/fuzz_corpus"
    dict="$root/frontend/fuzz/triton.dict"
  elif [ "$1" = spirv ]; then # the SPIR-V backend on thread IR
    seeds="$root/fuzz/corpus/thread_ir"
    dict="$root/fuzz/dict/thread_ir.dict"
  fi
}
# fuzz TARGET JOB: one process; its log is $build/fuzz-TARGET[-JOB].log, its rc in .rc
fuzz_one() {
  local t=$1 j=$2 suffix=${2:+-$2}
  inputs "$t"
  local work="$build/fuzz-work/$t$suffix" artifacts="$build/fuzz-artifacts/$t"
  mkdir -p "$work" "$artifacts"
  local log="$build/fuzz-$t$suffix.log"
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$artifacts/")
  [ -f "$dict" ] && args+=(-dict="$dict")
  [ -n "$runs" ] && args+=(-runs="$runs")
  [ -n "$j" ] && args+=(-seed="$((1000 * j + $(date +%s) % 1000))")
  if [ ! -x "$build/fuzz/trident_fuzz_$t" ]; then
    echo "ERROR: no $build/fuzz/trident_fuzz_$t (build it, or run without --no-build)" > "$log"
    echo 127 > "$log.rc"
    return
  fi
  nice -n 10 "$build/fuzz/trident_fuzz_$t" "${args[@]}" "$work" "$seeds" >"$log" 2>&1
  echo $? > "$log.rc"
}
# report TARGET SECONDS LOG...: one line, executions summed over the logs
report() {
  local t=$1 took=$2 execs=0 rate=0 corpus=0 outcome=ok log rc e r c; shift 2
  for log in "$@"; do
    rc=$(cat "$log.rc" 2>/dev/null || echo 1)
    e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    c=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    execs=$((execs + ${e:-0})) rate=$((rate + ${r:-0}))
    [ "${c:-0}" -gt "$corpus" ] && corpus=$c
    if [ "$rc" -ne 0 ]; then
      outcome="FAILED (rc $rc): $(grep -m1 -E 'ERROR: |runtime error|fuzz target property' "$log") -- $log"
      status=1
    fi
  done
  printf '%-12s %12s %10s %8s %8s  %s\n' "$t" "$execs" "$rate" "$took" "$corpus" "$outcome"
}
merge_into_seeds() {
  inputs "$1"
  local work
  for work in "$build/fuzz-work/$1" "$build/fuzz-work/$1"-*; do
    [ -d "$work" ] && nice -n 10 "$build/fuzz/trident_fuzz_$1" -merge=1 "$seeds" "$work" >>"$build/fuzz-$1.merge.log" 2>&1
  done
}
# jobs_of NAME[:K]: K, else --jobs
jobs_of() { case "$1" in *:*) echo "${1##*:}" ;; *) echo "$jobs" ;; esac; }
if [ "$jobs" -gt 0 ]; then
  start=$(date +%s)
  for spec in "${targets[@]}"; do
    for j in $(seq 1 "$(jobs_of "$spec")"); do fuzz_one "${spec%%:*}" "$j" & done
  done
  wait
  took=$(( $(date +%s) - start ))
  for spec in "${targets[@]}"; do
    t=${spec%%:*} logs=()
    for j in $(seq 1 "$(jobs_of "$spec")"); do logs+=("$build/fuzz-$t-$j.log"); done
    report "$t" "$took" "${logs[@]}"
  done
  targets=("${targets[@]%%:*}")
  if [ $merge -eq 1 ] && [ $status -eq 0 ]; then
    for t in "${targets[@]}"; do merge_into_seeds "$t"; done
  fi
  exit $status
fi
for t in "${targets[@]}"; do
  start=$(date +%s)
  fuzz_one "$t" ""
  report "$t" "$(( $(date +%s) - start ))" "$build/fuzz-$t.log"
  if [ $merge -eq 1 ] && [ "$(cat "$build/fuzz-$t.log.rc")" -eq 0 ]; then
    merge_into_seeds "$t"
  fi
done
exit $status
