import random, sys
n=int(sys.argv[1]); seed=int(sys.argv[2]); out=sys.argv[3]
r=random.Random(seed)
g=[[0]*n for _ in range(n)]
for _ in range(int(n*n*0.003)):
    g[r.randrange(n)][r.randrange(n)]=1
for _ in range(12):
    x,y=r.randrange(n),r.randrange(n); L=r.randrange(n//8,n//2)
    if r.random()<0.5:
        for i in range(L): 
            if x+i<n: g[y][x+i]=1
    else:
        for i in range(L):
            if y+i<n: g[y+i][x]=1
with open(out+'.map','w') as f:
    f.write('type octile\nheight %d\nwidth %d\nmap\n'%(n,n))
    for row in g: f.write(''.join('@' if c else '.' for c in row)+'\n')
q=[]
while len(q)<30:
    a=(r.randrange(n),r.randrange(n)); b=(r.randrange(n),r.randrange(n))
    if g[a[1]][a[0]] or g[b[1]][b[0]]: continue
    if abs(a[0]-b[0])+abs(a[1]-b[1])<n: continue
    q.append((a,b))
with open(out+'.map.scen','w') as f:
    f.write('version 1\n')
    for a,b in q: f.write('0\t%s.map\t%d\t%d\t%d\t%d\t%d\t%d\t0\n'%(out.split('/')[-1],n,n,a[0],a[1],b[0],b[1]))
