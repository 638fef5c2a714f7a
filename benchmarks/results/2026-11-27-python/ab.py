import time, numpy as np, taut, statistics as st, sys, json
D = "../shared/data/grid"
out = {}
def med(f, r):
    f(); ts=[]
    for _ in range(r):
        t=time.perf_counter(); f(); ts.append(time.perf_counter()-t)
    return st.median(ts)*1e3
for name, mp, sp in [("arena","fixtures/maps/arena.map","fixtures/maps/arena.map.scen"), ("AcrosstheCape", f"{D}/maps/AcrosstheCape.map", f"{D}/scen/AcrosstheCape.map.scen"), ("orz900d", f"{D}/maps/orz900d.map", f"{D}/scen/orz900d.map.scen")]:
    g = taut.Grid.from_map(mp); sc = taut.Scenario.read(sp); d = sc.to_dict()
    S = np.stack([d["sx"], d["sy"]], 1).astype(np.int64); G = np.stack([d["gx"], d["gy"]], 1).astype(np.int64)
    for algo in ["anya", "polyanya"]:
        for k in ([130] if name == "arena" else [10, 100]):
            for th in [1, 2]:
                out[f"{name} {algo} paths k={k} t={th}"] = med(lambda: g.paths(S[-k:], G[-k:], algo, threads=th), 200 if name=="arena" else 20)
        if name == "arena":
            pairs = [((int(a),int(b)),(int(c),int(e))) for (a,b),(c,e) in zip(S,G)]
            def loop():
                for s,e in pairs: g.path(s,e,algo)
            out[f"{name} {algo} path-loop 130"] = med(loop, 200)
            out[f"{name} {algo} run_scenario 130"] = med(lambda: g.run_scenario(sc, algo), 200)
json.dump(out, sys.stdout)
