"""Forms of the score sheets. They only read input into the raw facts / service arguments; the
rules (and every refusal) are the engine's, through scoring.services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.errors import DomainError
from games.engine.picker import held_value, melded_value
from games.engine.scoring import HAND_NAMES, KUWAITI_TABLE, winner_from_flags
from handsite.inputs import small_int
from scoring import charts
from scoring.services.deal_facts import sheet_family
from scoring.services.errors import error_sentence
from scoring.services.sheets import PlayerEntry


def option_field(option) -> forms.Field:
    label = gettext_lazy(option.label)  # the engine marks its labels with its own _
    if option.kind == "bool":
        return forms.BooleanField(label=label, required=False, initial=option.default)
    return forms.TypedChoiceField(
        label=label,
        choices=[(c, str(c)) for c in option.choices],
        coerce=int,
        initial=option.default,
        required=False,
        empty_value=option.default,
    )


class SheetForm(forms.Form):
    """A new sheet of one rule set: title, options, players in seat order (member or guest), first dealer."""

    title = forms.CharField(label=gettext_lazy("Name of the game (optional)"), max_length=80, required=False)
    played_on = forms.DateField(
        label=gettext_lazy("Date played"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    place = forms.CharField(label=gettext_lazy("Place (optional)"), max_length=80, required=False)

    def __init__(self, *args, variant, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.members = {str(user.pk): user for user in members}
        self.option_names = []
        for option in variant.options:
            self.fields[f"option_{option.name}"] = option_field(option)
            self.option_names.append(option.name)
        member_choices = [("", _("— a guest —"))] + [(pk, user.name) for pk, user in self.members.items()]
        self.seat_count = variant.max_players
        for seat in range(self.seat_count):
            self.fields[f"member_{seat}"] = forms.ChoiceField(
                label=_("Player %(number)s") % {"number": seat + 1}, choices=member_choices, required=False
            )
            self.fields[f"guest_{seat}"] = forms.CharField(
                label=_("or a guest's name"), max_length=60, required=False
            )
        self.fields["first_dealer"] = forms.ChoiceField(
            label=_("First dealer"),
            choices=[("", _("Draw at random"))]
            + [(str(seat), _("Player %(number)s") % {"number": seat + 1}) for seat in range(self.seat_count)],
            required=False,
        )

    def clean_title(self):
        title = self.cleaned_data.get("title") or ""
        if charts.UNDRAWABLE.search(title):
            raise forms.ValidationError(
                _("A name cannot hold control characters; type it again without them.")
            )
        return title

    def clean_place(self):
        place = self.cleaned_data.get("place") or ""
        if charts.UNDRAWABLE.search(place):
            raise forms.ValidationError(
                _("A name cannot hold control characters; type it again without them.")
            )
        return place

    def seat_rows(self):
        return [(seat, self[f"member_{seat}"], self[f"guest_{seat}"]) for seat in range(self.seat_count)]

    def option_fields(self):
        return [self[f"option_{name}"] for name in self.option_names]

    def clean(self):
        data = super().clean()
        players, seat_of_row = [], {}
        for seat in range(self.seat_count):
            member = data.get(f"member_{seat}") or ""
            guest = (data.get(f"guest_{seat}") or "").strip()
            if member and guest:
                self.add_error(f"guest_{seat}", _("Choose a member or type a guest's name, not both."))
                continue
            if member:
                seat_of_row[seat] = len(players)
                players.append(PlayerEntry(user=self.members[member]))
            elif guest and charts.UNDRAWABLE.search(guest):
                self.add_error(
                    f"guest_{seat}", _("A name cannot hold control characters; type it again without them.")
                )
            elif guest:
                seat_of_row[seat] = len(players)
                players.append(PlayerEntry(name=guest))
        data["players"] = players
        dealer = data.get("first_dealer")
        if dealer not in (None, ""):
            if int(dealer) not in seat_of_row:
                self.add_error("first_dealer", _("The first dealer must be one of the players."))
            else:
                data["first_dealer_seat"] = seat_of_row[int(dealer)]
        data["options"] = {name: data.get(f"option_{name}") for name in self.option_names}
        return data


def finish_choices(variant) -> list[tuple[str, str]]:
    """Ways of going out the rule set scores, as (value, label) for radio buttons."""
    if variant.scoring == "kuwaiti":
        return [(name, _(KUWAITI_TABLE[name].label)) for name in HAND_NAMES]
    choices = [("normal", _("Normal")), ("hand", _("“Hand” (all melded in one turn)"))]
    if variant.scoring == "egyptian":
        choices += [
            (name, _(KUWAITI_TABLE[name].label))
            for name in HAND_NAMES
            if name not in ("announcement", "regular")
        ]
    return choices


NUMBER_BOUND = 99_999
"""Typed numbers on a deal form are read within ±NUMBER_BOUND (the engine refuses what the rules do
not allow with its own sentence; this only keeps absurd input from reaching it)."""


def bounded_number(label, name: str, **kwargs) -> forms.IntegerField:
    """A figure of one player (``name``; a side's names in Hand and Foot): its refusals name them."""
    who = {"name": name.replace("%", "%%")}
    too_far = _("%(name)s: no figure of a deal goes beyond %(limit_value)s.")
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=-NUMBER_BOUND,
        max_value=NUMBER_BOUND,
        error_messages={
            "invalid": _("%(name)s: type a whole number.") % {"name": name},
            "min_value": too_far.replace("%(name)s", who["name"]),
            "max_value": too_far.replace("%(name)s", who["name"]),
        },
        **kwargs,
    )


