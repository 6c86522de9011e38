#!/usr/bin/env bash
# bench/run-all.sh — every figure of the footprint-and-speed table in one run, each beside a
# reference measured in the same run, with the target and PASS/MISS. A report, not a test: it always
# exits 0 once the figures are printed (non-zero only when it could not measure).
#
#   bench/run-all.sh                 # builds what it needs with mvn (MVN="mvn -o" for offline)
#   BENCH_SKIP_BUILD=1 bench/run-all.sh
#   BENCH_STACK_ONLY=1 BENCH_PODS=20 BENCH_JOBS=8 bench/run-all.sh   # a quick look at the stack rows
#
# What it does (about 5-8 minutes on a 2-core machine): builds the jars and the benchmarks' test
# classes; starts the stack once to train the AppCDS archives if they are missing or stale (see
# deploy/bin/kplane-component) and stops it; then `./kplane up -d` (timed) on ports 16443/25432
# (BENCH_API_PORT, BENCH_DB_PORT), idle memory of every process, PodPathBenchmark (pod start, trivial
# Job, and the first pod and first Job after `up` as rows of their own: what `up && kubectl apply`
# sees), kubectl-lite vs kubectl, pod creates from a separate client process against the stack's API
# server beside raw INSERTs on its PostgreSQL, `./kplane down`; then ApiServerBenchmark's create part and
# JobPipelineBenchmark. Output of each step: the directory printed at the start.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
MVN=${MVN:-mvn}
api_port=${BENCH_API_PORT:-16443}
db_port=${BENCH_DB_PORT:-25432}
out=$(mktemp -d "${TMPDIR:-/tmp}/kplane-bench.XXXXXX")
state="$out/stack"
rows="$out/rows"
: > "$rows"
log() { echo "[$(date +%T)] $*" >&2; }
row() { echo "ROW|$1|$2|$3|$4|$5" >> "$rows"; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
log "output in $out"

# ---- build ----
if [ "${BENCH_SKIP_BUILD:-}" != 1 ]; then
  log "building: $MVN package (tests compiled, not run) + test classpaths"
  $MVN -q -B -ntp -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/bench.cp \
       -Dmdep.includeScope=test -pl launcher -am > "$out/build.log" 2>&1 \
    || { tail -40 "$out/build.log" >&2; log "build failed"; exit 1; }
fi
launcher_cp="launcher/target/test-classes:launcher/target/classes:$(cat launcher/target/bench.cp)"
controllers_cp="controllers/target/test-classes:controllers/target/classes:$(cat controllers/target/bench.cp)"
apiserver_cp="apiserver/target/test-classes:apiserver/target/classes:$(cat apiserver/target/bench.cp)"

# ---- the stack ----
for p in $api_port $db_port 10250 10259 10261 10262 10263 10264 10265 10266; do
  if (echo > /dev/tcp/127.0.0.1/$p) 2>/dev/null; then
    log "port $p is in use (another kplane stack?): stop it first"; exit 1
  fi
done
up() { KPLANE_SKIP_BUILD=1 ./kplane up -d --state-dir "$state" --port "$api_port" --db-port "$db_port" > "$out/$1.log" 2>&1; }
down() { ./kplane down --state-dir "$state" > "$out/down.log" 2>&1 || true; }
trap down EXIT
# one archive for the whole stack, dumped from the class lists of all its components (deploy/bin/kplane-component)
archives="launcher/target/cds/kplane-stack.jsa"
# the archive is stale when missing or older than a component jar (<module>/target/kplane-<module>.jar)
stale() { [ -f "$archives" ] || return 0
          for m in launcher apiserver controllers kubelet-sim; do [ "$m/target/kplane-$m.jar" -nt "$archives" ] && return 0; done
          return 1; }
if stale; then
  log "training the AppCDS archives (first start after a build): up, a pod and a Job, wait for the archives, down"
  trained="$out/cds-training-done"
  export KPLANE_CDS_TRAIN_UNTIL="$trained"; up train-up; unset KPLANE_CDS_TRAIN_UNTIL
  # The components save their class lists once they have run 20 s, KPLANE_CDS_TRAIN_UNTIL's file
  # exists and they have gone idle (kplane-component): a pod and a Job run first put the pod path's classes (API server create, scheduler bind, kubelet
  # start, Job sync) into the archives, so the measured stack's first pod does not load them (the
  # benchmark deletes what it created: the measured stack starts on the same, empty, database).
  java -cp "$launcher_cp" io.kplane.launcher.bench.PodPathBenchmark --server "http://127.0.0.1:$api_port" \
    --pods 1 --jobs 1 > "$out/train-podpath.txt" 2>&1 || log "warning: the training pod/Job failed (see train-podpath.txt)"
  touch "$trained" # now the training runs may save their class lists (KPLANE_CDS_TRAIN_UNTIL)
  for _ in $(seq 1 180); do stale || break; sleep 1; done
  stale && log "warning: some archives are still missing: $(for a in $archives; do [ -f "$a" ] || echo -n "$a "; done)"
  down
fi
log "./kplane up -d (measured)"
t0=$(date +%s%N); up measured-up; up_ms=$(ms_since "$t0")
jvm_ms=()
for _ in 1 2 3; do t=$(date +%s%N); java -Xshare:auto -XX:TieredStopAtLevel=1 -version > /dev/null 2>&1; jvm_ms+=("$(ms_since "$t")"); done
jvm_ref=$(printf '%s\n' "${jvm_ms[@]}" | sort -n | sed -n 2p)
row "./kplane up -d, built, archives trained -> API ready, every component healthy" "$(awk "BEGIN{printf \"%.2f s\", $up_ms/1000}")" \
    "bare 'java -version' ${jvm_ref} ms (x$(awk "BEGIN{printf \"%.0f\", $up_ms/$jvm_ref}"))" "< 3 s" "$([ "$up_ms" -lt 3000 ] && echo PASS || echo MISS)"

log "idle 15 s, then memory of every process"
sleep 15
read -r _ total_rss total_pss n jvms < <(bench/stack-memory.sh "$state" "$out/memory.txt")
row "whole stack RSS, idle (1 node, PostgreSQL included): sum of RSS" "$((total_rss / 1024)) MB in $n processes ($jvms JVMs)" \
    "PSS (shared pages counted once) $((total_pss / 1024)) MB" "< 500 MB" "$([ $((total_rss / 1024)) -lt 500 ] && echo PASS || echo MISS)"
row "whole stack memory, idle: sum of PSS" "$((total_pss / 1024)) MB" "RSS sum $((total_rss / 1024)) MB" "< 500 MB" \
    "$([ $((total_pss / 1024)) -lt 500 ] && echo PASS || echo MISS)"

log "pod start and trivial Job (PodPathBenchmark)"
java -cp "$launcher_cp" io.kplane.launcher.bench.PodPathBenchmark --server "http://127.0.0.1:$api_port" \
  --pods "${BENCH_PODS:-40}" --jobs "${BENCH_JOBS:-15}" > "$out/podpath.txt" 2>&1 \
  || { tail -20 "$out/podpath.txt" >&2; log "PodPathBenchmark failed"; }
grep '^ROW|' "$out/podpath.txt" >> "$rows" || true

log "kubectl-lite get pods vs kubectl get pods (median of 10, after one unmeasured run each)"
median_ms() { local xs=(); for _ in $(seq 1 10); do t=$(date +%s%N); "$@" > /dev/null 2>&1; xs+=("$(ms_since "$t")"); done
              printf '%s\n' "${xs[@]}" | sort -n | sed -n 5p; }
export HOME_BENCH="$out/home"; mkdir -p "$HOME_BENCH"
./kubectl-lite --kubeconfig "$state/kubeconfig" get pods > /dev/null 2>&1 || true
lite=$(median_ms ./kubectl-lite --kubeconfig "$state/kubeconfig" get pods)
if command -v kubectl > /dev/null; then
  HOME="$HOME_BENCH" kubectl --kubeconfig "$state/kubeconfig" get pods > /dev/null 2>&1 || true
  kc=$(HOME="$HOME_BENCH" median_ms kubectl --kubeconfig "$state/kubeconfig" get pods)
  row "kubectl-lite get pods" "$lite ms" "kubectl $kc ms (x$(awk "BEGIN{printf \"%.1f\", $lite/$kc}"))" "<= 2 x kubectl" \
      "$([ "$lite" -le $((2 * kc)) ] && echo PASS || echo MISS)"
