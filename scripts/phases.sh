# Sourced by scripts/test.sh: `phase NAME COMMAND...` runs one phase of the test command and records
# its wall time and, where it compiled anything, the compiler cache's hit rate over that phase. The
# table of phases is printed when the script exits, on failure too (the failed phase is marked), so
# every CI log shows where its time went.

phase_rows=()
phase_running=""
phase_started=0

# ccache's hits and misses so far (0 0 without ccache): direct and preprocessed hits count as hits
ccache_counts() {
  if ! command -v ccache >/dev/null; then
    echo "0 0"
    return
  fi
  ccache --print-stats 2>/dev/null | awk '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hits += $2 }
    $1 == "cache_miss" { misses += $2 }
    END { print hits + 0, misses + 0 }'
}

# "ccache 98.7% (385 of 390)" over the compiles between two ccache_counts, or "" when nothing compiled
ccache_rate() {
  local -a before=($1) after=($2)
  local hits=$((after[0] - before[0])) misses=$((after[1] - before[1]))
  local total=$((hits + misses))
  ((total > 0)) || return 0
  awk -v h="$hits" -v t="$total" 'BEGIN { printf "ccache %5.1f%% (%d of %d)", 100 * h / t, h, t }'
}

format_duration() {
  local s=$1
  if ((s >= 60)); then printf '%d min %02d s' $((s / 60)) $((s % 60)); else printf '%d s' "$s"; fi
}

phase() {
  local name=$1
  shift
  local before
  before=$(ccache_counts)
  phase_running=$name
  phase_started=$SECONDS
  "$@"
  local seconds=$((SECONDS - phase_started))
  phase_rows+=("$(printf '%-14s %12s   %s' "$name" "$(format_duration "$seconds")" "$(ccache_rate "$before" "$(ccache_counts)")")")
  phase_running=""
}

print_phase_table() {
  local status=$?
  {
    echo
    echo "test: phases (wall time, compiler cache hit rate of the compiles in each)"
    local row
    for row in "${phase_rows[@]}"; do echo "  $row"; done
    if [[ -n $phase_running ]]; then
      printf '  %-14s %12s   FAILED (exit %d)\n' "$phase_running" "$(format_duration $((SECONDS - phase_started)))" "$status"
    fi
    printf '  %-14s %12s\n' "total" "$(format_duration "$SECONDS")"
  } >&2
}
