#!/usr/bin/env python3
"""A partial Cupel implementation behind the cupel-conform/1 protocol.

This program is an example for implementers of the Cupel specification in
languages other than Go. It implements three scorers (recency, priority,
reflexive) and both placers (chronological, u-shaped), and answers
``unsupported`` for everything else. Run the conformance suite against it
with

    go run ./cmd/cupel-conform run --impl-cmd "python3 examples/python-impl/cupel_impl.py"

The protocol (runner/PROTOCOL.md) in five rules:

1. stdin and stdout carry UTF-8 JSON, one object per line. Flush after every
   line you write.
2. stdout carries protocol lines only. Logs go to stderr.
3. The runner says ``hello`` first; answer ``hello`` with the protocol
   version, who you are and what you support.
4. Answer every ``run`` with exactly one ``result`` that echoes its ``seq``
   and ``id``. Return raw outputs keyed by item index; the runner does every
   comparison.
5. On ``bye`` (or end of input), exit.

Standard library only; Python 3.8 or later.
"""

import bisect
import datetime
import json
import math
import re
import sys
import traceback

PROTOCOL = "cupel-conform/1"

IMPLEMENTATION = {
    "name": "cupel-python-example",
    "version": "0.1.0",
    "language": "python",
    "homepage": "https://github.com/cupel-go/go-cupel/tree/main/examples/python-impl",
}

# Capabilities shape the runner's report only: they never excuse a case.
# A case this program cannot run is still answered "unsupported", and an
# unsupported case never counts as a pass.
CAPABILITIES = {
    "stages": ["scoring", "placing"],
    "scorers": ["recency", "priority", "reflexive"],
    "slicers": [],
    "placers": ["chronological", "u-shaped"],
    "features": [],
}


def log(message):
    """Write a diagnostic line to stderr, never to stdout.

    The runner drains stderr concurrently and attaches its tail to the
    report of a case that fails, so this is the place for debugging output.
    """
    print("cupel_impl: " + message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Wire encoding of floats and timestamps
# ---------------------------------------------------------------------------

_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def decode_float(value):
    """Decode a protocol float: a JSON number, or "NaN", "Infinity",
    "-Infinity" as strings. None (an absent field) stays None."""
    if value is None:
        return None
    if isinstance(value, str):
        if value not in _NON_FINITE:
            raise ValueError("not a protocol float: %r" % value)
        return _NON_FINITE[value]
    if isinstance(value, bool):  # bool is an int subclass in Python
        raise ValueError("not a protocol float: %r" % value)
    return float(value)


def encode_float(x):
    """Encode a float for the protocol: non-finite values as strings.

    json.dumps writes -0.0 as -0.0, which is what the protocol wants.
    """
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})"
    r"(?:\.(\d{1,9}))?"
    r"([Zz]|[+-]\d{2}:\d{2})$"
)
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def instant_ns(text):
    """Parse an RFC 3339 timestamp into nanoseconds since the Unix epoch.

    The runner sends UTC timestamps with up to nine fractional digits
    (nanoseconds). Python's datetime keeps microseconds only, so the
    fraction is parsed separately: two timestamps one nanosecond apart must
    still compare as different instants. Offsets are honoured, so the
    result orders instants, never strings.
    """
    m = _RFC3339.match(text)
    if m is None:
        raise ValueError("not an RFC 3339 timestamp: %r" % text)
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    fraction, offset = m.group(7) or "", m.group(8)
    tz = datetime.timezone.utc
    if offset not in ("Z", "z"):
        sign = -1 if offset[0] == "-" else 1
        hours, minutes = int(offset[1:3]), int(offset[4:6])
        tz = datetime.timezone(sign * datetime.timedelta(hours=hours, minutes=minutes))
    wall = datetime.datetime(year, month, day, hour, minute, second, tzinfo=tz)
    delta = wall - _EPOCH  # exact: days, seconds, no microseconds
    seconds = delta.days * 86400 + delta.seconds
    return seconds * 1_000_000_000 + int(fraction.ljust(9, "0"))


