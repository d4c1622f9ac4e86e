"""Draw the installable app's icons (handsite/static/handsite/icons/): a fanned hand of three cards on
the site's green, as PNGs (resvg renders the SVG). "any" icons have rounded corners; "maskable" ones fill
the square and keep the cards inside the central safe zone (a circle of 80 %), since phones cut them to
their own shape; the badge is a white silhouette (Android draws it in one colour)."""

from pathlib import Path

from django.core.management.base import BaseCommand

GREEN = "#0f6b4f"
CARD = (
    '<rect x="-62" y="{y}" width="124" height="176" rx="14" fill="{back}" stroke="{line}" stroke-width="6"/>'
)
MARK = '<path d="M0 -128 L22 -92 L0 -56 L-22 -92 Z" fill="{mark}"/>'
CARDS = (
    '<g transform="translate(256 300)">'
    + f'<g transform="rotate(-18)">{CARD.format(y=-170, back="{back}", line="{line}")}</g>'
    + f"<g>{CARD.format(y=-178, back='{back}', line='{line}')}</g>"
    + f'<g transform="rotate(18)">{CARD.format(y=-170, back="{back}", line="{line}")}{MARK}</g>'
    + "</g>"
)


def svg(*, maskable: bool = False, badge: bool = False) -> str:
    if badge:
        body = CARDS.format(back="#ffffff", line="#ffffff", mark="#ffffff")
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">{body}</svg>'
    ground = (
        f'<rect width="512" height="512" fill="{GREEN}"/>'
        if maskable
        else f'<rect width="512" height="512" rx="112" fill="{GREEN}"/>'
    )
    cards = CARDS.format(back="#ffffff", line="#0b4f3a", mark="#c0392b")
    if maskable:  # the cards inside the safe zone
        cards = f'<g transform="translate(256 256) scale(0.72) translate(-256 -256)">{cards}</g>'
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">{ground}{cards}</svg>'


class Command(BaseCommand):
    help = "Draw the app's PNG icons into handsite/static/handsite/icons/."

    def handle(self, *args, **options):
        import resvg_py

        folder = Path(__file__).resolve().parents[2] / "static" / "handsite" / "icons"
        folder.mkdir(parents=True, exist_ok=True)
        made = {
            **{f"icon-{size}.png": (svg(), size) for size in (192, 512)},
            **{f"maskable-{size}.png": (svg(maskable=True), size) for size in (192, 512)},
            "apple-touch-icon.png": (svg(maskable=True), 180),
            "badge-96.png": (svg(badge=True), 96),
        }
        for name, (source, size) in made.items():
            png = resvg_py.svg_to_bytes(svg_string=source, width=size, height=size)
            (folder / name).write_bytes(bytes(png))
            self.stdout.write(f"{name}: {size}x{size}")
