"""Draw the installable app's icons (handsite/static/handsite/icons/): a fanned hand of three cards on
the site's green, as PNGs (resvg renders the SVG). "any" icons have rounded corners; "maskable" ones fill
the square and keep the cards inside the central safe zone (a circle of 80 %), since phones cut them to
their own shape; the badge is a white silhouette (Android draws it in one colour); the tab's icon has a
second drawing with a dot, shown while it is the player's turn."""

from pathlib import Path

from django.core.management.base import BaseCommand
from django.template.loader import render_to_string


def svg(*, maskable: bool = False, badge: bool = False, dot: bool = False) -> str:
    """The icon's SVG (templates/handsite/app_icon.svg): white cards on the site's green, or a white
    silhouette for the badge; ``dot``: the tab's icon while it is the player's turn."""
    colours = (
        {"back": "#ffffff", "line": "#ffffff", "mark": "#ffffff"}
        if badge
        else {"back": "#ffffff", "line": "#0b4f3a", "mark": "#c0392b"}
    )
    context = {"maskable": maskable, "badge": badge, "dot": dot, **colours}
    return render_to_string("handsite/app_icon.svg", context)


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
            "tab-32.png": (svg(), 32),
            "tab-turn-32.png": (svg(dot=True), 32),
        }
        for name, (source, size) in made.items():
            png = resvg_py.svg_to_bytes(svg_string=source, width=size, height=size)
            (folder / name).write_bytes(bytes(png))
            self.stdout.write(f"{name}: {size}x{size}")
