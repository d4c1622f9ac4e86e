"""Every refusal the deal form can give, walked one by one in English and Arabic: a refusal about one
player's (one side's) figures names them by the sheet's name and sits beside that figure's field; a
refusal about the deal as a whole sits at the top. The engine's refusals about one seat that the form
cannot send are walked through the service, and together the two walks cover every engine sentence
the sheet words with a name."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import refusals
from scoring.models import Deal
from scoring.services.deals import add_deal
from scoring.services.errors import SheetError
from tests.scoring.conftest import keyed, make_sheet

ARABIC = re.compile(r"[\u0600-\u06ff]")
NUMBERED = re.compile(r"(Player|اللاعب) \d")

HAND = {"winner": "0", "finish": "normal"}
HANDFOOT = {
    "went_out": "0",
    "red_books_0": "1",
    "black_books_0": "1",
    "melded_points_0": "200",
    "red_books_1": "0",
    "black_books_1": "0",
    "melded_points_1": "30",
    "held_points_1": "25",
}
TEAMS = {
    "went_out": "0",
    "red_books_0": "1",
    "black_books_0": "1",
    "melded_points_0": "200",
    "melded_points_1": "30",
    "held_points_1": "25",
    "held_points_3": "10",
}
CAST = {
    "classic": ["Lina", "Omar"],
    "teams": ["Lina", "Omar", "Sara"],
    "kuwaiti": ["Lina", "Omar"],
    "jordanian": ["Lina", "Omar"],
    "hand-and-foot": ["Lina"],
    "hand-and-foot-teams": ["Lina", "Omar", "Sara"],
}


@dataclass(frozen=True)
class Refusal:
    """One refusal: the sheet, what the form sends, where the sentence goes (a field, or None for the
    top), whom it names, and a piece of its English wording."""

    sheet: str
    data: dict
    field: str | None
    names: tuple[str, ...]
    english: str
    base: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.sheet}:{self.field or 'top'}:{self.english[:40]}"


def one(sheet, data, field_name, names, english, base=None) -> Refusal:
    if base is None:
        base = HANDFOOT if sheet == "hand-and-foot" else TEAMS if sheet == "hand-and-foot-teams" else HAND
    return Refusal(sheet, data, field_name, tuple(names), english, base)


REFUSALS = [
    # The deal as a whole: at the top, nobody named (or every player it is about).
    one("classic", {"winner": ""}, None, [], "Say who went out, or mark the deal as void."),
    one("classic", {"winner": "9"}, None, [], "Choose who went out among the players of this sheet."),
    one("classic", {"winner": "x"}, None, [], "Choose who went out among the players of this sheet."),
    one("classic", {"winner": ["1", "2"]}, None, ["Lina", "Omar"], "Lina and Omar are both marked."),
    one("classic", {"void": "on"}, None, [], "A void deal has no winner"),
    one("classic", {"finish": "bogus"}, "finish", [], "is not a way to go out in"),
    one("classic", {"finish": "colored"}, "finish", [], "is a kuwaiti hand"),
    one("jordanian", {"indicator": "JK"}, "indicator", [], "A joker is never the wild-card indicator"),
    one("jordanian", {"indicator": "ZZ"}, "indicator", [], "is not a card"),
    one("hand-and-foot", {"went_out": ""}, None, [], "Say who went out, or that the draw pile ran out."),
    one("hand-and-foot", {"went_out": ["0", "none"]}, None, [], "or the draw pile ran out, not both."),
    one("hand-and-foot", {"went_out": ["0", "1"]}, None, ["Olivia Owner", "Lina"], "are both marked."),
    one("hand-and-foot", {"went_out": "5"}, None, [], "Choose who went out among the players of this sheet."),
    # One player's figures in a Hand-family deal: Lina's (seat 1) unless said.
    one("classic", {"held_points_1": "-5"}, "held_points_1", ["Lina"], "cannot hold a negative number"),
    one("classic", {"held_points_1": "1"}, "held_points_1", ["Lina"], "had opened and did not go out"),
    one("classic", {"held_points_1": "400"}, "held_points_1", ["Lina"], "worth at most"),
    one("classic", {"held_points_1": "99999"}, "held_points_1", ["Lina"], "all the cards of this game"),
    one("classic", {"held_points_1": "100000"}, "held_points_1", ["Lina"], "no figure of a deal goes beyond"),
    one("classic", {"held_points_1": "abc"}, "held_points_1", ["Lina"], "type a whole number."),
    one("classic", {"opened_1": "on"}, "held_points_1", ["Lina"], "Say what Lina still holds"),
    one("classic", {"held_cards_1": "ZZ"}, "held_cards_1", ["Lina"], "is not a card"),
    one("classic", {"held_cards_1": "KS KS KS"}, "held_cards_1", ["Lina"], "2 × KS, not 3"),
    one(
        "classic",
        {
            "held_cards_1": " ".join(
                ["5H"] * 2
                + ["6H"] * 2
                + ["7H"] * 2
                + ["8H"] * 2
                + ["9H"] * 2
                + ["10H"] * 2
                + ["JH"] * 2
                + ["QH"]
            )
        },
        "held_cards_1",
        ["Lina"],
        "cannot hold 15 cards",
    ),
    one(
        "classic",
        {"held_cards_1": "KS KS", "held_cards_2": "KS"},
        "held_cards_2",
        ["Omar"],
        "With Omar's cards this deal lists 3 × KS",
    ),
    one(
        "classic",
        {"held_cards_1": "KS 7H", "held_points_1": "30"},
        "held_points_1",
        ["Lina"],
        "The cards Lina holds are worth 17, not the 30 typed.",
    ),
    one("teams", {"held_points_2": "20"}, "held_points_2", ["Omar"], "is on the side that went out"),
    one(
        "kuwaiti",
        {"irregular_1": "on", "held_points_1": "20"},
        "held_points_1",
        ["Lina"],
        "is marked with an irregularity",
    ),
    one("kuwaiti", {"winner": "1", "irregular_1": "on"}, "irregular_1", ["Lina"], "won the deal"),
    one(
        "kuwaiti",
        {"opened_1": "on"},
        "held_points_1",
        ["Lina"],
        "Say what Lina still holds: they had announced",
    ),
    one("jordanian", {"held_cards_1": "JK 5H"}, "held_cards_1", ["Lina"], "Say which card was the wild-card"),
    # One side's figures in Hand and Foot: Lina's (side 1).
    one("hand-and-foot", {"red_books_1": "-1"}, "red_books_1", ["Lina"], "“Red books” cannot be negative"),
    one("hand-and-foot", {"black_books_1": "-1"}, "black_books_1", ["Lina"], "“Black books” cannot be"),
    one("hand-and-foot", {"melded_points_1": "-5"}, "melded_points_1", ["Lina"], "cannot be negative (-5)"),
    one("hand-and-foot", {"melded_points_1": "33"}, "melded_points_1", ["Lina"], "cannot have melded 33"),
    one("hand-and-foot", {"held_points_1": "23"}, "held_points_1", ["Lina"], "Lina cannot hold 23."),
    one(
        "hand-and-foot", {"held_points_1": "-5"}, "held_points_1", ["Lina"], "“Cards held” cannot be negative"
    ),
    one(
        "hand-and-foot",
        {"went_out": "1", "held_points_0": "0"},
        "red_books_1",
        ["Lina"],
        "Lina went out, so needs at least one red book and one black book.",
    ),
    one(
        "hand-and-foot",
        {"red_books_1": "1", "black_books_1": "0", "melded_points_1": "30"},
        "melded_points_1",
        ["Lina"],
        "worth at least 35 in card points",
    ),
    one(
        "hand-and-foot",
        {"red_books_1": "1", "melded_points_1": "", "melded_cards_1": "4H 4H 4H"},
        "melded_cards_1",
        ["Lina"],
        "need at least 7 melded cards, not 3",
    ),
    one("hand-and-foot", {"melded_cards_1": "3H 3D 3S"}, "melded_cards_1", ["Lina"], "3s are never melded"),
    one(
        "hand-and-foot",
        {"melded_cards_1": "4H 5H 6H", "melded_points_1": "95"},
        "melded_points_1",
        ["Lina"],
        "The cards Lina melded are worth 15, not the 95 typed.",
    ),
    one(
        "hand-and-foot", {"melded_points_1": "99995"}, "melded_points_1", ["Lina"], "cannot have melded 99995"
    ),
    one("hand-and-foot", {"red_books_1": "99"}, "red_books_1", ["Lina"], "cannot have 99 books"),
    one("hand-and-foot", {"held_points_1": ""}, "held_points_1", ["Lina"], "Say what Lina still holds"),
    one("hand-and-foot", {"held_cards_1": "ZZ"}, "held_cards_1", ["Lina"], "is not a card"),
    one("hand-and-foot", {"held_points_1": "100000"}, "held_points_1", ["Lina"], "no figure of a deal"),
    one(
        "hand-and-foot",
        {"held_points_1": "99995"},
        "held_points_1",
        ["Lina"],
        "Lina cannot hold 99995 points",
    ),
    one(
        "classic", {"held_points_1": "-100000"}, "held_points_1", ["Lina"], "no figure of a deal goes beyond"
    ),
    one(
        "hand-and-foot",
        {"held_cards_1": "KS", "held_points_1": "95"},
        "held_points_1",
        ["Lina"],
        "The cards Lina holds are worth 10, not the 95 typed.",
    ),
    one("hand-and-foot", {"melded_points_1": "abc"}, "melded_points_1", ["Lina"], "type a whole number."),
    # A team of two in Hand and Foot: the side's names, or the one player whose figure it is.
    one("hand-and-foot-teams", {"picked_22_1": "3"}, "picked_22_1", ["Lina & Sara"], "at most 2 players"),
    one("hand-and-foot-teams", {"picked_22_1": "-1"}, "picked_22_1", ["Lina & Sara"], "cannot be negative"),
    one("hand-and-foot-teams", {"red_books_1": "-1"}, "red_books_1", ["Lina & Sara"], "cannot be negative"),
    one("hand-and-foot-teams", {"held_points_3": "12"}, "held_points_3", ["Sara"], "Sara cannot hold 12."),
    one(
        "hand-and-foot-teams",
        {"held_points_1": "22", "held_points_3": "13"},
        "held_points_1",
        ["Lina"],
        "Lina cannot hold 22.",
    ),
]


def _sheet(group, owner, name):
    rule_set = "classic" if name == "teams" else name
    options = {"teams": True} if name == "teams" else {}
    return make_sheet(group, owner, rule_set, [owner, *CAST[name]], options=options)


def _post(client, group, sheet, refusal):
    data = {**refusal.base, **refusal.data}
    data = {key: value for key, value in data.items() if value != ""}
    return client.post(reverse("scoring:deal_new", args=[group.slug, sheet.pk]), keyed(data))


def _errors(form, refusal) -> list[str]:
    if refusal.field is None:
        return [str(error) for error in form.non_field_errors()]
    return [str(error) for error in form.errors.get(refusal.field, [])]


@pytest.fixture
def worded(monkeypatch):
    """The engine sentences the sheet worded, as they happen: (template, fact)."""
    seen: set[tuple[str, str | None]] = set()
    original = refusals.worded

    def spy(error, *args, **kwargs):
        seen.add((error.template, error.fact))
        return original(error, *args, **kwargs)

    monkeypatch.setattr(refusals, "worded", spy)
    return seen


def _check_form_refusal(client, group, owner, refusal, language):
    owner.language = language
    owner.save()
    sheet = _sheet(group, owner, refusal.sheet)
    client.force_login(owner)
    response = _post(client, group, sheet, refusal)
    assert response.status_code == 200, "the deal was saved"
    assert not Deal.objects.filter(sheet=sheet).exists()
    form = response.context["form"]
    errors = _errors(form, refusal)
    everything = [str(e) for e in form.non_field_errors()] + [
        str(e) for name, field_errors in form.errors.items() if name != "__all__" for e in field_errors
    ]
    assert len(errors) == 1, f"expected one refusal at {refusal.field or 'the top'}, got {everything}"
    sentence = errors[0]
    if language == "en":
        assert refusal.english in sentence
    else:
        assert ARABIC.search(sentence.replace(" & ".join(refusal.names), "")), f"not in Arabic: {sentence}"
    for name in refusal.names:
        assert name in sentence
    assert not NUMBERED.search(sentence), f"a player by number: {sentence}"
    page = response.content.decode()
    shown = page.count(html.escape(sentence))
    assert shown >= (2 if refusal.field else 1), "the sentence is not drawn beside its field"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("refusal", REFUSALS, ids=[refusal.id for refusal in REFUSALS])
def test_every_refusal_of_the_deal_form_names_the_player_beside_their_field(
    client, group, owner, refusal, language
):
    _check_form_refusal(client, group, owner, refusal, language)


# The engine's refusals about one seat that the deal form never sends (it sets the winner's "opened"
# from how they went out, leaves the winner's cards out, and sends numbers): through the service, as
# the API or a stored deal would.
SERVICE_ONLY = [
    (
        "kuwaiti",
        {"winner": 1, "finish": "announcement", "opened": [False] * 3, "held": [None] * 3},
        "finish",
        "Lina",
    ),
    (
        "kuwaiti",
        {"winner": 1, "finish": "regular", "opened": [False, True, False], "held": [None] * 3},
        "finish",
        "Lina",
    ),
    (
        "classic",
        {"winner": 1, "finish": "hand", "opened": [False, True, False], "held": [None] * 3},
        "finish",
        "Lina",
    ),
    (
        "classic",
        {"winner": 1, "finish": "normal", "opened": [False] * 3, "held": [None, 20, None]},
        "held_points_1",
        "Lina",
    ),
    (
        "classic",
        {"winner": 0, "finish": "normal", "opened": [False, True, False], "held": [None, " ", None]},
        "held_points_1",
        "Lina",
    ),
    (
        "jordanian",
        {"winner": 0, "finish": "normal", "opened": [False, True, False], "held": [None, "JK", None]},
        "indicator",
        "Lina",
    ),
    (
        "hand-and-foot",
        {
            "sides": [
                {"red_books": 1, "black_books": 1, "melded_points": 200, "went_out": True},
                {"red_books": 1.5, "melded_points": 30, "held": [5]},
            ]
        },
        "red_books_1",
        "Lina",
    ),
]


def _check_service_refusal(group, owner, rule_set, facts, field_name, name, language):
    players = [owner, "Lina"] if rule_set == "hand-and-foot" else [owner, "Lina", "Omar"]
    sheet = make_sheet(group, owner, rule_set, players)
    with translation.override(language), pytest.raises(SheetError) as refused:
        add_deal(sheet, by=owner, facts=facts)
    assert refused.value.field == field_name
    assert name in refused.value.message
    assert not NUMBERED.search(refused.value.message)
    if language == "ar":
        assert ARABIC.search(refused.value.message)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize(("rule_set", "facts", "field_name", "name"), SERVICE_ONLY)
def test_the_engines_refusals_the_form_cannot_send_still_name_the_player_and_their_field(
    group, owner, rule_set, facts, field_name, name, language
):
    _check_service_refusal(group, owner, rule_set, facts, field_name, name, language)


@pytest.mark.django_db
def test_the_two_walks_cover_every_engine_sentence_the_sheet_words_with_a_name(client, group, owner, worded):
    for refusal in REFUSALS:
        _check_form_refusal(client, group, owner, refusal, "en")
    for rule_set, facts, field_name, name in SERVICE_ONLY:
        _check_service_refusal(group, owner, rule_set, facts, field_name, name, "en")
    named = set(refusals.NAMED) | {template for template, _fact in refusals.NAMED_BY_FACT}
    assert named - {template for template, _fact in worded} == set(), "named wordings no refusal reached"
    assert set(refusals.NAMED_BY_FACT) <= worded
