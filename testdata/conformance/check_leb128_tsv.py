#!/usr/bin/env python3
"""Self-consistency check of leb128_cases.tsv (standard library only).

Decodes every input_hex with plain LEB128 readers written from the WebAssembly rules (at most
ceil(N/7) bytes; the unused bits of the last byte must be zero, or for signed types a copy of the
sign bit) and checks the recorded outcome, value, bytes consumed and the 'canonical' flag. This
guards against transcription errors; it is not an independent authority. Written for this project.
Exit status 1 on any disagreement.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTHS = {"u32": (32, False), "u64": (64, False), "i32": (32, True), "i64": (64, True)}


def read_tsv(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    hdr = lines[0].split("\t")
    return [dict(zip(hdr, l.split("\t"))) for l in lines[1:]]


def leb(b, bits, signed):
    """('ok', value, n) | ('truncated',) | ('overflow',)"""
    max_len = -(-bits // 7)
    value = 0
    for i in range(max_len):
        if i == len(b):
            return ("truncated",)
        value |= (b[i] & 0x7F) << (7 * i)
        if b[i] < 0x80:
            n = i + 1
            if signed and value >> (7 * n - 1):
                value -= 1 << (7 * n)
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
            return ("ok", value, n) if lo <= value <= hi else ("overflow",)
    return ("overflow",)


def shortest(value, signed):
    n = 1
    while True:
        if signed and -(1 << (7 * n - 1)) <= value < (1 << (7 * n - 1)):
            return n
        if not signed and value < (1 << (7 * n)):
            return n
        n += 1


def main():
    bad = 0
    rows = read_tsv("leb128_cases.tsv")
    for row in rows:
        b = bytes.fromhex(row["input_hex"])
        types = {"uleb": ["u32", "u64"], "sleb": ["i32", "i64"]}.get(row["type"], [row["type"]])
        for t in types:
            bits, signed = WIDTHS[t]
            got = leb(b, bits, signed)
            want = [row["expect"]]
            if row["expect"] == "ok":
                want += [int(row["value"]), int(row["consumed"])]
            if list(got) != want:
                print(f"MISMATCH {row['id']} as {t}: got {got}, want {want}")
                bad += 1
            elif row["expect"] == "ok":
                canonical = shortest(got[1], signed) == got[2]
                if str(int(canonical)) != row["canonical"]:
                    print(f"MISMATCH {row['id']} canonical flag")
                    bad += 1
    print(f"leb128_cases.tsv rows {len(rows)} mismatch {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
