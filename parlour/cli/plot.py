"""Plots as self-contained SVG (no plotting library): tournament ratings with their uncertainty."""

from __future__ import annotations

from html import escape

from parlour.core.positions import JSONObject

WIDTH, ROW, LEFT, RIGHT, TOP = 760, 34, 170, 170, 50


def ratings_svg(result: JSONObject) -> str:
    """Returns a bar chart of each bot's μ with a ±2σ whisker, best first."""
    rows = result["bots"]
    low = min(min(r["mu"] - 2 * r["sigma"] for r in rows), 0.0)
    high = max(r["mu"] + 2 * r["sigma"] for r in rows)
    span = max(high - low, 1e-9)

    def x(value: float) -> float:
        return float(LEFT + (WIDTH - LEFT - RIGHT) * (value - low) / span)

    height = TOP + ROW * len(rows) + 30
    games, players = result["games"], result["players"]
    title = escape(f"{result['game']}: OpenSkill ratings over {games} games of {players}")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        'font-family="sans-serif">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-size="15">{title}</text>',
    ]
    for i, row in enumerate(rows):
        y = TOP + i * ROW
        parts.append(
            f'<text x="{LEFT - 8}" y="{y + 17}" text-anchor="end" font-size="13">{escape(row["bot"])}</text>'
        )
        parts.append(
            f'<rect x="{x(low):.1f}" y="{y + 4}" width="{x(row["mu"]) - x(low):.1f}" height="18" '
            'fill="#4a7ab5"/>'
        )
        a, b = x(row["mu"] - 2 * row["sigma"]), x(row["mu"] + 2 * row["sigma"])
        parts.append(f'<line x1="{a:.1f}" y1="{y + 13}" x2="{b:.1f}" y2="{y + 13}" stroke="black"/>')
        parts.append(
            f'<text x="{b + 4:.1f}" y="{y + 17}" font-size="11">{row["mu"]:.1f} ± {2 * row["sigma"]:.1f}, '
            f"wins {row['win_rate']:.0%}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
