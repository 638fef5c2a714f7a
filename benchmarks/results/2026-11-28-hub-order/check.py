import csv,sys,glob,os,re
D="/work/shared/data"; O=sys.argv[1]
truth={}
for r in csv.DictReader(open(f"{D}/grid/optimal/scen.csv")):
    if r["len_gppc"] not in ("","-1"):
        truth.setdefault(r["map"],{})[int(r["idx"])]=float(r["len_gppc"])
tot=bad=0
for f in sorted(glob.glob(f"{O}/*.r*.csv")):
    m=os.path.basename(f).split(".r")[0]
    n=w=0; ts=[]
    for r in csv.DictReader(open(f)):
        i=int(r["index"]); t=truth[m].get(i)
        if t is None: continue
        n+=1; ts.append(float(r["time_us"]))
        if r["status"]!="ok" or abs(float(r["length"])-t)>1e-6: w+=1
    ts.sort()
    print(os.path.basename(f), n, "wrong", w, "median", ts[len(ts)//2] if ts else None)
    tot+=n; bad+=w
print("total",tot,"wrong",bad)