# ---------------------------------------------------------------------------
# Scorers (spec chapters 14 (RecencyScorer), 15 (PriorityScorer) and
# 19 (ReflexiveScorer))
# ---------------------------------------------------------------------------


def rank_scores(keys):
    """The rank algorithm shared by RecencyScorer and PriorityScorer.

    keys[i] is the ordering key of item i, or None when the item has no
    timestamp (priority). An item without a key scores 0.0. An item with a
    key scores rank / (count - 1), where rank is the number of keyed items
    whose key is strictly lower and count the number of keyed items; a lone
    keyed item scores 1.0. Tied keys get the same rank, so the same score.
    """
    present = sorted(k for k in keys if k is not None)
    count = len(present)
    scores = []
    for key in keys:
        if key is None:
            scores.append(0.0)
        elif count <= 1:
            scores.append(1.0)
        else:
            # bisect_left counts the keys strictly lower than this one.
            rank = bisect.bisect_left(present, key)
            scores.append(rank / (count - 1))
    return scores


def timestamp_key(item):
    """The item's timestamp in nanoseconds since the epoch, or None.

    Absent fields are omitted on the wire; a null is read as absent too.
    """
    text = item.get("timestamp")
    return None if text is None else instant_ns(text)


def score_recency(items):
    """RecencyScorer (spec chapter 14 (RecencyScorer)): rank by timestamp, as an instant."""
    return rank_scores([timestamp_key(it) for it in items])


def score_priority(items):
    """PriorityScorer (spec chapter 15 (PriorityScorer)): rank by priority, higher is better.

    Python integers are unbounded, so extreme priorities compare exactly.
    """
    return rank_scores([it.get("priority") for it in items])


def score_reflexive(items):
    """ReflexiveScorer (spec chapter 19 (ReflexiveScorer)): the futureRelevanceHint clamped to
    [0, 1]. The order of the checks matters: absent, then non-finite (NaN
    and both infinities give 0.0, they are not clamped), then the clamp."""
    scores = []
    for it in items:
        hint = decode_float(it.get("futureRelevanceHint"))
        if hint is None or not math.isfinite(hint):
            scores.append(0.0)
        else:
            scores.append(min(max(hint, 0.0), 1.0))
    return scores


SCORERS = {
    "recency": score_recency,
    "priority": score_priority,
    "reflexive": score_reflexive,
}


# ---------------------------------------------------------------------------
# Placers (spec chapters 32 (ChronologicalPlacer) and 33 (UShapedPlacer),
# ruling 6)
# ---------------------------------------------------------------------------


def place_chronological(items):
    """ChronologicalPlacer (spec chapter 32 (ChronologicalPlacer)).

    Timestamped items first, ascending by instant; then items without a
    timestamp. Ties, and the items without a timestamp, keep their input
    position. Scores are ignored. Returns input positions in placed order.
    """

    def key(position):
        ts = timestamp_key(items[position])
        if ts is None:
            return (1, 0, position)
        return (0, ts, position)

    return sorted(range(len(items)), key=key)


def place_u_shaped(items):
    """UShapedPlacer (spec chapter 33 (UShapedPlacer)).

    Rank by score descending, ties by input position ascending. NaN ranks
    after every number, -infinity included (ruling 6); two NaNs are
    tied, so they keep input order. -0.0 equals 0.0, which Python's float
    comparison already gives. Rank 0, 2, 4, ... fill from the left edge,
    rank 1, 3, 5, ... from the right edge. Returns input positions in
    placed order.
    """

    def key(position):
        score = decode_float(items[position]["score"])
        if math.isnan(score):
            return (1, 0.0, position)
        return (0, -score, position)

    ranked = sorted(range(len(items)), key=key)
    placed = [None] * len(items)
    left, right = 0, len(items) - 1
    for rank, position in enumerate(ranked):
        if rank % 2 == 0:
            placed[left] = position
            left += 1
        else:
            placed[right] = position
            right -= 1
    return placed


