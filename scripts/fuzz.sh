#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang-19, ASan+UBSan, TRIDENT_FUZZ=ON) and
# runs each for SECONDS, starting from its seed corpus (fuzz/corpus/<target>/; the
# frontend's is tests/frontend/fuzz_corpus/). New inputs stay in the build folder
# ($build/fuzz-work/<target>/), crashes go to $build/fuzz-artifacts/<target>/; the
# repository's corpus changes only with --merge, which adds the new inputs that reach
# new coverage (keep it small: review before committing). Prints executions, exec/s
# and the outcome of each target; exits 1 if any target crashed, leaked or hung.
#
# Usage: scripts/fuzz.sh [--merge] [--runs N] [SECONDS] [TARGET...]
#   SECONDS defaults to 60; TARGET: frontend block_ir thread_ir signature cache_entry spirv
#   --runs N: stop each target after N executions (SECONDS is then the most it may take)
#   TRIDENT_FUZZ_BUILD_DIR (default build-fuzz), TRIDENT_JOBS (ninja jobs, default 1)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TRIDENT_FUZZ_BUILD_DIR:-$root/build-fuzz}"
merge=0 runs=
while [ $# -gt 0 ]; do
  case "$1" in
    --merge) merge=1; shift ;;
    --runs) runs="$2"; shift 2 ;;
    *) break ;;
  esac
done
seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(frontend block_ir thread_ir signature cache_entry spirv)

command -v clang++-19 >/dev/null || { echo "fuzz.sh: clang++-19 missing (scripts/deps.sh installs it)" >&2; exit 2; }
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DTRIDENT_FUZZ=ON -DTRIDENT_BUILD_TESTS=OFF -DTRIDENT_ENABLE_LLVM=OFF >/dev/null || exit 2
fi
nice -n 10 ninja -C "$build" -j "${TRIDENT_JOBS:-1}" "${targets[@]/#/trident_fuzz_}" >/dev/null || exit 2

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
printf '%-12s %12s %10s %8s %8s  %s\n' target executions exec/s seconds corpus outcome
for t in "${targets[@]}"; do
  seeds="$root/fuzz/corpus/$t"
  dict="$root/fuzz/dict/$t.dict"
  if [ "$t" = frontend ]; then
    seeds="$root/tests/frontend/fuzz_corpus"
    dict="$root/frontend/fuzz/triton.dict"
  elif [ "$t" = spirv ]; then # the SPIR-V backend on thread IR
    seeds="$root/fuzz/corpus/thread_ir"
    dict="$root/fuzz/dict/thread_ir.dict"
  fi
  work="$build/fuzz-work/$t" artifacts="$build/fuzz-artifacts/$t"
  mkdir -p "$work" "$artifacts"
  log="$build/fuzz-$t.log"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  [ -f "$dict" ] && args+=(-dict="$dict")
  [ -n "$runs" ] && args+=(-runs="$runs")
  start=$(date +%s)
  nice -n 10 "$build/fuzz/trident_fuzz_$t" "${args[@]}" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  corpus=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  outcome=ok
  if [ $rc -ne 0 ]; then
    outcome="FAILED (rc $rc): $(grep -m1 -E 'ERROR: |runtime error|fuzz target property' "$log") -- $log"
    status=1
  fi
  printf '%-12s %12s %10s %8s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$took" "${corpus:-?}" "$outcome"
  if [ $merge -eq 1 ] && [ $rc -eq 0 ]; then
    nice -n 10 "$build/fuzz/trident_fuzz_$t" -merge=1 "$seeds" "$work" >>"$log" 2>&1
  fi
done
exit $status
