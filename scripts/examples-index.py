#!/usr/bin/env python3
"""Copies the example records (SRC_DIR/*.json whose "schema" is "rooflab-record": data/examples,
then the published measurements of data/published) into the served page's examples/ folder and
writes examples/index.json, the page's examples menu: [{"file": NAME, "title": TEXT}]. Raw tool
samples (ERT, ncu CSV, Google Benchmark) are not records and stay out; `rooflab import` turns
them into the *.record.json files that are in.
Usage: examples-index.py SRC_DIR OUT_DIR [MORE_SRC_DIR...]"""
import json
import shutil
import sys
from pathlib import Path

srcs, out = [Path(sys.argv[1])] + [Path(a) for a in sys.argv[3:]], Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
index = []
for f in [f for src in srcs for f in sorted(src.glob("*.json"))]:
    try:
        doc = json.loads(f.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        continue
    if not isinstance(doc, dict) or doc.get("schema") != "rooflab-record":
        continue
    shutil.copyfile(f, out / f.name)
    prov = (doc.get("provenance") or {}).get("kind", "?")
    hw = (doc.get("hardware") or {}).get("name") or "per-point hardware"
    sw = doc.get("software") or {}
    kernel = f"{sw.get('kernel') or 'kernel'} {sw.get('kernel_version', '')}".strip()
    title = f"{f.name} — {prov}, {hw}, {kernel}"
    index.append({"file": f.name, "title": title[:140]})
(out / "index.json").write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
