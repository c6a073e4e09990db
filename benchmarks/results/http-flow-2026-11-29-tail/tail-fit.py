"""The p99 of every row of HTTP flow benchmark runs against its p50 (RESULTS.md 12.24).

Usage: python3 tail-fit.py http-flow.json [more http-flow.json ...]

Fits p99 = a * p50 + c (least squares) on every row but SessionMesh's read and write flows (the floors with and
without a session id, on both stacks, and Spring Session's read and write), prints how far each SessionMesh and
Spring Session read and write row lies above that line, and what the line says a p99 of half Spring Session's
needs: a p50 of at most (0.5 * (a * p50_ss + c) - c) / a, so a throughput ratio (closed loop: p50 ratio) of at
least p50_ss / that.
"""
import json
import sys

rows = []
for path in sys.argv[1:]:
    for r in json.load(open(path))["results"]:
        rows.append((r.get("round", 1), r["system"], r["flow"], r["latency_ms"]["p50"], r["latency_ms"]["p99"]))

common = [r for r in rows if not (r[1].startswith("sessionmesh") and r[2] in ("read", "write"))]
n = len(common)
sx = sum(r[3] for r in common)
sy = sum(r[4] for r in common)
sxx = sum(r[3] ** 2 for r in common)
sxy = sum(r[3] * r[4] for r in common)
a = (n * sxy - sx * sy) / (n * sxx - sx * sx)
c = (sy - a * sx) / n
print("fit over %d rows: p99 = %.3f * p50 + %.3f ms" % (n, a, c))
print()
print("| system | flow | round | p50 ms | p99 ms | p99 above the fit, ms |")
print("|---|---|---:|---:|---:|---:|")
for r in sorted(rows):
    if r[2] in ("read", "write"):
        print("| %s | %s | %d | %.2f | %.2f | %+.2f |" % (r[1], r[2], r[0], r[3], r[4], r[4] - (a * r[3] + c)))
print()
print("| flow | round | Spring Session p50 ms | p50 a p99 of half its needs, on the fit | throughput ratio that needs |")
print("|---|---:|---:|---:|---:|")
for r in sorted(rows):
    if r[1] == "spring-session" and r[2] in ("read", "write"):
        need = (0.5 * (a * r[3] + c) - c) / a
        print("| %s | %d | %.2f | %.2f | %.2fx |" % (r[2], r[0], r[3], need, r[3] / need))
