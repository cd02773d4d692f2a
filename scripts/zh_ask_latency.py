"""p50 / p95 of `ask` for the Chinese questions over seed 004 (tests/data/chinese/questions.json), in one warm
process, offline (README "Chinese"). The warm-up asks three questions of the set's other documents, so no timed
question was asked before.

    KMRAG_EMBEDDER=e5-small PYTHONPATH=. python scripts/zh_ask_latency.py TENANT   # a tenant holding the seeds
"""
import json, sys, time
sys.path.insert(0, ".")
from kmrag.answer.answerer import Answerer
from kmrag.config import load_settings
from kmrag.nlp.embed import get_embedder
from kmrag.stores import open_stores
import numpy as np

tenant = sys.argv[1]
allq = json.load(open("tests/data/chinese/questions.json", encoding="utf-8"))
qs = [q["question"] for q in allq if q["doc"] == "seed_004.txt"]
warm = [q["question"] for q in allq if q["doc"] != "seed_004.txt"][:3]
settings = load_settings(tenant=tenant)
with open_stores(settings) as stores:
    a = Answerer(stores.units, stores.graph, get_embedder(settings), settings, save=False)
    for q in warm:
        a.answer(tenant, q)  # warm-up: models load
    lat, out = [], []
    for q in qs:
        t = time.perf_counter(); ans = a.answer(tenant, q); lat.append(1000 * (time.perf_counter() - t))
        out.append((q, ans.direct, round(lat[-1])))
for row in out:
    print(*row)
print(json.dumps({"questions": len(qs), "p50_ms": round(float(np.percentile(lat, 50))), "p95_ms": round(float(np.percentile(lat, 95))),
                  "max_ms": round(max(lat))}))
