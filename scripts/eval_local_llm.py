"""The local instruct LLM against the extractive answerer on the same dev-set questions (issue 20, item 4).

Round-robin over the sets, question by question, read-only on the `eval-<set>` tenants that `kmrag eval`
builds (run `kmrag eval --dataset X --strategy multihop` once first): the llm generator and the extractive one
on each question, scored as `kmrag eval --answer` scores them; one JSON line per answer, written as it comes
(a run cut short keeps what it did), with the LLM calls, tokens and seconds it took.

    eval "$(services/up.sh)"; KMRAG_LOCAL_LLM=qwen-1.5b services/llm.sh start
    KMRAG_SHARED_DATA=../shared/data python scripts/eval_local_llm.py 2wiki,hotpotqa,musique 50 \
        qwen2.5-coder-1.5b-instruct-q4_k_m http://127.0.0.1:8090/v1 reports/llm/qwen15.jsonl
    python scripts/eval_local_llm.py --summary reports/llm/qwen15.jsonl [SERVER_LOG [FROM_LINE]]

Where the model cannot be served beside the pipeline (a GPU on another machine), the run is split: with
``--replay CACHE.jsonl`` no server is called; each LLM request is looked up in the cache (one JSON line per
answer: key, text, prompt_tokens, completion_tokens) and a request it lacks is written to ``--misses FILE``
and answered "Information not found in knowledge map", so the pipeline goes on as if the model had declined
(a regeneration of such a made-up reply is not written: no model would be sent it).
``scripts/gen_transformers.py`` answers a misses file with the same GGUF on a GPU; run again with the grown
cache (``--only llm`` skips the extractive answers already written). The key is the request alone, not the
model: keep one cache per model. A row's ``llm_missing`` counts the requests it lacked (a regeneration or a second attempt): such an
answer is what the pipeline gives without them, so its figures are a lower bound.

The summary is a table per set and generator: n, EM, F1, supported share, not-found rate, seconds per answer;
with the llama.cpp server's log, its prompt and generation tokens/s (from its llama_perf lines).
"""
import hashlib
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

from kmrag.answer.llm import LLMClient
from kmrag.answer.validate import NOT_FOUND
from kmrag.config import load_settings
from kmrag.eval import metrics as M
from kmrag.eval.runner import answer_rows, load_set, record_source_id, source_id_for, tenant_for
from kmrag.nlp.embed import get_embedder
from kmrag.retrieval.strategies import build_strategy
from kmrag.stores import open_stores


def summary(rows_path: str, log: str | None = None, start: int = 0) -> None:
    last = {}
    for line in open(rows_path):  # rounds append: a question's last row stands
        if line.strip():
            r = json.loads(line)
            last[(r["dataset"], r["generator"], r["qid"])] = r
    rows = list(last.values())
    missing = sum(1 for r in rows if r.get("llm_missing"))
    if missing:
        print(f"{missing} answers lacked a recorded reply (llm_missing): replay again once the misses are answered")
    done = defaultdict(set)
    for r in rows:
        done[(r["dataset"], r["generator"])].add(r["qid"])
    both = {ds: done[(ds, "llm")] & done[(ds, "extractive")] for ds, _ in done}
    print("| model | set | n | EM | F1 | supported | not found | s/answer |")
    print("|---|---|---|---|---|---|---|---|")
    groups = defaultdict(list)
    for r in rows:
        if r["qid"] in both.get(r["dataset"], set()):
            groups[(r.get("model") or "extractive", r["dataset"])].append(r)
    for (model, ds), g in sorted(groups.items()):
        n = len(g)
        sup = [r["supported_share"] for r in g if r["supported_share"] is not None]
        print(f"| {model} | {ds} | {n} | {100 * sum(r['em'] or 0 for r in g) / n:.1f} | "
              f"{100 * sum(r['f1'] or 0 for r in g) / n:.1f} | {100 * sum(sup) / len(sup) if sup else float('nan'):.1f} | "
              f"{100 * sum(1 for r in g if not r['found']) / n:.1f} | {sum(r['s'] for r in g) / n:.1f} |")
    if log:
        pe = [tuple(map(float, m)) for m in re.findall(r"prompt eval time =\s+([\d.]+) ms /\s+(\d+) tokens",
                                                       "".join(open(log).readlines()[start:]))]
        ge = [tuple(map(float, m)) for m in re.findall(r"\n\S*\s+eval time =\s+([\d.]+) ms /\s+(\d+) runs",
                                                       "".join(open(log).readlines()[start:]))]
        if pe and ge:
            print(f"prompt: {sum(t for _, t in pe) / sum(ms for ms, _ in pe) * 1000:.1f} tokens/s over "
                  f"{int(sum(t for _, t in pe))} tokens; generation: {sum(t for _, t in ge) / sum(ms for ms, _ in ge) * 1000:.1f} "
                  f"tokens/s over {int(sum(t for _, t in ge))} tokens ({len(pe)} calls)")


