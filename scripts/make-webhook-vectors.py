#!/usr/bin/env python3
"""Webhook signature test vectors, made by Python's own json and hmac modules.

docs/service.md ("Webhooks") describes the signed content in the words of Python's idiom
``json.dumps(payload, sort_keys=True, separators=(",", ":"))``; these vectors are what that
idiom really writes, so that src/shared/webhook is checked against the reference and not
against itself.

Usage (python3, standard library only):
  make-webhook-vectors.py                     write test/fixtures/webhook-vectors.json
  make-webhook-vectors.py --stdout            print the same vectors instead
  make-webhook-vectors.py --verify SECRET SIG read a body on stdin; print ok or bad
  make-webhook-vectors.py --canonical         stdin: JSON array of bodies; stdout: JSON array
                                              of their canonical texts (null when not JSON)

Every vector also passes the project's rule of keeping each number's text as the sender
wrote it (src/shared/webhook/canonical-json.ts): the script checks that the rule and Python agree on each
one, which is why floats in the bodies are written in Python's repr (1e-07, not 1e-7).
"""

import hashlib
import hmac
import json
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "webhook-vectors.json"
SECRET = "whsec_vet_scribe_test"


def canonical(raw):
    return json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"))


def sign(secret, text):
    return hmac.new(secret.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).hexdigest()


class _NumberText:
    def __init__(self, text):
        self.text = text


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def canonical_keeping_number_text(raw):
    """The project's rule: Python's canonical form, but numbers written as received."""
    value = json.loads(raw, parse_int=_NumberText, parse_float=_NumberText, parse_constant=_reject_constant)

    def write(v):
        if isinstance(v, dict):
            return "{" + ",".join(json.dumps(k) + ":" + write(v[k]) for k in sorted(v)) + "}"
        if isinstance(v, list):
            return "[" + ",".join(write(item) for item in v) + "]"
        if isinstance(v, _NumberText):
            return v.text
        return json.dumps(v)

    return write(value)


def scribe_event(status="completed"):
    return {
        "event_id": "9b2f6c1e-6d7a-4e0f-9a51-3c2d8e7b1f40",
        "event_type": "scribe",
        "status": status,
        "scribe_public_id": "scr_01HZX3K8Q4W2",
        "recording_session_public_id": "rs_01HZX3JZ8M7N",
        "organization_public_id": "5f0c8a9e-2b4d-4c61-8f3a-7d9e1b2c3a4d",
        "occurred_at": "2025-03-14T09:26:53.589Z",
    }


NON_ASCII = {"owner": "Müller", "note": "café crème brûlée", "ja": "犬の診察、猫のワクチン", "greek": "Ωμέγα"}
EMOJI = {"mood": "🐶🐱", "thumbs": "ok 👍🏽", "math": "𝄞 𝔸", "mixed": "a😀b"}
NESTED = {
    "b": {"d": {"f": {}, "e": [], "g": {"z": [1, {"y": 2, "x": [3, [4, [5]]]}]}}, "c": 0},
    "a": [1, [2, [3, {"z": 1, "y": [True, False, None]}]]],
}
FLOATS = {
    "weight_kg": 2.0,
    "dose_mg_per_kg": 1e-07,
    "tiny": 5e-324,
    "big": 1e22,
    "huge": 1.5e300,
    "pi": 3.141592653589793,
    "neg_zero": -0.0,
    "neg_half": -0.5,
    "temp_c": 38.6,
    "list": [0.1, 100.0, 1e16, 12345.678],
}
INTEGERS = {
    "minus_one": -1,
    "zero": 0,
    "beyond_double": -9007199254740993,
    "u64_max": 18446744073709551615,
    "big": 123456789012345678901234567890123456789,
    "list": [-2, -1, 0, 1, 2],
}
ESCAPES = {
    "quote": 'say "hi"',
    "backslash": "C:\\clinic\\notes",
    "newline": "line one\nline two",
    "tab": "a\tb",
    "cr": "a\r\nb",
    "backspace_formfeed": "\b\f",
    "controls": "\x00\x01\x07\x1b\x1f",
    "del": "\x7f",
    "slash": "a/b </script>",
    "separators": "\u2028\u2029",
    "nbsp_bom": "\u00a0\ufeff",
}
UNICODE_KEYS = {
    "z": 1,
    "a": 2,
    "B": 3,
    "é": 4,
    "\ue000": 5,
    "\uffff": 6,
    "😀": 7,
    "𝄞": 8,
    "日本": 9,
    "": 10,
    "aa": 11,
    "a\u0000": 12,
    "ab😀": 13,
    "ab\uffff": 14,
}
LITERALS = {"t": True, "f": False, "n": None, "list": [None, True, False], "nested": {"ok": True}}


