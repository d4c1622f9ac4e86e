"""The error pages (404, 500, 400, 403, CSRF failure) in a real browser: the site's layout fits a phone
(360 px) and a desktop (1280 px), in English and Arabic (right to left), light and dark, with a way home.
Screenshots: test-artifacts/error-<page>-<lang>-<width>-<scheme>.png."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = {
    "404": ("/no-such-page/", 404),
    "500": ("/broken-for-tests/", 500),
    "400": ("/bad-request-for-tests/", 400),
    "403": ("/forbidden-for-tests/", 403),
    "csrf": ("/csrf-refused-for-tests/", 403),
}
HEADINGS = {
    "en": {
        "404": "Page not found",
        "500": "Something went wrong on our side",
        "400": "Bad request",
        "403": "Not allowed",
        "csrf": "The form could not be sent",
    },
    "ar": {
        "404": "الصفحة غير موجودة",
        "500": "حدث خطأ من جهتنا",
        "400": "طلب غير صالح",
        "403": "غير مسموح",
        "csrf": "تعذّر إرسال النموذج",
    },
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_error_page_fits_and_leads_home(
    browser, live_server, settings, screenshot, lang, width, scheme
):
    settings.ROOT_URLCONF = "tests.error_urls"
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 800},
        locale=lang,
        color_scheme=scheme,
        is_mobile=width < 600,
        has_touch=width < 600,
    )
    try:
        page = context.new_page()
        for name, (path, status) in PAGES.items():
            response = page.goto(path)
            assert response.status == status, name
            assert page.locator("html").get_attribute("lang") == lang
            assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
            assert page.locator("h1").inner_text() == HEADINGS[lang][name]
            home = page.locator(".error-page .actions a").last
            assert home.is_visible()
            assert home.get_attribute("href") == "/"
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{name}: {overflow}px wider than the screen"
            screenshot(page, f"error-{name}-{lang}-{width}-{scheme}")
        home.click()
        page.wait_for_load_state()
        assert page.url.rstrip("/") == live_server.url.rstrip("/")
    finally:
        context.close()