if sys.argv[1] == "--summary":
    summary(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None, int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    sys.exit(0)
def request_key(system: str, user: str, few_shot: str, max_tokens: int, examples: tuple, api: str) -> str:
    """The same request always has the same key: what the model is sent, nothing else."""
    body = json.dumps([api, system, [list(e) for e in examples], user, few_shot if api == "completions" else "",
                       max_tokens], ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()[:32]


def option(name: str) -> str | None:
    if name in sys.argv:
        i = sys.argv.index(name)
        value = sys.argv[i + 1]
        del sys.argv[i:i + 2]
        return value
    return None


replay, misses_path = option("--replay"), option("--misses")
generators = (option("--only") or "llm,extractive").split(",")
sets, n, model, url, out = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3], sys.argv[4], Path(sys.argv[5])
s = load_settings(llm_base_url=url, llm_model=model, llm_timeout=600)
stores = open_stores(s)
orig = LLMClient.complete
calls = []
cache = {}
if replay and Path(replay).exists():
    cache = {r["key"]: r for r in map(json.loads, Path(replay).read_text().splitlines()) if r.get("key")}
written = set()
faked = set()  # the prompts answered with FAKE for want of a recorded reply
FAKE = NOT_FOUND  # what a model that declined would say
state = {"missing": False}


def replayed(self, system, user, few_shot="", max_tokens=200, examples=()):
    key = request_key(system, user, few_shot, max_tokens, examples, self.api)
    hit = cache.get(key)
    state["missing"] = hit is None
    if hit is None:
        # a regeneration of a draft this replay made up itself asks nothing a model will be asked: not written
        on_fake = any(u in faked and a == FAKE for u, a in examples[1:])
        faked.add(user)
        if misses_path and key not in written and not on_fake:
            written.add(key)
            with open(misses_path, "a") as m:
                m.write(json.dumps({"key": key, "api": self.api, "system": system, "examples": [list(e) for e in examples],
                                    "user": user, "few_shot": few_shot, "max_tokens": max_tokens}, ensure_ascii=False) + "\n")
        return FAKE
    self.usage["calls"] += 1
    self.usage["prompt_tokens"] += int(hit.get("prompt_tokens") or 0)
    self.usage["completion_tokens"] += int(hit.get("completion_tokens") or 0)
    return str(hit["text"])


def timed(self, *a, **k):
    t = time.perf_counter()
    p0, c0 = self.usage["prompt_tokens"], self.usage["completion_tokens"]
    state["missing"] = False
    text = (replayed if replay else orig)(self, *a, **k)
    missing = state["missing"]
    calls.append({"s": time.perf_counter() - t, "prompt": self.usage["prompt_tokens"] - p0,
                  "completion": self.usage["completion_tokens"] - c0, "missing": missing})
    return text


LLMClient.complete = timed
emb = get_embedder(s)
data = {}
for ds in sets:
    path, fmt, items, _, passages = load_set(ds, None)
    fsid = source_id_for(path, path)
    k2s = {p.key: record_source_id(fsid, p.title, p.text) for p in passages}
    tenant = tenant_for(ds)
    stored = stores.units.source_ids(tenant)
    qs = items[:n]
    data[ds] = (tenant, fmt, qs, [M.resolve_gold(it.gold_keys, k2s, stored) for it in qs],
                build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph))
out.parent.mkdir(parents=True, exist_ok=True)
with out.open("a") as f:
    for i in range(n):
        for ds in sets:
            tenant, fmt, qs, res, retr = data[ds]
            for gen in generators:
                calls.clear()
                t = time.perf_counter()
                rows = answer_rows(stores, tenant, "multihop", gen, retr, qs[i:i+1], res[i:i+1], key=ds,
                                   evidence="passages" if fmt == "musique" else "sentences")
                r = rows[0]
                rec = {"dataset": ds, "i": i, "qid": r.qid, "generator": gen, "model": model if gen == "llm" else None,
                       "em": r.em, "f1": r.f1, "found": r.found, "supported_share": r.supported_share,
                       "correct": r.correct, "citation_validity": r.citation_validity, "error": r.error,
                       "prediction": r.prediction, "answers": r.answers, "s": round(time.perf_counter() - t, 2),
                       "llm_calls": len(calls), "llm_missing": sum(c["missing"] for c in calls),
                       "llm_s": round(sum(c["s"] for c in calls), 2),
                       "prompt_tokens": sum(c["prompt"] for c in calls),
                       "completion_tokens": sum(c["completion"] for c in calls)}
                f.write(json.dumps(rec) + "\n")
                f.flush()
