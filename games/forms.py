"""Forms of the online-play pages: starting a game (built from the engine's rule-set Option data) and
reading a move from the play page's form."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.models import MOVE_HOURS_CHOICES, VARIANT_CHOICES, TimeoutRule
from games.services import BOT
from handsite.inputs import small_int, small_ints, small_json

MAX_SEATS = 5


class GameForm(forms.Form):
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
        self.variant_slug = chosen if chosen in engine.HAND_VARIANTS else "classic"
        self.fields["variant"].initial = self.variant_slug
        seat_choices = [("", _("— nobody —")), (BOT, _("Practice bot"))]
        seat_choices += [(pk, user.name) for pk, user in self.members.items()]
        for number in range(MAX_SEATS):
            field = forms.ChoiceField(
                label=_("Seat {number}").format(number=number + 1), choices=seat_choices, required=False
            )
            self.fields[f"seat_{number}"] = field
        self.fields["seat_0"].initial = str(user.pk)
        self.fields["seat_1"].initial = BOT
        variant_data = engine.HAND_VARIANTS[self.variant_slug]
        self.option_names = []
        for option in variant_data.options:
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
        return [self[f"seat_{n}"] for n in range(MAX_SEATS)]

    def option_fields(self):
        return [self[name] for name in self.option_names]

    def clean(self):
        cleaned = super().clean()
        seats = []
        for number in range(MAX_SEATS):
            value = cleaned.get(f"seat_{number}")
            if not value:
                continue
            seats.append(BOT if value == BOT else self.members[value])
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
        return cleaned


STAGING_ACTS = ("stage", "stage_take")


def staged_from_post(post) -> list[dict]:
    """The pending melds the page sends back (hidden ``staged`` fields, JSON ``{"cards": [ids],
    "wild_as": {"<id>": face}}``), structurally checked; services.pending_melds checks the cards."""
    staged = []
    for value in post.getlist("staged"):
        spec = small_json(value)  # bounded size and depth
        cards = spec.get("cards") if isinstance(spec, dict) else None
        wild_as = spec.get("wild_as", {}) if isinstance(spec, dict) else None
        if (
            not isinstance(cards, list)
            or not cards
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in cards)
            or not isinstance(wild_as, dict)
            or not all(str(k).isdigit() and isinstance(v, str) and len(v) <= 3 for k, v in wild_as.items())
        ):
            raise ValueError(_("That is not a move."))
        staged.append({"cards": cards, **({"wild_as": wild_as} if wild_as else {})})
    return staged


def wild_from_post(post) -> dict[str, str]:
    wild_as = {}
    for value in post.getlist("wild"):
        card_id, _sep, face = value.partition(":")
        if small_int(card_id) is not None and face and len(face) <= 3:
            wild_as[card_id] = face
    return wild_as


def action_from_post(post) -> dict:
    """The move a play-page form submits, as a dict for ``services.play``.

    Buttons: ``act`` = draw | discard | meld | take | declare_hand | redeal | lay_off (with ``meld``) |
    lay_down (every pending meld of the hidden ``staged`` fields in one action), or
    ``preset`` = an action the page offered as JSON (a way to take the discard, a wild exchange).
    Selected cards come as ``cards``; named wild cards as ``wild`` = "<id>:<face>". Raises ValueError
    with a sentence for the player.
    """
    cards = small_ints(post.getlist("cards"))
    if cards is None:
        raise ValueError(_("Choose the cards by tapping them."))
    wild_as = wild_from_post(post)
    preset = post.get("preset")
    if preset:
        action = small_json(preset)  # bounded size and depth
        if not isinstance(action, dict) or action.get("type") not in engine.ACTION_TYPES:
            raise ValueError(_("That is not a move."))
        return action
    act = post.get("act", "")
    if act == "draw":
        return {"type": "draw"}
    if act == "lay_down":
        return {"type": "lay_down", "melds": staged_from_post(post)}
    if act in ("declare_hand", "redeal"):
        return {"type": act}
    if act == "discard":
        if len(cards) != 1:
            raise ValueError(_("Select exactly one card to discard."))
        return {"type": "discard", "card": cards[0]}
    if act in ("meld", "take"):
        action = {"type": "meld" if act == "meld" else "take_discard", "cards": cards}
        if wild_as:
            action["wild_as"] = wild_as
        return action
    if act.startswith("lay_off:"):
        meld = small_int(act.removeprefix("lay_off:"))
        if meld is None:
            raise ValueError(_("That is not a move."))
        if not cards:
            raise ValueError(_("Select the cards to lay off first."))
        action = {"type": "lay_off", "meld": meld, "cards": cards}
        if wild_as:
            action["wild_as"] = wild_as
        return action
    raise ValueError(_("That is not a move."))
