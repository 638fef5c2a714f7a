#!/usr/bin/env python3
"""Combines `taut-bench frit` runs of issue 27 into the tables of README.md.

Usage: combine.py DIR, where DIR holds the run folders named in README.md, each with the
`runs.csv` its command writes. Ratios pair runs problem by problem (the bench draws the same
first n problems per map in every run) and take 95 % bootstrap intervals, resampling problems
within each map, as `taut_bench::frit::cost_ratio` does within one run.
"""
import collections, csv, gzip, math, os, random, sys
D='.'
K=[1,2,4,8,16,32,64,128,512]
def parse(lines):
    """Costs and statuses of a runs.csv's lines: {(algo, k): {(map, problem): (cost, status)}}."""
    rows=list(csv.reader(l for l in lines if not l.startswith('#')))
    h=rows[0]; i={k:j for j,k in enumerate(h)}
    out=collections.defaultdict(dict)
    for r in rows[1:]:
        out[(r[i['algo']],int(r[i['lookahead']]))][(r[i['map']],int(r[i['problem']]))]=(float(r[i['cost']]),r[i['status']])
    return out
def load(name):
    """A run folder's runs.csv, or its runs.csv.gz (the costs kept in the repository)."""
    p=f'{D}/{name}/runs.csv'
    if os.path.exists(p):
        with open(p) as f: return parse(f)
    if os.path.exists(p+'.gz'):
        with gzip.open(p+'.gz','rt') as f: return parse(f)
    return None
def pairs(a,b):
    common=sorted(set(a)&set(b))
    g=collections.defaultdict(list)
    for key in common: g[key[0]].append((a[key][0],b[key][0]))
    return list(g.values()), sum(a[k][1]!='reached' for k in common), sum(b[k][1]!='reached' for k in common), len(common)
def boot(groups, stat, R=2000, seed=1):
    rng=random.Random(seed)
    sx=sum(x for g in groups for x,_ in g); sy=sum(y for g in groups for _,y in g); n=sum(len(g) for g in groups)
    v=stat(sx,sy,n); d=[]
    for _ in range(R):
        a=b=0.0
        for g in groups:
            m=len(g)
            for _ in range(m):
                x,y=g[rng.randrange(m)]; a+=x; b+=y
        d.append(stat(a,b,n))
    d.sort()
    return v,d[int(0.025*R)],d[min(R-1,int(0.975*R))]
def ratio(a,b):
    if a is None or b is None: return None
    gs,ca,cb,n=pairs(a,b)
    if n==0: return None
    v,lo,hi=boot(gs,lambda x,y,n:x/y)
    geo=math.exp(sum(math.log(x/y) for g in gs for x,y in g)/n)
    return v,lo,hi,geo,ca,cb,n
def mean(a):
    gs,ca,_,n=pairs(a,a)
    v,lo,hi=boot(gs,lambda x,y,n:x/n)
    return v,lo,hi,ca,n
def fmt_r(r):
    if r is None: return '-'
    v,lo,hi,geo,ca,cb,n=r
    cut=f' ({ca}/{cb} cut)' if ca or cb else ''
    return f'{v:.2f} [{lo:.2f}, {hi:.2f}]{cut}'
def fmt_m(m):
    v,lo,hi,c,n=m
    cut=f' ({c} cut)' if c else ''
    return f'{v:,.0f} [{lo:,.0f}, {hi:,.0f}]{cut}'
