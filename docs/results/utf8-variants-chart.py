#!/usr/bin/env python3
"""Draws docs/results/utf8-variants.svg from the ratio table that
`cargo bench -p benches --bench utf8_variants_min` prints (read on stdin).

    cargo bench -p benches --bench utf8_variants_min -- 400 \
        | python3 docs/results/utf8-variants-chart.py > docs/results/utf8-variants.svg

One panel per ratio column, one bar per text, a line at 1x and one at the
target (0.9x for validation against UTF-8, 1.5x for decoding against
simd_cesu8). No dependencies beyond Python 3.
"""
import sys

lines = sys.stdin.read().splitlines()
start = lines.index("Ratios")
rows = [l for l in lines[start:] if l.startswith("| ") and not l.startswith("| text")]
header = next(l for l in lines[start:] if l.startswith("| text"))
cols = [c.strip() for c in header.strip("|").split("|")][1:]
data = []
for r in rows:
    cells = [c.strip() for c in r.strip("|").split("|")]
    data.append((cells[0], [float(x) for x in cells[1:]]))

panels = [c for c in cols]
W, ROW, PAD = 980, 16, 8
bar_w = 300
panel_h = len(data) * ROW + 40
H = 40 + ((len(panels) + 1) // 2) * (panel_h + PAD)
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       '<text x="8" y="20" font-size="14" font-weight="bold">utf8-variants: ratios, min of interleaved rounds, 64 KiB lipsum texts (right of 1x is faster)</text>']
for i, name in enumerate(panels):
    px = 8 + (i % 2) * (W // 2)
    py = 40 + (i // 2) * (panel_h + PAD)
    target = 1.5 if "simd_cesu8" in name else (0.9 if "utf8-simd" in name else None)
    vmax = max(max(v[i] for _, v in data), target or 1.0, 1.0) * 1.1
    scale = lambda v: bar_w * min(v, vmax) / vmax
    out.append(f'<text x="{px}" y="{py + 12}" font-weight="bold">{name}</text>')
    x0 = px + 70
    for k, (text, vals) in enumerate(data):
        y = py + 20 + k * ROW
        v = vals[i]
        colour = "#4a7" if target is None or v >= target else "#d75"
        out.append(f'<text x="{px}" y="{y + 11}">{text}</text>')
        out.append(f'<rect x="{x0}" y="{y + 2}" width="{scale(v):.1f}" height="{ROW - 4}" fill="{colour}"/>')
        out.append(f'<text x="{x0 + scale(v) + 4:.1f}" y="{y + 11}">{v:.2f}x</text>')
    for mark, style in [(1.0, "#000"), (target, "#888")]:
        if mark is None:
            continue
        x = x0 + scale(mark)
        out.append(f'<line x1="{x:.1f}" y1="{py + 18}" x2="{x:.1f}" y2="{py + 20 + len(data) * ROW}" stroke="{style}" stroke-dasharray="3,2"/>')
out.append("</svg>")
print("\n".join(out))
