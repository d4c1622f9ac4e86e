"""One way to write a date in each language (handsite/formats): the group's sheet list, a sheet's
date played and its history write "27 Nov 2026" in English and "27 نوفمبر 2026" in Arabic."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse

from scoring.models import Sheet
from tests.scoring.conftest import make_sheet

TIME = re.compile(r"<time[^>]*>(.*?)</time>", re.S)
SCRIPT_TEMPLATES = re.compile(r"<template\b.*?</template>", re.S)  # filled by script, not shown as is
ARABIC_MONTHS = "يناير|فبراير|مارس|أبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر"
SHAPES = {
    "en": re.compile(r"\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}(?:, \d\d:\d\d)?"),
    "ar": re.compile(rf"\d{{1,2}} (?:{ARABIC_MONTHS}) \d{{4}}(?:، \d{{1,2}}:\d\d [صم])?"),
}
DAY = {"en": "27 Nov 2026", "ar": "27 نوفمبر 2026"}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_sheet_list_and_a_sheets_history_write_each_date_one_way(client, group, owner, language):
    sheet = make_sheet(group, owner, "classic", [owner, "Gina"])
    Sheet.objects.filter(pk=sheet.pk).update(played_on=dt.date(2026, 11, 27))
    owner.language = language
    owner.save(update_fields=["language"])
    client.force_login(owner)
    with time_machine.travel("2026-11-27 20:15 +0000", tick=False):
        client.post(reverse("scoring:sheet_do_not_count", args=[group.slug, sheet.pk]), {"do_not_count": "1"})
    listing = client.get(reverse("scoring:sheet_list", args=[group.slug])).content.decode()
    page = SCRIPT_TEMPLATES.sub("", client.get(sheet.get_absolute_url()).content.decode())
    history = page.split('data-testid="history"')[1]
    assert f'<html lang="{language}"' in page
    for html in (listing, page, history):
        assert DAY[language] in [text.split(",")[0].split("،")[0] for text in TIME.findall(html)]
    shown = TIME.findall(listing) + TIME.findall(page)
    assert shown
    for text in shown:
        assert SHAPES[language].fullmatch(text), text