else
  row "kubectl-lite get pods" "$lite ms" "kubectl not installed" "<= 2 x kubectl" "n/a"
fi
log "pod creates from a separate client process against the stack's API server (ClientProcessCreateBenchmark)"
java -cp "$apiserver_cp" io.kplane.apiserver.bench.ClientProcessCreateBenchmark --server "http://127.0.0.1:$api_port" \
  --db "postgresql://postgres@127.0.0.1:$db_port/postgres" --seconds "${BENCH_API_SECONDS:-5}" > "$out/client-creates.txt" 2>&1 \
  || { tail -20 "$out/client-creates.txt" >&2; log "ClientProcessCreateBenchmark failed"; }
grep '^ROW|' "$out/client-creates.txt" >> "$rows" || true
down
trap - EXIT

if [ "${BENCH_STACK_ONLY:-}" = 1 ]; then # a quick check of the stack rows only
  awk -F'|' '{printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6}' "$rows"; exit 0
fi

log "ApiServerBenchmark (in-process client; create part only)"
java -cp "$apiserver_cp" io.kplane.apiserver.bench.ApiServerBenchmark --seconds "${BENCH_API_SECONDS:-5}" > "$out/apiserver.txt" 2>&1 &
bench_pid=$!
for _ in $(seq 1 600); do
  grep -qE '^32 ' "$out/apiserver.txt" 2>/dev/null && break
  kill -0 $bench_pid 2>/dev/null || break
  sleep 1
