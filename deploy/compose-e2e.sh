#!/usr/bin/env bash
# The docker-compose bring-up, run for real (CI runs it from .ci/run after `mvn verify`):
#   up -d --build; every service healthy; the pi Job and the hello CronJob applied with the real
#   kubectl and Complete; `kubectl logs job/pi`; the pod ran as a container through the kubelet's
#   Docker socket; `down` removes the pod containers the kubelet started; `up` again and the Job (and
#   its log) survived; `down -v` leaves nothing of the project behind.
#
# Engine: Podman with bridge networking and DNS, and stand-ins for the Docker Hub images, from
# shared/tools/compose-engine beside the checkout (COMPOSE_ENGINE_TOOLS overrides). Without those tools, or when the
# engine cannot start, the test prints SKIPPED and why, and exits 0. Any other failure exits 1 with
# the services' logs.
#
#   deploy/compose-e2e.sh                       # KPLANE_API_PORT (default: a free port from 16443)
#   KPLANE_IMAGE_JARS=prebuilt deploy/compose-e2e.sh   # the image from the jars in */target (CI, right
#                                               # after `mvn verify`), not compiled again in the image
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# shared/ sits beside the checkout (../shared), or beside the directory of worktrees (../../shared)
TOOLS=${COMPOSE_ENGINE_TOOLS:-$(for d in .. ../..; do [ -d "$d/shared/tools/compose-engine" ] && { (cd "$d" && pwd); break; }; done)/shared/tools/compose-engine}
PROJECT=${COMPOSE_PROJECT:-kplane-e2e}
KUBECTL=${KUBECTL:-$(command -v kubectl || echo /usr/bin/kubectl)}
T0=$SECONDS

log() { echo "[compose-e2e $(date +%T) +$((SECONDS - T0))s] $*"; }
skip() { echo "SKIPPED compose end-to-end test: $*"; exit 0; }
fail() { echo "FAILED compose end-to-end test: $*" >&2; exit 1; }

[ -x "$TOOLS/engine.sh" ] || skip "no compose engine tools at $TOOLS (set COMPOSE_ENGINE_TOOLS)"
[ -x "$KUBECTL" ] || skip "kubectl not found (the test drives the stack with the real kubectl)"

# --- the engine: started from / (its long-lived service must not keep a checkout as working directory)
if ! out=$(cd / && "$TOOLS/engine.sh" start 2>&1); then
  skip "the compose engine cannot start here: $(printf '%s' "$out" | tail -n 3)"
fi
eval "$("$TOOLS/engine.sh" env)"
SOCK=${DOCKER_HOST#unix://}
log "engine: $DOCKER_HOST"
t=$SECONDS
if ! out=$(cd / && "$TOOLS/base-images.sh" 2>&1); then
  skip "the stand-in base images cannot be built here: $(printf '%s' "$out" | tail -n 3)"
fi
log "base images ready in $((SECONDS - t)) s (cached after the first run)"

# docker-compose 1.29 builds through the API (docker-py), as on a machine without the docker CLI.
export COMPOSE_DOCKER_CLI_BUILD=0
WORK=$(mktemp -d)
TICKER=
compose() { docker-compose -p "$PROJECT" -f deploy/docker-compose.yml -f "$WORK/engine.yml" "$@"; }
k() { "$KUBECTL" --kubeconfig "$WORK/kubeconfig" "$@"; }
cleanup() {
  rc=$?
  if [ "$rc" != 0 ]; then
    echo "--- services (project $PROJECT)"; compose ps 2>&1 || true
    echo "--- last log lines"; compose logs --no-color --tail 40 2>&1 | tail -n 400 || true
  fi
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  podman ps -aq --filter "label=io.kplane.server=http://apiserver:6443" | xargs -r podman rm -f >/dev/null 2>&1 || true
  [ -n "$TICKER" ] && kill "$TICKER" 2>/dev/null || true
  rm -f "$ROOT"/deploy/prebuilt/*.jar
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT

# Podman runs health checks from systemd timers; without systemd this ticker runs them.
"$TOOLS/health-ticker.sh" >/dev/null 2>&1 &
TICKER=$!

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ -z "${KPLANE_API_PORT:-}" ]; then
  KPLANE_API_PORT=16443
  while ! port_free "$KPLANE_API_PORT"; do KPLANE_API_PORT=$((KPLANE_API_PORT + 1)); done
fi
export KPLANE_API_PORT
# The kubelet's docker.sock is this engine's socket (compose merges volumes by target path).
cat > "$WORK/engine.yml" <<YML
version: "3.8"
services:
  kubelet-sim-1:
    volumes:
      - $SOCK:/var/run/docker.sock
YML
sed "s#http://127.0.0.1:6443#http://127.0.0.1:$KPLANE_API_PORT#" deploy/kubeconfig > "$WORK/kubeconfig"

# A leftover of an interrupted run would make this one pass or fail for the wrong reason.
compose down -v --remove-orphans >/dev/null 2>&1 || true

services=$(compose config --services | wc -l)
wait_healthy() { # seconds
  local deadline=$((SECONDS + $1)) healthy
  while :; do
    healthy=$(podman ps --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Status}}' | grep -c '(healthy)' || true)
    [ "$healthy" = "$services" ] && return 0
    if [ "$SECONDS" -ge "$deadline" ]; then
      podman ps -a --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Names}}\t{{.Status}}'
      fail "only $healthy of $services services healthy after $1 s"
    fi
    sleep 2
  done
}

# --- 1. build and bring up
log "up -d --build (API server on 127.0.0.1:$KPLANE_API_PORT)"
t=$SECONDS
build_args=()
if [ "${KPLANE_IMAGE_JARS:-source}" = prebuilt ]; then
  # the jars `mvn verify` just built and tested, into the image as they are (deploy/prebuilt/README.md)
  for jar in apiserver/target/kplane-apiserver.jar controllers/target/kplane-controllers.jar \
      kubelet-sim/target/kplane-kubelet-sim.jar cli/target/kplane-kubectl-lite.jar launcher/target/kplane-launcher.jar; do
    [ -f "$jar" ] || fail "KPLANE_IMAGE_JARS=prebuilt but $jar is missing (run mvn package or verify first)"
    cp "$jar" deploy/prebuilt/
  done
  build_args=(--build-arg KPLANE_JARS=prebuilt)
  log "image from the prebuilt jars in */target"
fi
# Every kplane service names the same image (kplane:latest): build it once, through one service;
# `compose build` would build it once per service, sending the whole context each time.
compose build "${build_args[@]}" apiserver 2>&1 | grep -E '^(Building|Successfully built)|Using cache|STEP [0-9]+/[0-9]+: RUN' | uniq -c | tail -n 40
build_s=$((SECONDS - t))
log "image build: $build_s s"
t=$SECONDS
compose up -d 2>&1 | tail -n 2
wait_healthy 600
up_s=$((SECONDS - t))
log "all $services services healthy $up_s s after up -d"

# --- 2. the examples, with the real kubectl
k apply -f examples/pi-job.yaml -f examples/hello-cronjob.yaml
k wait --for=condition=complete job/pi --timeout=300s
log "job/pi Complete"
pi=$(k logs job/pi)
case "$pi" in 3.14159265358979323846264338327950288419716939937510*) ;; *) fail "kubectl logs job/pi: $pi" ;; esac
log "kubectl logs job/pi: ${pi:0:20}... (${#pi} characters)"

