"""Small SVG pieces the games' drawings share (text is always escaped)."""

from __future__ import annotations

from xml.sax.saxutils import escape


def svg_text(
    x: float,
    y: float,
    text: str,
    size: int = 12,
    weight: str = "normal",
    anchor: str = "start",
    fill: str = "#1a1a1a",
) -> str:
    """Returns an SVG text element in sans-serif at (x, y), its content escaped."""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
        f'fill="{fill}" font-family="sans-serif">{escape(text)}</text>'
    )