done
kill $bench_pid 2>/dev/null || true; wait $bench_pid 2>/dev/null || true
if line=$(grep -E '^32 ' "$out/apiserver.txt"); then
  read -r _ api raw ratio <<< "$line"
  row "ApiServerBenchmark pod creates / raw INSERTs, concurrency 32 (in-process client)" "$api/s = $ratio x raw" "raw INSERT $raw/s" ">= 0.5" \
      "$(awk "BEGIN{print ($ratio >= 0.5) ? \"PASS\" : \"MISS\"}")"
fi

log "JobPipelineBenchmark (2,000 completions, parallelism 200; 1 s = the default batch period, and 100 ms)"
java -XX:+UseParallelGC -Xms1g -Xmx1g -cp "$controllers_cp" io.kplane.controllers.job.bench.JobPipelineBenchmark \
  --batch-periods 1s,100ms --warmups "${BENCH_PIPELINE_WARMUPS:-2}" --raw-seconds 2 > "$out/pipeline.txt" 2>&1 \
  || { tail -20 "$out/pipeline.txt" >&2; log "JobPipelineBenchmark failed"; }
raw8=$(sed -n 's/.*concurrency 1, \([0-9]*\)\/s at concurrency 8.*/\1/p' "$out/pipeline.txt")
for period in 1000ms 100ms; do
  pps=$(sed -n "s/^batch period $period *: .*completed end to end \([0-9]*\) pods\/s.*/\1/p" "$out/pipeline.txt")
  [ -n "$pps" ] || continue
  label="Job pipeline, 2,000 completions, parallelism 200, batch period $period"
  [ "$period" = 1000ms ] && label="$label (the default)"
  row "$label" "$pps pods/s" "raw INSERT $raw8/s at concurrency 8; bound by the period: 200 pods/s at 1 s" ">= 500 pods/s" \
      "$([ "$pps" -ge 500 ] && echo PASS || echo MISS)"
done

echo
echo "kplane footprint and speed, $(date -u +%FT%TZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
awk -F'|' 'BEGIN{printf "| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n", "figure", "measured", "same-run reference", "target", ""}
           {printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6}' "$rows"
echo
echo "details: $out (memory.txt, podpath.txt, apiserver.txt, pipeline.txt)"
