"""Answer the LLM requests that ``scripts/eval_local_llm.py --replay`` could not, with a GGUF model run by
transformers on a GPU (the machine that has one need not have kmrag, llama.cpp or the stores).

    python gen_transformers.py MODEL.gguf MISSES.jsonl CACHE.jsonl [--save DIR] [--load DIR] [--batch 32]

Every request of MISSES (chat: system, example turns, user; ``max_tokens``) is rendered with the chat template
stored in the GGUF, decoded greedily (the same as ``temperature=0`` on a llama.cpp server) until the end of the
assistant's turn, and appended to CACHE as {key, text, prompt_tokens, completion_tokens, s}; requests whose key
is already in CACHE are skipped. transformers dequantises the Q4_K_M weights; they are run in float32, so the
model computes with the quantised values themselves, not a second rounding of them. ``--save`` keeps the
dequantised model (pickled: transformers saves no model read from a GGUF) for a second run on the same machine; ``--load`` reads it instead of the GGUF.
Needs torch, transformers and gguf; nothing of kmrag.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def option(argv: list[str], name: str, default: str | None = None) -> str | None:
    if name in argv:
        i = argv.index(name)
        value = argv[i + 1]
        del argv[i:i + 2]
        return value
    return default


def messages(req: dict) -> list[dict[str, str]]:
    turns = [{"role": "system", "content": req["system"]}]
    for user, assistant in req.get("examples") or []:
        turns += [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
    return [*turns, {"role": "user", "content": req["user"]}]


def load(gguf: Path, load_dir: str | None):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if load_dir and Path(load_dir).exists():  # transformers will not save a model read from a GGUF: pickled
        tok = AutoTokenizer.from_pretrained(load_dir)
        model = torch.load(Path(load_dir) / "model.pt", weights_only=False)
    else:
        tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    return tok, model.to("cuda" if torch.cuda.is_available() else "cpu").eval()


def main(argv: list[str]) -> int:
    import torch

    save_dir, load_dir = option(argv, "--save"), option(argv, "--load")
    batch = int(option(argv, "--batch", "32") or 32)
    gguf, misses, cache = Path(argv[1]), Path(argv[2]), Path(argv[3])
    done = {json.loads(x)["key"] for x in cache.read_text().splitlines() if x.strip()} if cache.exists() else set()
    reqs = [r for r in map(json.loads, misses.read_text().splitlines()) if r["key"] not in done]
    reqs = list({r["key"]: r for r in reqs}.values())
    if any(r.get("api", "chat") != "chat" for r in reqs):
        raise SystemExit("only chat requests are served here")
    t0 = time.perf_counter()
    tok, model = load(gguf, load_dir)
    print(f"loaded in {time.perf_counter() - t0:.1f} s on {model.device}; {len(reqs)} requests", flush=True)
    if save_dir and not (load_dir and Path(load_dir).exists()):
        import torch as _torch

        Path(save_dir).mkdir(parents=True, exist_ok=True)
        tok.save_pretrained(save_dir)
        _torch.save(model, Path(save_dir) / "model.pt")
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    stops = [i for i in {tok.convert_tokens_to_ids("<|im_end|>"), tok.convert_tokens_to_ids("<|endoftext|>"),
                         tok.eos_token_id} if isinstance(i, int) and i >= 0]
    texts = [tok.apply_chat_template(messages(r), add_generation_prompt=True, tokenize=False) for r in reqs]
    order = sorted(range(len(reqs)), key=lambda i: len(texts[i]))
    prompt_total = gen_total = 0
    gen_s = 0.0
    with cache.open("a") as out:
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            enc = tok([texts[i] for i in idx], return_tensors="pt", padding=True, add_special_tokens=False).to(model.device)
            t = time.perf_counter()
            with torch.no_grad():
                got = model.generate(**enc, max_new_tokens=max(int(reqs[i]["max_tokens"]) for i in idx), do_sample=False,
                                     temperature=None, top_p=None, top_k=None, eos_token_id=stops,
                                     pad_token_id=tok.pad_token_id)
            took = time.perf_counter() - t
            gen_s += took
            width = enc["input_ids"].shape[1]
            for row, i in enumerate(idx):
                new = got[row, width:].tolist()[: int(reqs[i]["max_tokens"])]
                cut = next((k for k, x in enumerate(new) if x in stops), len(new))
                prompt = int(enc["attention_mask"][row].sum())
                prompt_total, gen_total = prompt_total + prompt, gen_total + cut
                out.write(json.dumps({"key": reqs[i]["key"], "text": tok.decode(new[:cut], skip_special_tokens=True),
                                      "prompt_tokens": prompt, "completion_tokens": cut,
                                      "s": round(took / len(idx), 3)}, ensure_ascii=False) + "\n")
            out.flush()
            print(f"batch {b // batch + 1}: {len(idx)} requests, {width} prompt tokens wide, {took:.1f} s", flush=True)
    if reqs:
        print(f"{len(reqs)} requests: {prompt_total} prompt and {gen_total} generated tokens in {gen_s:.1f} s of "
              f"generation ({gen_total / gen_s:.1f} generated tokens/s over batches of {batch}; "
              f"{gen_s / len(reqs):.2f} s a request)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
