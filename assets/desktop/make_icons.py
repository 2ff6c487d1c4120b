#!/usr/bin/env python3
"""Draws coopviz's icon: a block of 4x4 threads, coloured by the 2x2 tile each belongs to (as the
app colours a tiled partition), on a dark rounded square. Writes coopviz.svg and the PNG sizes
from the same shapes, so the two never disagree. Run it from anywhere; it needs only Python."""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 256  # the SVG's user units; the PNGs scale from these
BACKGROUND = ("#1e2430", 0, 0, 256, 256, 40)
TILE_COLOURS = ["#4e9af1", "#f2a541", "#5cc27a", "#e05d6f"]


def shapes():
    """(colour, x, y, width, height, corner radius) in drawing order."""
    out = [BACKGROUND]
    cell, gap, margin = 44, 10, 23
    for row in range(4):
        for col in range(4):
            tile = (row // 2) * 2 + col // 2
            x = margin + col * (cell + gap) + (col // 2) * 4
            y = margin + row * (cell + gap) + (row // 2) * 4
            out.append((TILE_COLOURS[tile], x, y, cell, cell, 9))
    return out


def svg():
    rects = "\n".join(
        f'  <rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="{c}"/>'
        for c, x, y, w, h, r in shapes())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
            f'viewBox="0 0 {SIZE} {SIZE}">\n{rects}\n</svg>\n')


def inside(px, py, x, y, w, h, r):
    if not (x <= px < x + w and y <= py < y + h):
        return False
    cx = min(max(px, x + r), x + w - r)
    cy = min(max(py, y + r), y + h - r)
    return (px - cx) ** 2 + (py - cy) ** 2 <= r * r


def png(pixels):
    """RGBA, anti-aliased by 4x4 samples per pixel."""
    rows = []
    scale = SIZE / pixels
    items = [(tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)), x, y, w, h, r)
             for c, x, y, w, h, r in shapes()]
    for j in range(pixels):
        row = bytearray([0])  # filter: none
        for i in range(pixels):
            acc = [0, 0, 0, 0]
            for sj in range(4):
                for si in range(4):
                    px, py = (i + (si + 0.5) / 4) * scale, (j + (sj + 0.5) / 4) * scale
                    hit = None
                    for rgb, x, y, w, h, r in items:
                        if inside(px, py, x, y, w, h, r):
                            hit = rgb
                    if hit:
                        acc = [acc[0] + hit[0], acc[1] + hit[1], acc[2] + hit[2], acc[3] + 255]
            n = acc[3] // 255
            row += bytes([acc[0] // n, acc[1] // n, acc[2] // n] if n else [0, 0, 0])
            row.append(acc[3] // 16)
        rows.append(bytes(row))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", pixels, pixels, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    with open(os.path.join(HERE, "coopviz.svg"), "w") as f:
        f.write(svg())
    for pixels in (48, 256):
        with open(os.path.join(HERE, f"coopviz-{pixels}.png"), "wb") as f:
            f.write(png(pixels))