def vectors():
    cases = [
        ("scribe event, default json.dumps spacing", SECRET, json.dumps(scribe_event())),
        ("scribe event, other key order", SECRET, json.dumps(dict(reversed(list(scribe_event("failed").items()))))),
        ("scribe event, already canonical", SECRET, canonical(json.dumps(scribe_event()))),
        ("scribe event, indented", SECRET, json.dumps(scribe_event(), indent=2)),
        ("non-ASCII, escaped on the wire", SECRET, json.dumps(NON_ASCII)),
        ("non-ASCII, raw UTF-8 on the wire", SECRET, json.dumps(NON_ASCII, ensure_ascii=False)),
        ("emoji (astral), escaped on the wire", SECRET, json.dumps(EMOJI)),
        ("emoji (astral), raw on the wire", SECRET, json.dumps(EMOJI, ensure_ascii=False)),
        ("emoji as an escaped surrogate pair", SECRET, '{"e": "\\ud83d\\ude00", "upper": "\\uD83D\\uDE00"}'),
        ("lone surrogate escape", SECRET, '{"lone": "\\udc00x", "high": "\\ud800"}'),
        ("uppercase hex escape", SECRET, '{"name": "M\\u00FCller"}'),
        ("nested arrays and objects", SECRET, json.dumps(NESTED, indent=2)),
        ("floats in Python repr", SECRET, json.dumps(FLOATS)),
        ("negative and big integers", SECRET, json.dumps(INTEGERS)),
        ("escapes", SECRET, json.dumps(ESCAPES)),
        ("escapes, raw on the wire", SECRET, json.dumps(ESCAPES, ensure_ascii=False)),
        ("escaped slash on the wire", SECRET, '{"url": "https:\\/\\/example.org\\/notes\\/1"}'),
        ("empty containers", SECRET, json.dumps({"o": {}, "a": [], "s": "", "deep": [[], {}, [{}]]})),
        ("empty object", SECRET, "{}"),
        ("empty array", SECRET, " [ ] "),
        ("unicode keys sort by code point", SECRET, json.dumps(UNICODE_KEYS, ensure_ascii=False)),
        ("unicode keys, escaped on the wire", SECRET, json.dumps(UNICODE_KEYS)),
        ("booleans and null", SECRET, json.dumps(LITERALS)),
        ("hand-written whitespace", SECRET, '\r\n\t{ "b" : 1 ,\n\t"a" : [ 1 , 2.5 , -3 ] , "c":{"y" :null,"x":true} }\n '),
        ("duplicate keys, last wins", SECRET, '{"a": 1, "b": 2, "a": {"z": 0, "z": 3}}'),
        ("top-level string", SECRET, '"M\\u00fcller \\ud83d\\udc3e"'),
        ("top-level number", SECRET, "-1.25e+301"),
        ("top-level array of everything", SECRET, json.dumps([scribe_event(), NON_ASCII, [1, 2.0, -3], "x", None, True])),
        ("non-ASCII secret", "sécret-🔑-秘密", json.dumps(scribe_event())),
        ("long text", SECRET, json.dumps({"note": "Vomiting for 2 days. " * 400 + "Müller 🐕"})),
    ]
    out = []
    for name, secret, raw in cases:
        text = canonical(raw)
        kept = canonical_keeping_number_text(raw)
        if kept != text:
            raise SystemExit(f"vector {name!r}: Python writes {text!r}, the number-text rule {kept!r}")
        out.append({"name": name, "secret": secret, "raw": raw, "canonical": text, "signature": sign(secret, text)})
    return out


def dump_vectors():
    return json.dumps(vectors(), indent=2, ensure_ascii=False) + "\n"


def read_stdin_text():
    # Bytes, decoded here: the locale's encoding must not decide what the body says.
    return sys.stdin.buffer.read().decode("utf-8")


def verify(secret, signature):
    try:
        text = canonical(read_stdin_text())
    except ValueError as error:
        print(f"bad: {error}")
        return 1
    ok = hmac.compare_digest(sign(secret, text), signature)
    print("ok" if ok else "bad")
    return 0 if ok else 1


def canonical_batch():
    results = []
    for raw in json.loads(read_stdin_text()):
        try:
            results.append(canonical(raw))
        except ValueError:
            results.append(None)
    sys.stdout.write(json.dumps(results) + "\n")
    return 0


def main(argv):
    if argv[:1] == ["--verify"] and len(argv) == 3:
        return verify(argv[1], argv[2])
    if argv == ["--canonical"]:
        return canonical_batch()
    if argv == ["--stdout"]:
        sys.stdout.buffer.write(dump_vectors().encode("utf-8"))
        return 0
    if argv == []:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        FIXTURE.write_text(dump_vectors(), encoding="utf-8")
        print(f"wrote {len(vectors())} vectors to {FIXTURE}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