PILE_RAN_OUT = "none"
"""The Hand and Foot "who went out" choice that says nobody did: the draw pile ran out."""


class DealForm(forms.Form):
    """One deal of a sheet. Built for the sheet's players (and sides in Hand and Foot)."""

    def __init__(self, *args, sheet, players, sides, **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        self.players = players
        self.sides = sides
        self.variant = sheet.variant
        self.by_sides = sheet_family(sheet.rule_set).by_sides
        count = len(players)
        if self.by_sides:
            for index, _seats in enumerate(sides):
                side = self.side_name(index)
                self.fields[f"red_books_{index}"] = bounded_number(_("Red books"), side)
                self.fields[f"black_books_{index}"] = bounded_number(_("Black books"), side)
                self.fields[f"melded_points_{index}"] = bounded_number(_("Melded card points"), side)
                self.fields[f"melded_cards_{index}"] = forms.CharField(
                    label=_("or the melded cards"), required=False, max_length=1200
                )
                if self.variant.table_bonus_22:
                    self.fields[f"picked_22_{index}"] = bounded_number(
                        _("Picked up exactly 22 cards (players)"), side
                    )
        else:
            self.fields["void"] = forms.BooleanField(label=_("Void deal (the stock ran out)"), required=False)
            self.fields["finish"] = forms.CharField(required=False, max_length=40)
            if self.variant.indicator:
                self.fields["indicator"] = forms.CharField(
                    label=_("Wild-card indicator"), required=False, max_length=4
                )
            for seat in range(count):
                self.fields[f"opened_{seat}"] = forms.BooleanField(
                    label=_("Announced") if self.variant.scoring == "kuwaiti" else _("Opened"), required=False
                )
                if self.variant.scoring == "kuwaiti":
                    self.fields[f"irregular_{seat}"] = forms.BooleanField(
                        label=_("Irregularity"), required=False
                    )
        for seat in range(count):
            self.fields[f"held_points_{seat}"] = bounded_number(_("Points held"), self.name(seat))
            self.fields[f"held_cards_{seat}"] = forms.CharField(
                label=_("or the cards held"), required=False, max_length=600
            )
        # The place of the deal a new-deal form adds: a form made before another deal was saved is
        # refused by the service.
        self.fields["position"] = forms.IntegerField(
            required=False, min_value=1, max_value=NUMBER_BOUND, widget=forms.HiddenInput
        )
        # A new-deal form's id, made when it was first shown: a second save of it (a double tap, Back
        # then Save) adds nothing. An edit carries the version of the deal it corrects.
        # Each comes twice: the page's own (for a browser without JavaScript), and the one a script
        # copies it to, which the browser refills after Back (it wins when both are sent).
        for name in ("deal_key", "deal_key_page"):
            self.fields[name] = forms.UUIDField(required=False)
        for name in ("version", "version_page"):
            self.fields[name] = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
        self.finishes = [] if self.by_sides else finish_choices(self.variant)

    def name(self, seat: int) -> str:
        return self.players[seat].display_name

    def side_name(self, index: int) -> str:
        return " & ".join(self.name(seat) for seat in self.sides[index])

    # --- Reading the facts ---------------------------------------------------------------------

    def _chosen(self, name: str) -> list[str]:
        return self.data.getlist(name) if hasattr(self.data, "getlist") else list(self.data.get(name, []))

    def _seat_number(self, value: str, limit: int) -> int | None:
        """A seat (side) number as posted: at most two digits, never echoed back."""
        number = small_int(value, digits=2)
        if number is None:
            self.add_error(None, _("Choose who went out among the players of this sheet."))
        return number

    def _out(self, name: str, limit: int) -> int | None:
        """The one seat (side) marked as gone out; two are refused with the engine's sentence."""
        values = [v for v in self._chosen(name) if v not in ("", PILE_RAN_OUT)]
        seats = [self._seat_number(v, limit) for v in values]
        if any(seat is None for seat in seats):
            return None
        if any(not 0 <= seat < limit for seat in seats):
            self.add_error(None, _("Choose who went out among the players of this sheet."))
            return None
        if len(seats) == 1:
            return seats[0]
        if not seats:
            return None
        try:
            winner_from_flags([seat in seats for seat in range(limit)])
        except DomainError:
            first, second = sorted(set(seats))[:2]
            who = self.side_name if self.by_sides else self.name
            self.add_error(
                None,
                _("Only one can go out in a deal; %(first)s and %(second)s are both marked.")
                % {"first": who(first), "second": who(second)},
            )
        return None

    def _cards(self, field: str, who: str, *, kind: str = "held", indicator: str | None = None):
        """The cards picked in ``field`` and their worth, or None with the reason beside the field
        naming ``who`` holds (melded) them."""
        cards = (self.cleaned_data.get(field) or "").strip()
        try:
            if kind == "melded":
                return melded_value(self.sheet.rule_set, len(self.players), cards).total
            return held_value(self.sheet.rule_set, len(self.players), cards, indicator).total
        except DomainError as error:
            self.add_error(
                field, _("%(name)s: %(sentence)s") % {"name": who, "sentence": error_sentence(error)}
            )
            return None

    def _held(self, seat: int, indicator: str | None):
        cards = (self.cleaned_data.get(f"held_cards_{seat}") or "").strip()
        typed = self.cleaned_data.get(f"held_points_{seat}")
        if cards:
            value = self._cards(f"held_cards_{seat}", self.name(seat), indicator=indicator)
            if value is None:
                return None
            if typed is not None and value != typed:
                self.add_error(
                    f"held_points_{seat}",
                    _("The cards %(name)s holds are worth %(value)s, not the %(typed)s typed.")
                    % {"name": self.name(seat), "value": value, "typed": typed},
                )
            return " ".join(cards.replace(",", " ").upper().split())
        return typed

    def _not_on_the_page(self, seat: int) -> None:
        """Forget what a field the page hides held (the winner's, the side's that went out): it is
        neither read nor checked, errors included."""
        for name in (f"held_points_{seat}", f"held_cards_{seat}"):
            self._errors.pop(name, None)
            self.cleaned_data.pop(name, None)

    def clean(self):
        data = super().clean()
        for name in ("deal_key", "version"):
            if data.get(name) is None:
                data[name] = data.get(f"{name}_page")
        count = len(self.players)
        if self.by_sides:
            pile_out = PILE_RAN_OUT in self._chosen("went_out")
            out = self._out("went_out", len(self.sides))
            if pile_out and out is not None:
                self.add_error(None, _("Either a side went out or the draw pile ran out, not both."))
            elif not pile_out and out is None and not self.errors:
                self.add_error(None, _("Say who went out, or that the draw pile ran out."))
            sides = []
            for index, seats in enumerate(self.sides):
                melded = (data.get(f"melded_cards_{index}") or "").strip()
                if melded:
                    self._cards(f"melded_cards_{index}", self.side_name(index), kind="melded")
                # The side that went out has no "left in hand" fields on the page: not read, not checked.
                gone_out = out == index
                if gone_out:
                    for seat in seats:
                        self._not_on_the_page(seat)
                sides.append(
                    {
                        "red_books": data.get(f"red_books_{index}") or 0,
                        "black_books": data.get(f"black_books_{index}") or 0,
                        "melded_points": data.get(f"melded_points_{index}"),
                        "melded": " ".join(melded.upper().split()),
                        "held": [None if gone_out else self._held(seat, None) for seat in seats],
                        "went_out": out == index,
                        "picked_22": data.get(f"picked_22_{index}") or 0,
                    }
                )
            data["facts"] = {"sides": sides, **({"pile_ran_out": True} if pile_out else {})}
            return data
        indicator = (data.get("indicator") or "").strip().upper() or None
        if data.get("void"):
            chosen = [value for value in self._chosen("winner") if value != ""]
            if chosen:
                self.add_error(
                    None,
                    _("A void deal has no winner: untick “void” if somebody went out, or choose nobody."),
                )
                return data
            data["facts"] = {
                "winner": None,
                "finish": "normal",
                "opened": [False] * count,
                "held": [None] * count,
            }
            return data
        winner = self._out("winner", count)
        if winner is None and not self.errors:
            self.add_error(None, _("Say who went out, or mark the deal as void."))
        finish = (data.get("finish") or "normal").strip()
        if self.variant.scoring == "kuwaiti" and finish == "normal":
            finish = "announcement"  # the engine reads a kuwaiti "normal" win so; the page pre-selects it
        # The winner's fields are not on the page once they are chosen: not read, not checked.
        if winner is not None and 0 <= winner < count:
            self._not_on_the_page(winner)
        held = [None if seat == winner else self._held(seat, indicator) for seat in range(count)]
        partners = (
            next((seats for seats in self.sides if winner in seats), ()) if len(self.sides) < count else ()
        )
        for seat in partners:
            if seat != winner and held[seat] is not None and held[seat] != "":
                # The page hides (and does not send) the partner's fields; without JavaScript they show.
                self.add_error(
                    f"held_points_{seat}",
                    _(
                        "%(name)s is on the side that went out, so their cards do not count: "
                        "clear what was typed for them."
                    )
                    % {"name": self.name(seat)},
                )
        facts = {
            "winner": winner,
            "finish": finish,
            # The winner's own flag is implied by how they went out: a kuwaiti announcement win means
            # they had announced; every "Hand" means they had not opened (the form does not ask). For
            # the others, a figure typed means they had opened (announced): their cards count.
            "opened": [
                finish == "announcement"
                if seat == winner
                else bool(data.get(f"opened_{seat}")) or (held[seat] is not None and held[seat] != "")
                for seat in range(count)
            ],
            "held": held,
        }
        if self.variant.scoring == "kuwaiti":
            facts["irregular"] = [bool(data.get(f"irregular_{seat}")) for seat in range(count)]
            for seat in range(count):
                if facts["irregular"][seat] and seat != winner and held[seat] not in (None, ""):
                    self.add_error(
                        f"held_points_{seat}",
                        _(
                            "%(name)s is marked with an irregularity, so their cards do not count: "
                            "clear what was typed for them or untick “Irregularity”."
                        )
                        % {"name": self.name(seat)},
                    )
        if self.variant.indicator:
            facts["indicator"] = indicator
        data["facts"] = facts
        return data

    # --- Editing: facts back into the form ------------------------------------------------------

    @classmethod
    def initial_from(cls, sheet, facts: dict, sides) -> dict:
        initial: dict = {}

        def put_held(seat, value):
            if isinstance(value, int) and not isinstance(value, bool):
                initial[f"held_points_{seat}"] = value
            elif value:
                initial[f"held_cards_{seat}"] = value

        if "sides" in facts:
            for index, side in enumerate(facts["sides"]):
                initial[f"red_books_{index}"] = side.get("red_books", 0)
                initial[f"black_books_{index}"] = side.get("black_books", 0)
                initial[f"melded_points_{index}"] = side.get("melded_points")
                initial[f"melded_cards_{index}"] = side.get("melded", "")
                initial[f"picked_22_{index}"] = side.get("picked_22", 0)
                for seat, value in zip(sides[index], side.get("held") or (), strict=False):
                    put_held(seat, value)
                if side.get("went_out"):
                    initial["went_out"] = [str(index)]
            initial.setdefault("went_out", [PILE_RAN_OUT])  # nobody went out: the draw pile ran out
            return initial
        initial["void"] = facts.get("winner") is None
        initial["finish"] = facts.get("finish", "normal")
        initial["indicator"] = facts.get("indicator") or ""
        if facts.get("winner") is not None:
            initial["winner"] = [str(facts["winner"])]
        for seat, flag in enumerate(facts.get("opened") or ()):
            initial[f"opened_{seat}"] = flag
        for seat, flag in enumerate(facts.get("irregular") or ()):
            initial[f"irregular_{seat}"] = flag
        for seat, value in enumerate(facts.get("held") or ()):
            put_held(seat, value)
        return initial

    def chosen(self, name: str) -> list[str]:
        """For the template: the radio values checked (from the post, or the initial facts)."""
        if self.is_bound:
            return self._chosen(name)
        return list(self.initial.get(name, []))


class LinkGuestForm(forms.Form):
    guest_name = forms.CharField(label=gettext_lazy("Guest"), max_length=60)
    user = forms.ChoiceField(label=gettext_lazy("is the member"))

    def __init__(self, *args, guests, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.members = {str(user.pk): user for user in members}
        self.fields["guest_name"].widget = forms.Select(choices=[(name, name) for name in guests])
        self.fields["user"].choices = [(pk, user.name) for pk, user in self.members.items()]

    def clean_user(self):
        return self.members[self.cleaned_data["user"]]


class OpeningCheckForm(forms.Form):
    melds = forms.CharField(
        label=gettext_lazy("Melds, one per line"),
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "QH KH AH\n9C 9D 9S"}),
        max_length=600,
    )
    indicator = forms.CharField(label=gettext_lazy("Wild-card indicator"), required=False, max_length=4)
    last_opening = forms.IntegerField(
        label=gettext_lazy("The last opening of this deal totalled"),
        required=False,
        min_value=0,
        max_value=NUMBER_BOUND,
    )
