"""handsite.middleware.AuthenticationMiddleware: ``request.user`` is read lazily, as in Django (a page
that never looks at it reads no session), and once read it is the user itself instead of the lazy
object (each attribute read through that object's proxy cost a microsecond; a move reads some thirty)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import RequestFactory
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from handsite.middleware import AuthenticationMiddleware
from handsite.models import User

pytestmark = pytest.mark.django_db


def _request(client):
    request = RequestFactory().get("/")
    request.COOKIES["sessionid"] = client.cookies["sessionid"].value if "sessionid" in client.cookies else ""
    SessionMiddleware(lambda r: None).process_request(request)
    AuthenticationMiddleware(lambda r: None).process_request(request)
    return request


def test_once_read_request_user_is_the_user_itself(client, member):
    client.force_login(member)
    response = client.get(reverse("profile"))
    assert type(response.wsgi_request.user) is User
    assert response.wsgi_request.user == member


def test_until_read_it_is_lazy_and_the_session_is_not_read(client, member):
    client.force_login(member)
    request = _request(client)
    assert isinstance(request.user, SimpleLazyObject)
    assert not request.session.accessed


def test_the_lazy_user_read_later_is_the_same_user(client, member):
    client.force_login(member)
    request = _request(client)
    lazy = request.user
    assert lazy.pk == member.pk
    assert request.user == member
    assert type(request.user) is User
    assert lazy == request.user


def test_a_user_set_meanwhile_is_not_replaced_by_the_lazy_one(client, member, outsider):
    """login() or logout() set ``request.user`` themselves; an older lazy object read afterwards leaves
    it alone."""
    client.force_login(member)
    request = _request(client)
    lazy = request.user
    request.user = AnonymousUser()  # as logout() does
    assert lazy.pk == member.pk
    assert isinstance(request.user, AnonymousUser)


def test_a_visitor_is_anonymous(client, db):
    request = _request(client)
    assert not request.user.is_authenticated
    assert isinstance(request.user, AnonymousUser)
