"""The shareable result card: the public page behind a signed link and its picture for chat previews."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import get_language_bidi, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engine.variants import VARIANTS
from scoring import charts
from scoring.services import cards


def _card_words(card) -> tuple[str, str, str]:
    """The card's rule-set name, title and one-line description (translated)."""
    variant = _(VARIANTS[card.rule_set].name)
    if len(card.winners) == 1:
        title = _("%(name)s won a game of %(game)s") % {"name": card.winners[0], "game": variant}
    else:
        title = _("A shared win in %(game)s: %(names)s") % {
            "game": variant,
            "names": " · ".join(card.winners),
        }
    description = " · ".join(f"{name} {total}" for _rank, name, total in card.rows)
    return variant, title, description


@require_GET
def result_card(request, token):
    """A finished game's result card, public to whoever has the signed link (made for the group's chat):
    names, totals, the winner; Open Graph tags (and a picture) for the link preview. 404 for any other
    link."""
    card = cards.result_card(token)
    if card is None:
        raise Http404
    # In the card's language (its sheet creator's), not the fetching chat bot's: the group reads it.
    with translation.override(card.language or translation.get_language()):
        variant, title, description = _card_words(card)
        context = {
            "card": card,
            "variant_name": variant,
            "og_title": title,
            "og_description": description,
            "og_image": request.build_absolute_uri(reverse("scoring:result_card_image", args=[token])),
        }
        response = render(request, "scoring/result_card.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response


CARD_IMAGE_ROWS = 6
"""The most rows the card's picture shows (the page shows them all)."""


@require_GET
def result_card_image(request, token):
    """The result card as a 1200×630 PNG for chat previews: an SVG drawn by a template, rendered by
    resvg (cached by its content, so a card is drawn once)."""
    card = cards.result_card(token)
    if card is None:
        raise Http404
    with translation.override(card.language or translation.get_language()):
        svg = _card_svg(card)
    response = HttpResponse(charts.svg_to_png(svg), content_type="image/png")
    response["Cache-Control"] = "public, max-age=3600"
    response["X-Robots-Tag"] = "noindex"
    return response


def _card_svg(card) -> str:
    """The card's picture as SVG text, in the active language."""
    variant, title, _description = _card_words(card)
    rows = [
        {
            "rank": rank,
            "name": charts.drawable(name),
            "total": total,
            "y": 175 + index * 70,
            "text_y": 218 + index * 70,
        }
        for index, (rank, name, total) in enumerate(card.rows[:CARD_IMAGE_ROWS])
    ]
    footer = ngettext("%(count)s deal played", "%(count)s deals played", card.deals) % {"count": card.deals}
    if card.finished_at:
        footer += " · " + date_format(timezone.localtime(card.finished_at), "DATE_FORMAT")
    return render_to_string(
        "scoring/result_card.svg",
        {
            "card_title": charts.drawable(card.title or ""),
            "variant_name": variant,
            "title": charts.drawable(title),
            "rows": rows,
            "footer": charts.drawable(footer),
            "rtl": get_language_bidi(),
        },
    )
