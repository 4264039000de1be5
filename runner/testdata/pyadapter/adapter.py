#!/usr/bin/env python3
"""A minimal cupel-conform/1 adapter in Python (standard library only), for
the runner's interoperability test: it implements the reflexive scorer and
the chronological placer, and answers unsupported for everything else."""
import json
import math
import sys
from datetime import datetime


def reflexive(item):
    h = item.get("futureRelevanceHint")
    if h is None:
        return 0.0
    if isinstance(h, str):  # "NaN", "Infinity", "-Infinity"
        return 0.0
    if math.isnan(h) or math.isinf(h):
        return 0.0
    return min(1.0, max(0.0, h))


def run(case, stage):
    if stage == "scoring" and case.get("scorer", {}).get("type") == "reflexive":
        # Bare NaN on purpose: Python's json writes it, the runner reads it.
        scores = [{"index": it["index"], "score": reflexive(it)} for it in case["items"]]
        return {"status": "ok", "output": {"scores": scores}}
    if stage == "placing" and case.get("placer") == "chronological":
        items = case["items"]
        # Parse: the text of RFC 3339 timestamps does not sort as instants
        # ("...00.5Z" < "...00Z").
        when = lambda it: datetime.fromisoformat(it["timestamp"].replace("Z", "+00:00"))
        dated = sorted((it for it in items if "timestamp" in it), key=lambda it: (when(it), it["index"]))
        undated = [it for it in items if "timestamp" not in it]
        return {"status": "ok", "output": {"ordered": [it["index"] for it in dated + undated]}}
    return {"status": "unsupported", "reason": "not implemented in this adapter"}


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        out = {"type": "hello", "protocol": "cupel-conform/1",
               "implementation": {"name": "pyadapter", "version": "0", "language": "python"},
               "capabilities": {"stages": ["scoring", "placing"], "scorers": ["reflexive"], "placers": ["chronological"]}}
    elif msg["type"] == "run":
        out = {"type": "result", "seq": msg["seq"], "id": msg["id"]}
        out.update(run(msg["case"], msg["stage"]))
        if msg["id"].endswith("reflexive-non-finite"):
            print("scoring non-finite hints", file=sys.stderr)
    else:
        break
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
