"""The site's URLs plus one view that fails, for the tests of the 500 page
(tests/handsite/test_error_pages.py)."""

from django.urls import path

from handsite.urls import handler400, handler403, handler404, handler500
from handsite.urls import urlpatterns as site_urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


def broken(request):
    raise RuntimeError("a bug in a view")


urlpatterns = [path("broken-for-tests/", broken), *site_urlpatterns]
