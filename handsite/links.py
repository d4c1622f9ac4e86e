from django.conf import settings


def absolute_url(path: str) -> str:
    """A full link for e-mails and other places without a request (SITE_URL + path)."""
    return settings.SITE_URL.rstrip("/") + path


def whatsapp_url(text: str, link: str) -> str:
    """A "share on WhatsApp" link: WhatsApp's plain ``https://wa.me/?text=`` URL (no API, nothing sent
    by us), the text and the link URL-encoded as one message."""
    from urllib.parse import quote

    if link.startswith("/"):
        link = absolute_url(link)
    return "https://wa.me/?text=" + quote(f"{text}\n{link}", safe="")