# --- 3. the pod ran as a container of this engine, started through the kubelet's socket
pod=$(k get pods -l job-name=pi -o jsonpath='{.items[0].metadata.name}')
cid=$(k get pod "$pod" -o jsonpath='{.status.containerStatuses[0].containerID}')
[[ "$cid" == docker://* ]] || fail "pod $pod has container ID '$cid', not a docker:// one"
events=$(podman events --stream=false --since 30m --filter "container=${cid#docker://}" --format '{{.Status}}' | sort -u | tr '\n' ' ')
[[ "$events" == *start* ]] || fail "the engine has no start event of container ${cid#docker://} (events: $events)"
log "pod $pod ran as container ${cid#docker://} (engine events: $events)"
runtime=$(k get node node-1 -o jsonpath='{.status.nodeInfo.containerRuntimeVersion} {.status.addresses}')
log "node-1: $runtime"

deadline=$((SECONDS + 180))
hello_jobs() { k get jobs -o jsonpath='{range .items[?(@.metadata.ownerReferences[0].name=="hello")]}{.metadata.name} {.status.succeeded}{"\n"}{end}'; }
until hello_jobs | grep -q ' 1$'; do
  [ "$SECONDS" -lt "$deadline" ] || fail "no Job of CronJob hello completed within 180 s"
  sleep 2
done
hello=$(hello_jobs | awk '$2 == 1 {print $1; exit}')
hello_log=$(k logs "job/$hello")
[[ "$hello_log" == *"Hello from the Kubernetes cluster"* ]] || fail "kubectl logs job/$hello: $hello_log"
log "CronJob hello ran job/$hello: $(echo "$hello_log" | tail -n 1)"

# --- 4. down: the kubelet removes the pod containers it started (compose does not know them)
k run sleeper --image=busybox:1.28 --image-pull-policy=IfNotPresent --restart=Never -- sleep 600 >/dev/null
k wait --for=jsonpath='{.status.phase}'=Running pod/sleeper --timeout=120s >/dev/null
[ "$(podman ps -q --filter label=io.kplane.node=node-1 | wc -l)" -ge 1 ] || fail "no running pod container of node-1"
t=$SECONDS
compose down 2>&1 | tail -n 1
log "down: $((SECONDS - t)) s"
left=$(podman ps -a --filter label=io.kplane.node=node-1 --format '{{.Names}}')
[ -z "$left" ] || fail "down left pod containers behind: $left"
log "down left no pod container"

# --- 5. up again: the data survived
t=$SECONDS
compose up -d 2>&1 | tail -n 1
wait_healthy 600
log "healthy again $((SECONDS - t)) s after up -d"
[ "$(k get job pi -o jsonpath='{.status.succeeded}')" = 1 ] || fail "job/pi did not survive down/up"
[ "$(k logs job/pi)" = "$pi" ] || fail "the log of job/pi did not survive down/up"
log "job/pi and its log survived down/up"
k wait --for=jsonpath='{.status.phase}'=Failed pod/sleeper --timeout=120s >/dev/null
log "pod sleeper, whose container went with the node, is Failed: $(k get pod sleeper -o jsonpath='{.status.containerStatuses[0].state.terminated.reason}')"

# --- 6. down -v: nothing of the project is left
t=$SECONDS
compose down -v 2>&1 | tail -n 1
log "down -v: $((SECONDS - t)) s"
left="$(podman ps -a --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Names}}')$(podman ps -a --filter label=io.kplane.node=node-1 --format '{{.Names}}')"
[ -z "$left" ] || fail "containers left after down -v: $left"
vols=$(podman volume ls --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Name}}')
[ -z "$vols" ] || fail "volumes left after down -v: $vols"
nets=$(podman network ls --format '{{.Name}}' | grep "^${PROJECT}_" || true)
[ -z "$nets" ] || fail "networks left after down -v: $nets"
log "PASSED in $((SECONDS - T0)) s (image build $build_s s, healthy $up_s s after up)"
