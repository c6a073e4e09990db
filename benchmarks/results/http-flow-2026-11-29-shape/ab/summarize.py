import json,sys,glob,statistics as st
rows=[]
for f in sorted(glob.glob('' + (sys.argv[1] if len(sys.argv) > 1 else '.') + '/*/http-flow.json')):
    v=f.split('/')[-2]; d=json.load(open(f))
    res=d['results']
    for rnd in sorted({r['round'] for r in res}):
        g={(r['system'],r['flow']):r for r in res if r['round']==rnd}
        sm=g.get(('sessionmesh','write')); ss=g.get(('spring-session','write'))
        fm=g.get(('sessionmesh','floor')); fs=g.get(('spring-session','floor'))
        if not sm or not ss: continue
        print(f"{v:9s} r{rnd} floor svc/app {fm['cpu_ms_per_request']['service']:.4f}/{fs['cpu_ms_per_request']['app']:.4f}={fm['cpu_ms_per_request']['service']/fs['cpu_ms_per_request']['app']:.3f}  write svc {sm['cpu_ms_per_request']['service']:.4f} stack {sm['cpu_ms_per_request_stack']:.4f}/{ss['cpu_ms_per_request_stack']:.4f}  cpu {sm['cpu_ms_per_request_stack']/ss['cpu_ms_per_request_stack']:.3f} thr {sm['requests_per_s']/ss['requests_per_s']:.3f} p99 {sm['latency_ms']['p99']/ss['latency_ms']['p99']:.3f} (p50 {sm['latency_ms']['p50']:.2f}/{ss['latency_ms']['p50']:.2f} p99 {sm['latency_ms']['p99']:.2f}/{ss['latency_ms']['p99']:.2f})")
