#!/usr/bin/env python3
"""Writes data/ports.tsv, the ports `taut route --from CODE` knows, from the port list of the
`searoute` package (PyPI `searoute` 1.6.0, Apache-2.0, `searoute/data/ports.geojson`: 3,962
ports named by UN/LOCODE, the code list UNECE publishes).

    python3 -m venv /tmp/sr && /tmp/sr/bin/pip download --no-deps searoute==1.6.0 -d /tmp/sr
    tar xzf /tmp/sr/searoute-1.6.0.tar.gz -C /tmp/sr
    python3 crates/taut-spherical/data/make_ports.py \
        /tmp/sr/searoute-1.6.0/searoute/data/ports.geojson > crates/taut-spherical/data/ports.tsv

Kept: one line per code (a code listed twice, for two terminals, keeps the main terminal,
`t` = 1, else the first listed); codes that are not two letters and three letters or digits
are left out. Coordinates are rounded to 6 decimals (0.1 m).
"""
import json
import re
import sys

features = json.load(open(sys.argv[1], encoding="utf-8"))["features"]
best = {}
for order, f in enumerate(features):
    p = f["properties"]
    code = p["port"].strip().upper()
    if not re.fullmatch(r"[A-Z]{2}[A-Z0-9]{3}", code):
        continue
    lon, lat = f["geometry"]["coordinates"][:2]
    main = p.get("t") == 1
    key = (0 if main else 1, order)
    if code not in best or key < best[code][0]:
        name = " ".join(p["name"].replace("\t", " ").split())
        best[code] = (key, name, lat, lon)

out = sys.stdout
out.write("# Ports by UN/LOCODE for `taut route --from CODE` (docs/spherical.md, \"Ports\").\n")
out.write("# Built by make_ports.py from the port list of the searoute package (PyPI searoute\n")
out.write("# 1.6.0, Apache-2.0, searoute/data/ports.geojson); codes are UNECE's UN/LOCODE.\n")
out.write("locode\tname\tlat\tlon\n")
for code in sorted(best):
    _, name, lat, lon = best[code]
    out.write(f"{code}\t{name}\t{lat:.6f}\t{lon:.6f}\n")