PLACERS = {
    "chronological": place_chronological,
    "u-shaped": place_u_shaped,
}


# ---------------------------------------------------------------------------
# One case
# ---------------------------------------------------------------------------


class Unsupported(Exception):
    """The case needs something this implementation does not have."""


def run_case(stage, case):
    """Run one canonical case and return its raw output (a dict).

    Items are identified by their "index" field, never by content: content
    need not be unique. Here an item's index is also its position in the
    list, but the output always uses the field.
    """
    items = case["items"]
    if stage == "scoring":
        scorer = case["scorer"]["type"]
        if scorer not in SCORERS:
            raise Unsupported("scorer %s is not implemented" % scorer)
        scores = SCORERS[scorer](items)
        return {
            "scores": [
                {"index": it["index"], "score": encode_float(s)}
                for it, s in zip(items, scores)
            ]
        }
    if stage == "placing":
        placer = case["placer"]
        if placer not in PLACERS:
            raise Unsupported("placer %s is not implemented" % placer)
        return {"ordered": [items[p]["index"] for p in PLACERS[placer](items)]}
    if stage in ("slicing", "pipeline"):
        raise Unsupported("the %s stage is not implemented (no slicers yet)" % stage)
    raise Unsupported("unknown stage %s" % stage)


def handle_run(message):
    """Answer one "run" message with a "result" message.

    The result echoes seq and id. A case we cannot run is "unsupported"
    with a reason; an exception is an "error" (a bug of ours, which the
    runner reports on this case only). This implementation has no
    construction errors, so it never answers "rejected"; one that does
    answers {"status": "rejected", "error": {"kind": ..., "message": ...}}
    with a kind from the protocol's list (invalid_config, ...).
    """
    result = {"type": "result", "seq": message.get("seq"), "id": message.get("id")}
    try:
        output = run_case(message.get("stage"), message["case"])
    except Unsupported as e:
        result.update(status="unsupported", reason=str(e))
    except Exception as e:  # pylint: disable=broad-except
        log("case %s: %s" % (message.get("id"), traceback.format_exc()))
        result.update(status="error", error={"kind": "internal", "message": repr(e)})
    else:
        result.update(status="ok", output=output)
    return result


# ---------------------------------------------------------------------------
# The session
# ---------------------------------------------------------------------------


def send(out, message):
    """Write one protocol line and flush it.

    allow_nan=False makes a stray float('nan') an exception here rather
    than a bare NaN token, which is not JSON. ensure_ascii (the default)
    escapes every non-ASCII character, so the line is valid UTF-8 and
    contains no raw line separator.
    """
    line = json.dumps(message, separators=(",", ":"), allow_nan=False)
    out.write(line.encode("utf-8") + b"\n")
    out.flush()


def hello(message):
    """Answer the runner's hello, or return None if we share no protocol."""
    offered = message.get("protocol") or []
    if PROTOCOL not in offered:
        return None
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "implementation": IMPLEMENTATION,
        "capabilities": CAPABILITIES,
    }


def main():
    # Binary streams: no newline translation, no locale-dependent encoding.
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    greeted = False
    for raw in iter(stdin.readline, b""):
        raw = raw.strip()
        if not raw:
            continue
        try:
            message = json.loads(raw.decode("utf-8"))
        except ValueError as e:
            log("ignoring a line that is not JSON: %s" % e)
            continue
        kind = message.get("type")
        if kind == "hello":
            answer = hello(message)
            if answer is None:
                log("runner offers %r, we speak %s" % (message.get("protocol"), PROTOCOL))
                return 2
            send(stdout, answer)
            greeted = True
        elif kind == "run":
            if not greeted:
                log("run before hello")
            send(stdout, handle_run(message))
        elif kind == "bye":
            return 0
        else:
            # Unknown message types (and unknown fields) are ignored, so
            # that a newer runner can talk to this program.
            log("ignoring message type %r" % kind)
    return 0


if __name__ == "__main__":
    sys.exit(main())
