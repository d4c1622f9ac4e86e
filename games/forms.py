"""Forms of the online-play pages: starting a game (built from the engine's rule-set Option data) and
reading a move from the play page's form."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine, moves
from games.chat import ChatRequest
from games.engine.meldspec import MAX_WILD_CHOICES, parse_choice
from games.models import CHAT_MAX_LENGTH, MOVE_HOURS_CHOICES, VARIANT_CHOICES, TimeoutRule
from games.services.seating import BOT
from handsite.inputs import small_int, small_ints

MAX_SEATS = 5
"""Seats the creation form offers at least; a rule set for more players (Hand and Foot: up to 8) offers
as many as it allows (``seat_count``)."""


def seat_count(variant) -> int:
    """How many seat fields game creation shows for ``variant``: its most players, and at least
    :data:`MAX_SEATS` (the engine refuses a count the rule set does not allow, with its sentence)."""
    return max(MAX_SEATS, variant.max_players)


def partnership_mode(variant) -> str:
    """How a rule set seats teams: ``"choice"`` (it may be played as a partnership: the ``teams`` option),
    ``"always"`` (a team rule set, e.g. Hand and Foot's team rules) or ``"never"``."""
    if getattr(variant, "teams", False) is True:
        return "always"
    if any(option.name == "teams" for option in variant.options):
        return "choice"
    return "never"


class PartnershipFields:
    """The partnership choice of a form that seats players (``seat_0`` ... fields), as players think of
    it: "each for themselves" or "Partnership Hand, 4 players, two teams"; then partners as seated
    (partners opposite: seats 1 and 3 against seats 2 and 4) or drawn by the site. A rule set that is
    always played in teams (``partnership_mode`` "always") gets only the partners choice.

    ``add_partnership_fields(variant)`` in ``__init__``; ``partnership_seats(cleaned, seat_value)`` in
    ``clean`` returns ``(teams, seats, drawn)`` for a partnership, or ``None`` when each plays alone."""

    TEAM_SEATS = 4

    def add_partnership_fields(self, variant) -> None:
        self.partnership_mode = partnership_mode(variant)
        if self.partnership_mode == "choice":
            self.fields["partnership"] = forms.ChoiceField(
                label=_("How you play"),
                choices=[
                    ("solo", _("Each for themselves")),
                    ("teams", _("Partnership Hand: 4 players, two teams")),
                ],
                widget=forms.RadioSelect,
                initial="solo",
                required=False,
            )
        if self.partnership_mode != "never":
            self.fields["partners"] = forms.ChoiceField(
                label=_("Partners"),
                choices=[
                    ("chosen", _("As I seat them: seats 1 and 3 against seats 2 and 4")),
                    ("drawn", _("Let the site draw the partners")),
                ],
                widget=forms.RadioSelect,
                initial="chosen",
                required=False,
            )

    def plays_in_teams(self, cleaned) -> bool:
        return self.partnership_mode == "always" or (
            self.partnership_mode == "choice" and cleaned.get("partnership") == "teams"
        )

    def partnership_seats(self, cleaned, seat_value) -> tuple[list, bool] | None:
        """For a partnership: the four seats in order (``seat_value`` turns a seat field's value into a
        player) and whether the site draws the partners; ``None`` when each plays for themselves.
        Every one of the four seats must be taken (by a person or a bot); a fifth seat is ignored."""
        if not self.plays_in_teams(cleaned):
            self._errors.pop("partners", None)  # plays no part when each plays for themselves
            return None
        values = [cleaned.get(f"seat_{number}") for number in range(self.TEAM_SEATS)]
        if not all(values):
            raise forms.ValidationError(_("A partnership needs four players: fill seats 1 to 4."))
        return [seat_value(value) for value in values], cleaned.get("partners") == "drawn"


class GameForm(PartnershipFields, forms.Form):
    """Rule set, its options, seats, time per move and timeout rule. The option fields come from the
    chosen rule set's ``Option`` data (``opt_<name>``); ``validate_options`` has the last word."""

    variant = forms.ChoiceField(label=gettext_lazy("Rule set"), choices=VARIANT_CHOICES)
    random_order = forms.BooleanField(label=gettext_lazy("Random seat order"), required=False)
    move_hours = forms.TypedChoiceField(
        label=gettext_lazy("Time per move"), choices=MOVE_HOURS_CHOICES, coerce=int, initial=0
    )
    timeout_rule = forms.ChoiceField(
        label=gettext_lazy("When the time runs out"), choices=TimeoutRule.choices, initial=TimeoutRule.NOTHING
    )

    def __init__(self, *args, group, user, variant: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.members = {
            str(m.user_id): m.user
            for m in group.memberships.select_related("user").order_by("joined_at", "pk")
        }
        data = self.data if self.is_bound else {}
        chosen = data.get("variant") or variant or "classic"
        self.variant_slug = chosen if chosen in engine.VARIANTS else "classic"
        self.fields["variant"].initial = self.variant_slug
        seat_choices = [("", _("— nobody —")), (BOT, _("Practice bot"))]
        seat_choices += [(pk, user.name) for pk, user in self.members.items()]
        variant_data = engine.VARIANTS[self.variant_slug]
        self.seat_count = seat_count(variant_data)
        for number in range(self.seat_count):
            field = forms.ChoiceField(
                label=_("Seat {number}").format(number=number + 1), choices=seat_choices, required=False
            )
            self.fields[f"seat_{number}"] = field
        self.fields["seat_0"].initial = str(user.pk)
        self.fields["seat_1"].initial = BOT
        self.variant_name = _(variant_data.name)
        self.add_partnership_fields(variant_data)
        self.option_names = []
        for option in variant_data.options:
            if option.name == "teams":  # the partnership choice stands for it
                continue
            name = f"opt_{option.name}"
            label = _(option.label)
            help_text = _(option.help) if option.help else ""
            if option.kind == "bool":
                self.fields[name] = forms.BooleanField(
                    label=label, required=False, initial=option.default, help_text=help_text
                )
            else:
                choices = [(value, str(value)) for value in option.choices]
                self.fields[name] = forms.TypedChoiceField(
                    label=label, choices=choices, coerce=int, initial=option.default, help_text=help_text
                )
            self.option_names.append(name)

    def seat_fields(self):
        return [self[f"seat_{n}"] for n in range(self.seat_count)]

    def option_fields(self):
        return [self[name] for name in self.option_names]

    def clean(self):
        cleaned = super().clean()

        def seat_value(value):
            return BOT if value == BOT else self.members[value]

        partnership = self.partnership_seats(cleaned, seat_value)
        if partnership is not None:
            seats, cleaned["random_order"] = partnership
        else:
            seats = [seat_value(v) for v in (cleaned.get(f"seat_{n}") for n in range(self.seat_count)) if v]
        if len(seats) < 2:
            raise forms.ValidationError(_("Choose at least two seats."))
        if self.user not in seats:
            raise forms.ValidationError(_("Take a seat yourself: you start the game as one of its players."))
        cleaned["seats"] = seats
        cleaned["options"] = {
            name.removeprefix("opt_"): cleaned.get(name)
            for name in self.option_names
            if cleaned.get(name) is not None
        }
        if self.partnership_mode == "choice":
            cleaned["options"]["teams"] = partnership is not None
        return cleaned


class BoundedNumber(forms.CharField):
    """A small whole number read without ``int()`` on an unbounded string (``max_digits`` digits)."""

    def __init__(self, *, max_digits: int, **kwargs):
        super().__init__(required=False, strip=True, **kwargs)
        self.max_digits = max_digits

    def to_python(self, value):
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        number = small_int(text, digits=self.max_digits)
        if number is None:
            raise forms.ValidationError(_("That is not a move."), code="number")
        return number


class NumberList(forms.Field):
    """Several values of one field (``cards``), each a bounded number; at most ``max_items``."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, max_items: int, max_digits: int, **kwargs):
        super().__init__(required=False, **kwargs)
        self.max_items, self.max_digits = max_items, max_digits

    def to_python(self, value):
        values = value or []
        if len(values) > self.max_items:
            raise forms.ValidationError(_("That is not a move."), code="too_many")
        numbers = small_ints(values, digits=self.max_digits)
        if numbers is None:
            raise forms.ValidationError(_("Choose the cards by tapping them."), code="card")
        if len(set(numbers)) != len(numbers):
            raise forms.ValidationError(_("You chose the same card twice."), code="twice")
        return tuple(numbers)


class WildList(forms.Field):
    """Wild cards named by the player: ``wild`` = ``<card id>:<face>`` (``12:7S``), a few at most."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        values = value or []
        if len(values) > MAX_WILD_CHOICES:
            raise forms.ValidationError(_("That is not a move."), code="too_many")
        pins = {}
        for text in values:
            choice = parse_choice(text)  # "<card id>:<face>": games.engine.meldspec, the one codec
            if choice is None:
                raise forms.ValidationError(_("Say which card each wild card stands for."), code="wild")
            pins[choice[0]] = choice[1]
        return tuple(pins.items())


class MoveForm:
    """The play page's form: one press of a button, read once into a :class:`games.moves.MoveRequest`.

    ``act`` names the button (games.moves.ACTS); ``version`` the game version the page showed;
    ``cards`` the selected cards; ``meld`` a meld on the table (lay off, exchange); ``option`` an
    offered move or a staged meld; ``wild`` the wild cards named; ``order`` the hand's new order (a card
    dragged); ``sort`` how the page showed the hand. Nothing else is read: no JSON, no staged melds (the
    server keeps those).

    Read with Django's form fields, as a form would, but not a ``forms.Form``: a form deep-copies its
    fields for each instance, on every move, and this one is never shown, only read. The fields are
    shared and never changed; a field absent from the POST is its empty value without being cleaned.
    """

    FIELDS = {
        "act": forms.ChoiceField(choices=[(act, act) for act in moves.ACTS], required=False),
        "version": BoundedNumber(max_digits=len(str(moves.MAX_VERSION))),
        "cards": NumberList(max_items=moves.MAX_CARDS, max_digits=len(str(moves.MAX_CARD_ID))),
        "meld": BoundedNumber(max_digits=len(str(moves.MAX_CARD_ID))),
        "option": BoundedNumber(max_digits=len(str(moves.MAX_OPTION))),
        "wild": WildList(required=False),
        "order": NumberList(max_items=moves.MAX_CARDS, max_digits=len(str(moves.MAX_CARD_ID))),
        # Buttons that carry their number (a page has one per meld / offer / staged meld):
        # ``lay_off=<meld>`` is ``act=lay_off&meld=<meld>``, and so on.
        "lay_off": BoundedNumber(max_digits=len(str(moves.MAX_CARD_ID))),
        "take_lay_off": BoundedNumber(max_digits=len(str(moves.MAX_CARD_ID))),
        "exchange": BoundedNumber(max_digits=len(str(moves.MAX_CARD_ID))),
        "offer": BoundedNumber(max_digits=len(str(moves.MAX_OPTION))),
        "unstage": BoundedNumber(max_digits=len(str(moves.MAX_OPTION))),
    }
    BUTTONS = {
        "lay_off": "meld",
        "take_lay_off": "meld",
        "exchange": "meld",
        "offer": "option",
        "unstage": "option",
    }
    EMPTY = {"act": "", "cards": (), "wild": (), "order": ()}
    """What an absent field cleans to (the others: None)."""

    def __init__(self, data):
        self.data = data

    def clean(self, cleaned: dict) -> None:
        pressed = [act for act in self.BUTTONS if cleaned.get(act) is not None]
        if len(pressed) > 1 or (pressed and cleaned.get("act")):
            raise forms.ValidationError(_("That is not a move."))
        if pressed:
            cleaned["act"] = pressed[0]
            cleaned[self.BUTTONS[pressed[0]]] = cleaned[pressed[0]]
        if not cleaned.get("act"):
            raise forms.ValidationError(_("That is not a move."))

    def move_request(self) -> moves.MoveRequest:
        """The typed request; a malformed POST gives a request with ``problem`` set (never raises)."""
        data, cleaned, errors = self.data, {}, {}
        for name, field in self.FIELDS.items():
            if name not in data:
                cleaned[name] = self.EMPTY.get(name)
                continue
            try:
                cleaned[name] = field.clean(field.widget.value_from_datadict(data, None, name))
            except forms.ValidationError as error:
                errors[name] = error.messages
        try:
            self.clean(cleaned)  # as a form's clean(): after the fields, whether or not they were valid
        except forms.ValidationError as error:
            errors["__all__"] = error.messages
        if errors:
            problems = [problem for messages in errors.values() for problem in messages]
            if "act" in errors or "__all__" in errors or not problems:
                return moves.MoveRequest(problem=_("That is not a move."))
            return moves.MoveRequest(problem=problems[0])
        return moves.MoveRequest(
            act=cleaned["act"],
            version=cleaned["version"],
            cards=cleaned["cards"],
            meld=cleaned["meld"],
            option=cleaned["option"],
            wild_as=cleaned["wild"],
            order=cleaned["order"],
            sort=read_sort(data),
        )


def read_sort(data) -> str:
    """How the hand is shown (``sort`` = suit | rank | own); "" when not asked (the player's own order
    if they have one, else by suit: games.moves.effective_sort)."""
    sort = data.get("sort")
    return sort if sort in moves.SORTS else ""


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class ChatForm(forms.Form):
    """The chat form of the play page, read once into a :class:`games.chat.ChatRequest`: ``text`` to
    write a message, ``delete=<id>`` (a message's button) to delete one, ``read`` when the chat panel
    was seen. Nothing else is read."""

    text = forms.CharField(required=False, strip=True)
    delete = BoundedNumber(max_digits=18)
    read = forms.CharField(required=False)

    def clean_text(self):
        text = _CONTROL.sub(" ", self.cleaned_data.get("text") or "").strip()
        if len(text) > CHAT_MAX_LENGTH:
            raise forms.ValidationError(
                ngettext(
                    "A message can be at most %(limit)s character long; yours has %(count)s.",
                    "A message can be at most %(limit)s characters long; yours has %(count)s.",
                    CHAT_MAX_LENGTH,
                )
                % {"limit": CHAT_MAX_LENGTH, "count": len(text)}
            )
        return text

    def chat_request(self) -> ChatRequest:
        """The typed request; a malformed POST gives a request with ``problem`` set (never raises)."""
        if not self.is_valid():
            if "text" in self.errors:  # shown again to be shortened (bounded: it goes back in the page)
                text = self.data.get("text", "")
                text = text[: 2 * CHAT_MAX_LENGTH] if isinstance(text, str) else ""
                return ChatRequest(problem=self.errors["text"][0], text=text)
            return ChatRequest(problem=_("That is not something you can do here."))
        data = self.cleaned_data
        if data["delete"] is not None:
            return ChatRequest(action="delete", message=data["delete"])
        if data["read"]:
            return ChatRequest(action="read")
        if not data["text"]:
            return ChatRequest(problem=_("Write something first."))
        return ChatRequest(action="post", text=data["text"])
