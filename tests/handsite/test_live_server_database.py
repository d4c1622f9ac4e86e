"""The test database and the live server.

pytest-django's live_server answers each request in its own thread. With SQLite in memory those
threads share one connection, and a page that fires several requests at once fails with
"sqlite3.InterfaceError: bad parameter or other API misuse". The tests use a SQLite file instead
(one per xdist worker), so every thread has its own connection.
"""

import os
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client

from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_sqlite_test_database_is_a_file_of_its_own_per_worker():
    if connection.vendor != "sqlite":
        pytest.skip("only SQLite shares one in-memory connection across threads")
    name = str(connection.settings_dict["NAME"])
    assert not connection.is_in_memory_db(), name
    assert os.path.exists(name)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        assert name.endswith(f"_{worker}")


def test_the_live_server_answers_many_requests_at_once(live_server):
    membership = MembershipFactory(group__name="Many Requests")
    client = Client()
    client.force_login(membership.user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    urls = [live_server.url + "/", live_server.url + membership.group.get_absolute_url()] * 30

    def fetch(url):
        request = urllib.request.Request(url, headers={"Cookie": cookie})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, ""

    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(fetch, urls))

    assert [status for status, _text in results] == [200] * len(urls)
    assert all("Many Requests" in text for _status, text in results)
