#!/usr/bin/env bash
# samples every 2 s: per-cpu busy %, off/on master and generator CPU % of a core
off=$1 on=$2 gen=$3
t() { awk '{print $14+$15}' /proc/$1/stat 2>/dev/null || echo 0; }
cpu() { awk '/^cpu[01] /{print $1, $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
while kill -0 $gen 2>/dev/null; do
  a=($(t $off) $(t $on) $(t $gen)); c1=($(cpu))
  sleep 2
  b=($(t $off) $(t $on) $(t $gen)); c2=($(cpu))
  printf '%s off %3d%% on %3d%% gen %3d%% cpu0 %3d%% cpu1 %3d%% load %s\n' "$(date -u +%T)" \
    $(( (b[0]-a[0]) / 2 )) $(( (b[1]-a[1]) / 2 )) $(( (b[2]-a[2]) / 2 )) \
    $(( 100 * (c2[1]-c1[1]) / (c2[2]-c1[2]) )) $(( 100 * (c2[4]-c1[4]) / (c2[5]-c1[5]) )) "$(cut -d' ' -f1 /proc/loadavg)"
done
