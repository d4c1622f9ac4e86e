"""The site's URLs plus views that fail in each way, for the tests of the error pages
(tests/handsite/test_error_pages.py, tests/browser/test_error_pages.py)."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.middleware.csrf import REASON_BAD_ORIGIN
from django.urls import path

from handsite import views
from handsite.urls import handler400, handler403, handler404, handler500
from handsite.urls import urlpatterns as site_urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


def broken(request):
    raise RuntimeError("a bug in a view")


def suspicious(request):
    raise SuspiciousOperation("a request the site cannot read")


def forbidden(request):
    raise PermissionDenied


def csrf_refused(request):
    return views.csrf_failure(request, reason=REASON_BAD_ORIGIN)


urlpatterns = [
    path("broken-for-tests/", broken),
    path("bad-request-for-tests/", suspicious),
    path("forbidden-for-tests/", forbidden),
    path("csrf-refused-for-tests/", csrf_refused),
    *site_urlpatterns,
]
