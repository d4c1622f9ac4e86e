from django.conf import settings


def absolute_url(path: str) -> str:
    """A full link for e-mails and other places without a request (SITE_URL + path)."""
    return settings.SITE_URL.rstrip("/") + path
