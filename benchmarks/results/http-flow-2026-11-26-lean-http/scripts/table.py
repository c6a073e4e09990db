import json, sys, os
base = sys.argv[1]
runs = sys.argv[2:]
print('| round | sidecar | flow | req/s | p99 ms | sidecar CPU ms/req | whole stack ms/req | Spring Session stack | stack ratio | p99 ratio | load avg |')
print('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|')
agg = {}
for run in runs:
    d = json.load(open(os.path.join(base, run, 'http-flow.json')))
    res = {(r['system'], r['flow']): r for r in d['results']}
    for flow in ['read', 'write']:
        sm, ss = res[('sessionmesh', flow)], res[('spring-session', flow)]
        build = run.split('-')[0]
        build = 'old' if build == 'old' else 'new'
        row = (sm['cpu_ms_per_request']['sidecar'], sm['cpu_ms_per_request_stack'], ss['cpu_ms_per_request_stack'],
               sm['cpu_ms_per_request_stack'] / ss['cpu_ms_per_request_stack'], sm['latency_ms']['p99'] / ss['latency_ms']['p99'])
        agg.setdefault((build, flow), []).append(row)
        print('| %s | %s | %s | %.0f | %.2f | %.4f | %.3f | %.3f | %.3f | %.2f | %s |' % (run, build, flow, sm['requests_per_s'], sm['latency_ms']['p99'],
              row[0], row[1], row[2], row[3], row[4], '%s-%s' % (sm['load_average_1m']['start'], sm['load_average_1m']['end'])))
print()
print('| sidecar | flow | rounds | sidecar CPU ms/req, mean | whole stack, mean | stack ratio, mean (range) | p99 ratio, mean (range) |')
print('|---|---|---:|---:|---:|---|---|')
for (build, flow), rows in sorted(agg.items(), key=lambda x: (x[0][1], x[0][0] != 'old')):
    n = len(rows); m = lambda i: sum(r[i] for r in rows) / n
    print('| %s | %s | %d | %.4f | %.3f | %.3f (%.3f-%.3f) | %.2f (%.2f-%.2f) |' % (build, flow, n, m(0), m(1), m(3), min(r[3] for r in rows), max(r[3] for r in rows),
          m(4), min(r[4] for r in rows), max(r[4] for r in rows)))