def main():
    global D
    D=sys.argv[1] if len(sys.argv) > 1 else '.'
    r1=load('r1-paper'); r2=load('r2-taut'); r3p=load('r3-paper-fritrt'); r3t=load('r3-taut-fritrt'); r4=load('r4-cut')
    r5=load('r5-taut-300')
    missing=[n for n,r in (('r1-paper',r1),('r2-taut',r2),('r3-paper-fritrt',r3p),('r3-taut-fritrt',r3t),('r4-cut',r4)) if r is None]
    if missing:
        sys.exit(f"combine.py: no runs.csv in {D}/ for {', '.join(missing)} (rerun the commands of README.md)")
    out=[]
    P=lambda *a: out.append(' '.join(str(x) for x in a))
    KS=[1,2,4,8,16,32,64,128,512]
    P('## Effect of each option (p-FRIT_RT, paper profile with one option changed; 50 problems per map, 600 problems)\n')
    P('Mean cost with the option changed / mean cost of the paper profile, on the same problems, [95 % bootstrap interval]; (a/b cut) counts runs cut off at 3 million moves with the option / without.\n')
    P('| option | '+' | '.join(f'k = {k}' for k in KS)+' |')
    P('|---|'+'---|'*len(KS))
    rows=[('learned-h=keep','learned-h=keep',r1),('pointers=keep-valid','pointers=keep-valid',r1),('goal-test=top','goal-test=top',r1),('tree=diagonal-first','tree=diagonal-first',r1),('release=off','release=off',r1),('INTREE unbounded (`--intree-steps unbounded`)','unbounded',r1),('corner cutting (`--moves corner-cut`)','cut-anyneighbour',r1),('ties=insertion','ties=insertion',r1)]
    for label,v,base in rows:
        x=load('v-paper+'+v)
        if x is None: continue
        P(f'| {label} | '+' | '.join(fmt_r(ratio(x[("p-frit-rt",k)], base[("p-frit-rt",k)])) for k in KS)+' |')
    x=load('v-paper+cut-anyneighbour')
    if x and r4:
        P('| border=common-neighbour, with corner cutting (against any-neighbour with corner cutting) | '+' | '.join(fmt_r(ratio(r4[("p-frit-rt",k)], x[("p-frit-rt",k)])) for k in KS)+' |')
    P('')
    P('## The paper\'s ratios (> 1: p-FRIT_RT is cheaper)\n')
    def size(run, algo='p-frit-rt'):
        """Problems per map and in all of `run` (its p-FRIT_RT runs at k = 1)."""
        probs=run[(algo,1)]
        return len(probs)//len({m for m,_ in probs}), len(probs)
    (n1,t1),(n5,t5),(n3,t3),(n3t,t3t)=size(r1),size(r5 if r5 else r2),size(r3p),size(r3t)
    P(f'daRTAA\\* / p-FRIT_RT: paper profile {n1} problems per map ({t1:,}); taut profile {n5} per map ({t5:,}). FRIT_RT / p-FRIT_RT: paper profile {n3} per map ({t3:,}), taut profile {n3t} per map ({t3t:,}), FRIT_RT being the costliest agent to run. Ratio of mean costs [95 % bootstrap interval], then the geometric mean of per-problem ratios.\n')
    P('| k | daRTAA\\*/p-FRIT_RT, paper | ours, paper profile | ours, taut profile | FRIT_RT/p-FRIT_RT, paper | ours, paper profile | ours, taut profile |')
    P('|---|---|---|---|---|---|---|')
    tb = r5 if r5 else None
    def fr(r): 
        if r is None: return '-'
        return fmt_r(r)+f' (geo {r[3]:.2f})'
    for k in KS:
        pd={1:'6.9',16:'2.7'}.get(k,'')
        pf={1:'8.3',16:'4.5'}.get(k,'')
        a=ratio(r1[('dartaa',k)], r1[('p-frit-rt',k)])
        b=ratio(r5[('dartaa',k)], r5[('p-frit-rt',k)]) if r5 else ratio(r1[('dartaa',k)], r2[('p-frit-rt',k)])
        c=ratio(r3p[('frit-rt',k)], r3p[('p-frit-rt',k)])
        d=ratio(r3t[('frit-rt',k)], r3t[('p-frit-rt',k)])
        P(f'| {k} | {pd} | {fr(a)} | {fr(b)} | {pf} | {fr(c)} | {fr(d)} |')
    P('')
    P('## Mean cost beside the paper\'s (section 4 of the paper gives p-FRIT_RT at 16, 32, 64 and Bug2; daRTAA\\* and FRIT_RT at 16 follow from its ratios)\n')
    P('| agent | k | paper | ours, paper profile | ours, taut profile | ours, paper profile with corner cutting and Algorithm 4\'s border rule |')
    P('|---|---|---|---|---|---|')
    T = r5 if r5 else r2
    for (a,k,pp) in [('p-frit-rt',1,''),('p-frit-rt',16,'7,629'),('p-frit-rt',32,'4,210'),('p-frit-rt',64,'3,225'),('p-frit-rt',512,''),('dartaa',1,''),('dartaa',16,'≈ 20,600'),('dartaa',64,''),('frit-rt',16,'≈ 34,300'),('bug2',1,'6,546'),('frit-bfs',1,'')]:
        if a=='frit-rt':
            p_=fmt_m(mean(r3p[(a,k)])); t_=fmt_m(mean(r3t[(a,k)])); c_='-'
        elif a=='dartaa' or a=='bug2':
            p_=fmt_m(mean(r1[(a,k)])); t_=fmt_m(mean(T[(a,k)])) if (a,k) in T else 'same as paper profile'; c_=fmt_m(mean(r4[(a,k)]))
        elif a=='frit-bfs':
            p_=fmt_m(mean(r1[(a,k)])); t_=fmt_m(mean(r2[(a,k)])); c_=fmt_m(mean(r4[(a,k)]))
        else:
            p_=fmt_m(mean(r1[(a,k)])); t_=fmt_m(mean(T[(a,k)])); c_=fmt_m(mean(r4[(a,k)]))
        kk = k if a not in ('bug2','frit-bfs') else '–'
        P(f'| {a} | {kk} | {pp} | {p_} | {t_} | {c_} |')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
