#!/usr/bin/env bash
# bench/up-timeline.sh [fresh|existing] [RUNS] — `./kplane up -d` timed on a stack of one's own (free
# ports, its own state directory), with the critical path to "API serving" read back from the stack:
# when the background launcher and the components' processes started (/proc start times), when
# PostgreSQL accepted connections (its log), and the API server's steps (its log: main's "listening on
# port", "store open", "API server listening"), then the kubelet's (its cluster Clock listed, its Node
# object registered — created or read while the Clock is awaited, so `node` may come before `kub_clk`; its
# status is posted once the Clock is known, before ready: `node_st`, the API server's access-log line of
# that PUT, i.e. when the server answered it) and the last controller to lead, each as seconds after `up` was invoked; then the
# stack is stopped. `compN` (the last component process started) shows when the launcher started the
# components after the API server (docs/launcher.md, "Start order"). `fresh` starts every run on a new state directory (a user's very first `up`: PostgreSQL's
# data directory is initialised), `existing` (default) reuses one state directory (started once first,
# unmeasured; STATE=DIR reuses a directory a stack already ran on instead). The load average and a
# bare `java -version` are printed beside each run.
# Run it from the checkout whose jars and ./kplane it should measure (KPLANE_SKIP_BUILD=1: build
# first); the stack's class-data archive should be trained (bench/run-all.sh does that).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-existing}; runs=${2:-3}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
hz=$(getconf CLK_TCK); btime=$(awk '/^btime/ {print $2}' /proc/stat)
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
# start time of a process in ms since the epoch (/proc/PID/stat field 22, clock ticks since boot)
started_ms() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk -v b="$btime" -v hz="$hz" '{printf "%.0f", b * 1000 + $20 * 1000 / hz}'; }
# the latest of the first matching lines of several logs (e.g. the last controller to lead)
last_log_ms() {
  pattern=$1; shift; latest=-
  for f in "$@"; do
    m=$(log_ms "$f" "$pattern"); [ "$m" = - ] && { echo -; return; }
    { [ "$latest" = - ] || [ "$m" -gt "$latest" ]; } && latest=$m
  done
  echo "$latest"
}
# the ms since the epoch of the first log line matching a pattern (ISO or HH:MM:SS.mmm time stamps)
log_ms() {
  line=$(grep -m1 -- "$2" "$1" 2>/dev/null || true)
  [ -n "$line" ] || { echo -; return; }
  hms=$(echo "$line" | grep -o '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9]' | head -1)
  date -u -d "$(date -u +%F) $hms" +%s%3N
}
rel() { [ "$1" = - ] && echo "   -  " || awk -v a="$1" -v t="$2" 'BEGIN{printf "%6.2f", (a - t) / 1000}'; }
api_port=$(free_port); db_port=$(free_port)
state=""
cleanup() { [ -n "$state" ] && ./kplane down --state-dir "$state" > /dev/null 2>&1 || true; }
trap cleanup EXIT
if [ "$mode" = existing ] && [ -n "${STATE:-}" ]; then
  state=$STATE # a state directory a stack of this checkout already ran on (e.g. for interleaved A/B runs)
elif [ "$mode" = existing ]; then
  state=$(mktemp -d /tmp/kplane-uptl.XXXXXX)
  KPLANE_SKIP_BUILD=1 ./kplane up -d --free-ports --state-dir "$state" --port "$api_port" --db-port "$db_port" > /dev/null
  ./kplane down --state-dir "$state" > /dev/null
fi
printf '%-8s %6s %6s | %6s %6s %6s %6s | %6s %6s %6s %6s | %6s %6s %6s %6s %6s | %s\n' run up_s java_ms launch comp0 compN pg_ok \
  api_main store api_srv 1st_req kub_clk node node_st kub_rdy ctl_ld load
for run in $(seq 1 "$runs"); do
  if [ "$mode" = fresh ]; then [ -n "$state" ] && rm -rf "$state"; state=$(mktemp -d /tmp/kplane-uptl.XXXXXX); fi
  rm -rf "$state/logs"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  t=$(date +%s%N); java -Xshare:auto -XX:TieredStopAtLevel=1 -version > /dev/null 2>&1; jvm_ms=$(ms_since "$t")
  t0=$(date +%s%N); t0ms=$((t0 / 1000000))
  KPLANE_SKIP_BUILD=1 ./kplane up -d --free-ports --state-dir "$state" --port "$api_port" --db-port "$db_port" > "$state/up.log" 2>&1
  up_ms=$(ms_since "$t0")
  launcher=$(sed -n 's/.*"launcherPid" *: *\([0-9]*\).*/\1/p' "$state/state.json")
  comps=$(grep -o '"pid" *: *[0-9]*' "$state/state.json" | grep -o '[0-9]*$')
  first=""; last=""
  for p in $comps; do
    s=$(started_ms "$p"); [ -n "$s" ] || continue
    { [ -z "$first" ] || [ "$s" -lt "$first" ]; } && first=$s
    { [ -z "$last" ] || [ "$s" -gt "$last" ]; } && last=$s
  done
  logs="$state/logs"
  pg=$(log_ms "$logs/postgres.log" "ready to accept connections")
  # the data directory's first start (fresh) logs a temporary server's readiness first: take the last
  [ "$mode" = fresh ] && pg=$(grep "ready to accept connections" "$logs/postgres.log" | tail -1 \
    | grep -o '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9]' | head -1 | xargs -I{} date -u -d "$(date -u +%F) {}" +%s%3N)
  kubelet="$logs/kubelet-sim-1.log"
  printf '%-8s %6.2f %6d | %s %s %s %s | %s %s %s %s | %s %s %s %s %s | %s\n' "$mode-$run" "$(awk -v m="$up_ms" 'BEGIN{print m/1000}')" "$jvm_ms" \
    "$(rel "$(started_ms "$launcher")" "$t0ms")" "$(rel "${first:--}" "$t0ms")" "$(rel "${last:--}" "$t0ms")" "$(rel "${pg:--}" "$t0ms")" \
    "$(rel "$(log_ms "$logs/apiserver.log" "opening the database")" "$t0ms")" \
    "$(rel "$(log_ms "$logs/apiserver.log" "store open")" "$t0ms")" \
    "$(rel "$(log_ms "$logs/apiserver.log" "API server listening")" "$t0ms")" \
    "$(rel "$(log_ms "$logs/apiserver.log" "apiserver.access GET /api")" "$t0ms")" \
    "$(rel "$(log_ms "$kubelet" "reflector clocks: listed")" "$t0ms")" \
    "$(rel "$(log_ms "$kubelet" "registered node\|already registered")" "$t0ms")" \
    "$(rel "$(log_ms "$logs/apiserver.log" "apiserver.access PUT /api/v1/nodes/node-1/status")" "$t0ms")" \
    "$(rel "$(log_ms "$kubelet" "ready: runtime")" "$t0ms")" \
    "$(rel "$(last_log_ms "became leader" "$logs"/*-controller.log "$logs/garbage-collector.log" "$logs/scheduler.log" \
        "$logs/node-lifecycle.log" "$logs/local-path-provisioner.log")" "$t0ms")" "$load"
  ./kplane down --state-dir "$state" > /dev/null
done
