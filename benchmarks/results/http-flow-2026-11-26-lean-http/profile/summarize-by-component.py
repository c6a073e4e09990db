import sys, collections
f = sys.argv[1]
cats = [('io/netty/handler/codec/http/', 'netty http codec'), ('io/netty/handler/codec/', 'netty codec base'), ('io/netty/buffer/', 'netty buffers'),
        ('io/netty/channel/', 'netty channel/pipeline'), ('io/netty/handler/timeout', 'netty idle'), ('io/netty/util/', 'netty util'), ('io/netty/', 'netty other'),
        ('io/sessionmesh/sidecar/http/', 'ours: sidecar http'), ('io/sessionmesh/sidecar/cache', 'ours: cache'), ('io/sessionmesh/', 'ours: other'),
        ('com/github/benmanes', 'caffeine'), ('java/', 'jdk'), ('jdk/', 'jdk'), ('sun/', 'jdk')]
tot = 0; c = collections.Counter(); k = collections.Counter(); loop = 0; own = collections.Counter()
for line in open(f):
    stack, n = line.rstrip().rsplit(' ', 1); n = int(n)
    tot += n
    frames = stack.split(';')
    if not any('EventLoop' in x for x in frames):
        c['(not event loop: ' + ('JIT' if any('Compile' in x for x in frames) else 'other') + ')'] += n
        continue
    loop += n
    kern = frames[-1].endswith('_[k]')
    cat = None
    for fr in reversed(frames):
        if fr.endswith('_[k]'): continue
        for p, name in cats:
            if fr.startswith(p):
                cat = name; break
        if cat: break
    cat = cat or 'native/vm'
    c[('kernel under ' if kern else '') + cat] += n
    # which of our http handlers is the nearest ancestor
    for fr in reversed(frames):
        for h in ['HttpObjectDecoder', 'HttpObjectEncoder', 'MessageAggregator', 'BodyBudgetHandler', 'HttpPipeliningHandler', 'ApiHandler', 'IdleStateHandler', 'ByteToMessageDecoder']:
            if h in fr:
                own[h] += n; break
        else: continue
        break
print('total', tot, 'event loop', loop)
for name, n in c.most_common(): print('%6.1f%% of all  %6.1f%% of loop  %s' % (100*n/tot, 100*n/loop, name))
print('--- nearest handler frame')
for name, n in own.most_common(): print('%6.1f%% of loop  %s' % (100*n/loop, name))
