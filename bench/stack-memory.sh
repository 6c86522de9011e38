#!/usr/bin/env bash
# bench/stack-memory.sh STATE_DIR [OUT_FILE] — idle memory of a running kplane stack: RSS (VmRSS) and
# PSS (smaps_rollup) of every process of the launcher's process tree and of the postmaster's tree
# (STATE_DIR is the stack's --state-dir: state.json names the launcher, db/postmaster.pid PostgreSQL).
# Writes one line per process to OUT_FILE (default: stdout) and prints the sums as a last line:
#   TOTAL <rss kB> <pss kB> <processes> <jvms>
# bench/run-all.sh uses it for its memory rows; any stack (e.g. one on free ports) can be measured
# with it the same way.
set -euo pipefail
state=${1:?usage: stack-memory.sh STATE_DIR [OUT_FILE]}
out=${2:-/dev/stdout}
launcher_pid=$(sed -n 's/.*"launcherPid" *: *\([0-9]*\).*/\1/p' "$state/state.json")
pg_pid=$(head -1 "$state/db/postmaster.pid")
tree() { echo "$1"; for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree "$c"; done; }
total_rss=0; total_pss=0; n=0; jvms=0
while read -r p; do
  r=$(awk '/VmRSS/{print $2}' /proc/"$p"/status 2>/dev/null || true); [ -n "$r" ] || continue
  s=$(awk '/^Pss:/{print $2}' /proc/"$p"/smaps_rollup 2>/dev/null || echo 0)
  full=$(tr '\0' ' ' < /proc/"$p"/cmdline); cmd=$(echo "$full" | cut -c1-160)
  case "$cmd" in *java*) jvms=$((jvms + 1))
    # which component: the main class (and a controller's name after it), else the -jar jar
    name=$(echo "$full" | grep -o 'io\.kplane\.[a-z.]*\.[A-Za-z]*Main\( [a-z][a-z-]*\)\?' | head -1 | sed 's/^io\.kplane\.[a-z.]*\.//' || true)
    [ -n "$name" ] || name=$(echo "$full" | grep -o -- '-jar [^ ]*kplane-[a-z-]*\.jar\( [a-z][a-z-]*\)\?' | head -1 | sed 's|.*/kplane-||; s|\.jar||' || true)
    cmd="[${name:-java}] $cmd";;
  esac
  printf "%7d %8d kB RSS %8d kB PSS  %s\n" "$p" "$r" "$s" "$cmd" >> "$out"
  total_rss=$((total_rss + r)); total_pss=$((total_pss + s)); n=$((n + 1))
done < <({ tree "$launcher_pid"; tree "$pg_pid"; } | sort -u)
echo "TOTAL $total_rss $total_pss $n $jvms"
