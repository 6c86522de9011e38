#!/usr/bin/env bash
# bench/startup-cpu.sh [RUNS] — start-up CPU per JVM of `./kplane up -d` on a stack of one's own (free
# ports, its own state directory), as docs/performance.md ("Start-up CPU per component") measures it:
# `up -d` is timed, and the moment it returns (every component has answered /healthz 200) each JVM's
# utime+stime is read from /proc and split per thread into JIT (C1/C2 compiler threads), GC+VM (VM
# Thread, GC threads, G1's own threads), main, and the rest (the component's own threads). Prints one block per run,
# with the load average and a bare `java -version` beside it, then stops the stack.
# The jars must be built and their class-data archives trained (bench/run-all.sh trains them; so does
# any `./kplane up` that runs 20 s after a build). Env: API_PORT, DB_PORT (default: ports found free
# at start), STATE (default: a temporary directory), KPLANE_EXTRA_JAVA_OPTS as for the components.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
api_port=${API_PORT:-$(free_port)}; db_port=${DB_PORT:-$(free_port)}
state=${STATE:-$(mktemp -d /tmp/kplane-startcpu.XXXXXX)}
hz=$(getconf CLK_TCK)
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
down() { ./kplane down --state-dir "$state" > /dev/null 2>&1 || true; }
trap down EXIT
tree() { echo "$1"; for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree "$c"; done; }
# ticks of one thread: utime + stime (fields 14, 15 after the parenthesised name)
ticks() { sed 's/.*) //' "$1" 2>/dev/null | awk '{print $12 + $13}'; }
for run in $(seq 1 "$runs"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  t=$(date +%s%N); java -Xshare:auto -XX:TieredStopAtLevel=1 -version > /dev/null 2>&1; jvm_ms=$(ms_since "$t")
  t0=$(date +%s%N)
  KPLANE_SKIP_BUILD=1 ./kplane up -d --free-ports --state-dir "$state" --port "$api_port" --db-port "$db_port" > "$state/up.log" 2>&1
  up_ms=$(ms_since "$t0")
  launcher_pid=$(sed -n 's/.*"launcherPid" *: *\([0-9]*\).*/\1/p' "$state/state.json")
  printf "run %d: up -d %.2f s, load before %s, java -version %d ms\n" "$run" "$(awk "BEGIN{print $up_ms/1000}")" "$load" "$jvm_ms"
  printf "  %-24s %6s %6s %6s %6s %6s\n" JVM CPU-s JIT GC+VM main rest
  total=0
  while read -r p; do
    cmd=$(tr '\0' ' ' < /proc/"$p"/cmdline 2>/dev/null) || continue
    case "$cmd" in java*) ;; *) continue ;; esac
    # which component: the main class (a controller's name after it), as bench/stack-memory.sh names them;
    # the stack's archive starts components as `-cp SHARED:OWN MAIN`, a JVM without it as `-jar OWN`
    name=$(echo "$cmd" | grep -o 'io\.kplane\.[a-z.]*\.[A-Za-z]*Main\( [a-z][a-z-]*\)\?' | head -1 | sed 's/^io\.kplane\.[a-z.]*\.//' || true)
    [ -n "$name" ] || name=$(echo "$cmd" | grep -o -- '-jar [^ ]*kplane-[a-z-]*\.jar\( [a-z][a-z-]*\)\?' | head -1 | sed 's|.*/kplane-||; s|\.jar||' || true)
    case "$name" in "ControllersMain "*|"controllers "*) name=${name#* } ;; esac
    jit=0; gc=0; main=0; rest=0
    for task in /proc/"$p"/task/*; do
      n=$(cat "$task/comm" 2>/dev/null) || continue; c=$(ticks "$task/stat"); c=${c:-0}
      case "$n" in
        C1\ Compiler*|C2\ Compiler*) jit=$((jit + c)) ;;
        # G1's own threads ("G1 Main Marker", "G1 Conc#0", "G1 Refine#0", "G1 Service", ...) are GC too
        "VM Thread"|GC\ Thread*|G1\ *|"VM Periodic Tas"|"Service Thread") gc=$((gc + c)) ;;
        main|java) main=$((main + c)) ;; # the launcher thread running main() keeps the name "java"
        *) rest=$((rest + c)) ;;
      esac
    done
    all=$((jit + gc + main + rest)); total=$((total + all))
    awk -v n="$name" -v a=$all -v j=$jit -v g=$gc -v m=$main -v r=$rest -v hz="$hz" \
      'BEGIN{printf "  %-24s %6.2f %6.2f %6.2f %6.2f %6.2f\n", n, a/hz, j/hz, g/hz, m/hz, r/hz}'
  done < <(tree "$launcher_pid" | sort -u)
  awk -v t=$total -v hz="$hz" 'BEGIN{printf "  %-24s %6.2f\n", "all JVMs", t/hz}'
  down
done
