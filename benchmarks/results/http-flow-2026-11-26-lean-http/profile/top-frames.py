import sys, collections
f = sys.argv[1]
c = collections.Counter(); loop=0
for line in open(f):
    stack, n = line.rstrip().rsplit(' ', 1); n = int(n)
    frames = stack.split(';')
    if not any('EventLoop' in x for x in frames): continue
    loop += n
    if frames[-1].endswith('_[k]'):
        # kernel: the nearest java frame
        j = [x for x in frames if not x.endswith('_[k]')]
        c['K ' + j[-1][:110]] += n
        continue
    c[frames[-1][:110]] += n
for name, n in c.most_common(45): print('%5.1f%% %s' % (100*n/loop, name))
