"""Demo score sheets for `manage.py demo_data` (idempotent: one sheet per fixed title)."""

from __future__ import annotations

from scoring.models import Sheet
from scoring.services.deals import add_deal
from scoring.services.sheets import PlayerEntry, create_sheet

DEMO_TITLE = "Demo: Thursday classic"


def load(demo):
    if Sheet.objects.filter(group=demo.group, title=DEMO_TITLE).exists():
        return
    amira, omar, layla = demo.users["amira"], demo.users["omar"], demo.users["layla"]
    sheet = create_sheet(
        group=demo.group,
        by=amira,
        rule_set="classic",
        players=[
            PlayerEntry(user=amira),
            PlayerEntry(user=omar),
            PlayerEntry(user=layla),
            PlayerEntry(name="Yusuf"),
        ],
        first_dealer=0,
        title=DEMO_TITLE,
    )
    deals = [
        {
            "winner": 0,
            "finish": "normal",
            "opened": [True, True, True, False],
            "held": [None, "KS 7H JK", "AS 2D", None],
        },
        {
            "winner": 2,
            "finish": "hand",
            "opened": [True, False, False, True],
            "held": ["5C 5D 9S", None, None, 12],
        },
    ]
    for facts in deals:
        add_deal(sheet, by=amira, facts=facts)
    demo.write(f"Demo score sheet: {sheet.get_absolute_url()}")
