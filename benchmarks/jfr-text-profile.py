#!/usr/bin/env python3
"""Text profile of a JFR recording (JDK 17's `jfr` tool, no async-profiler needed): execution samples (self and
inclusive, by method) and allocation samples (by class and by allocating frame), plus collapsed stacks, one line per
stack, that flamegraph.pl or speedscope read as they are.

  benchmarks/jfr-text-profile.py <recording.jfr> <collapsed-out.txt> [thread-name-part] > profile.txt

A recording of the master under benchmarks/run-master-benchmark.sh, sampling Java stacks every millisecond:
  JH=$(dirname $(dirname $(readlink -f $(which java))))
  sed 's|control="method-sampling-java-interval">10 ms<|control="method-sampling-java-interval">1 ms<|' \
      $JH/lib/jfr/profile.jfc > /tmp/fast.jfc
  MASTER_JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/master-io@IO@.jfr,settings=/tmp/fast.jfc" ...
The samples count Java code only (a thread in a system call is not sampled): shares are of the event loop's Java time.
"""
import json, subprocess, sys, collections
jfr, out_collapsed = sys.argv[1], sys.argv[2]
thread_filter = sys.argv[3] if len(sys.argv) > 3 else None
def events(kind):
    r = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", kind, jfr], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)["recording"]["events"]
def frames(e):
    st = e["values"].get("stackTrace")
    if not st: return []
    res = []
    for f in st["frames"]:
        m = f["method"]
        res.append(m["type"]["name"].split(".")[-1] + "." + m["name"])
    return res
def tname(e):
    t = e["values"].get("sampledThread") or e["values"].get("eventThread") or {}
    return t.get("javaName") or t.get("osName") or "?"
ex = events("jdk.ExecutionSample")
selfc, incl, threads = collections.Counter(), collections.Counter(), collections.Counter()
collapsed = collections.Counter()
n = 0
for e in ex:
    t = tname(e); threads[t] += 1
    if thread_filter and thread_filter not in t: continue
    fr = frames(e)
    if not fr: continue
    n += 1
    selfc[fr[0]] += 1
    for m in set(fr): incl[m] += 1
    collapsed[";".join(reversed(fr))] += 1
print("execution samples: %d total; threads: %s" % (len(ex), dict(threads.most_common(6))))
print("samples counted (thread filter %r): %d" % (thread_filter, n))
print("\n== top self (share of counted samples)")
for m, c in selfc.most_common(40): print("%6.1f%%  %s" % (100.0 * c / n, m))
print("\n== top inclusive")
for m, c in incl.most_common(60): print("%6.1f%%  %s" % (100.0 * c / n, m))
with open(out_collapsed, "w") as f:
    for s, c in collapsed.most_common(): f.write("%s %d\n" % (s, c))
al = events("jdk.ObjectAllocationSample")
byclass, bysite = collections.Counter(), collections.Counter()
total = 0
for e in al:
    if thread_filter and thread_filter not in tname(e): continue
    w = e["values"].get("weight", 0)
    cls = e["values"]["objectClass"]["name"]
    total += w
    byclass[cls] += w
    fr = frames(e)
    site = " <- ".join(fr[:3]) if fr else "?"
    bysite[cls + " @ " + site] += w
print("\n== allocation samples (weight, bytes estimated): total %.1f MB" % (total / 1e6))
for c, w in byclass.most_common(25): print("%6.1f%%  %s" % (100.0 * w / max(total,1), c))
print("\n== top allocation sites")
for c, w in bysite.most_common(30): print("%6.1f%%  %s" % (100.0 * w / max(total,1), c))
