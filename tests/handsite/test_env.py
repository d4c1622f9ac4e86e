import pytest
from django.core.exceptions import ImproperlyConfigured

from handsite.env import env_bool, env_choice, env_int, env_list, env_str, env_url
from tests.support import run_manage

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x7!kQ2#vLm9@pR4$wZ8^nB1&cT6*hY3(jU5)eF0-gA2+dS9=oI4~",
    "ALLOWED_HOSTS": "hand.example.com",
}


def test_a_boolean_accepts_the_usual_spellings():
    assert env_bool("DEBUG", False, environ={"DEBUG": "yes"}) is True
    assert env_bool("DEBUG", True, environ={"DEBUG": "0"}) is False
    assert env_bool("DEBUG", True, environ={}) is True


def test_a_bad_boolean_is_refused_naming_the_variable_and_the_allowed_values():
    with pytest.raises(
        ImproperlyConfigured, match=r"DEBUG='maybe' is not a boolean; use one of: 0, 1, false"
    ):
        env_bool("DEBUG", False, environ={"DEBUG": "maybe"})


def test_a_bad_number_is_refused():
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT='lots' is not a whole number"):
        env_int("EMAIL_PORT", 587, environ={"EMAIL_PORT": "lots"})


def test_a_number_out_of_range_is_refused():
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT=70000 is above the maximum 65535"):
        env_int("EMAIL_PORT", 587, maximum=65535, environ={"EMAIL_PORT": "70000"})


def test_a_required_string_must_be_set():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is required"):
        env_str("SECRET_KEY", environ={"SECRET_KEY": "  "})


def test_a_list_is_split_on_commas():
    assert env_list("ALLOWED_HOSTS", [], environ={"ALLOWED_HOSTS": "a.com, b.com,,"}) == ["a.com", "b.com"]


def test_a_choice_outside_the_list_is_refused():
    with pytest.raises(
        ImproperlyConfigured, match="EMAIL_MODE='pigeon' is not allowed; use one of: file, smtp"
    ):
        env_choice("EMAIL_MODE", "file", ("file", "smtp"), environ={"EMAIL_MODE": "pigeon"})


def test_a_url_with_the_wrong_scheme_is_refused():
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL uses the scheme 'http'"):
        env_url("REDIS_URL", None, ("redis",), environ={"REDIS_URL": "http://localhost"})


def test_a_value_that_is_not_a_url_is_refused():
    with pytest.raises(ImproperlyConfigured, match="not a URL"):
        env_url("DATABASE_URL", None, ("sqlite",), environ={"DATABASE_URL": "db.sqlite3"})


def test_the_site_refuses_to_start_with_a_bad_debug_value():
    result = run_manage("check", env={"DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_the_site_refuses_to_start_in_production_without_a_secret_key():
    result = run_manage("check", env={"DEBUG": "0", "ALLOWED_HOSTS": "hand.example.com"})
    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


def test_the_site_refuses_to_start_in_production_without_allowed_hosts():
    result = run_manage("check", env={"DEBUG": "0", "SECRET_KEY": PRODUCTION["SECRET_KEY"]})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must list" in result.stderr


def test_the_deploy_check_is_clean_in_production(tmp_path):
    result = run_manage(
        "check", "--deploy", "--fail-level", "DEBUG", env={**PRODUCTION, "HANDSITE_VAR_DIR": str(tmp_path)}
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_requires_email_verification(tmp_path):
    result = run_manage(
        "shell",
        "-v",
        "0",
        "-c",
        "from django.conf import settings; print(settings.ACCOUNT_EMAIL_VERIFICATION, settings.SITE_URL)",
        env={**PRODUCTION, "HANDSITE_VAR_DIR": str(tmp_path)},
    )
    assert result.stdout.split() == ["mandatory", "https://hand.example.com"], result.stderr


def test_development_makes_email_verification_optional_and_writes_mail_to_files(tmp_path):
    result = run_manage(
        "shell",
        "-v",
        "0",
        "-c",
        "from django.conf import settings; print(settings.ACCOUNT_EMAIL_VERIFICATION,"
        " settings.MAILERS['default']['BACKEND'], settings.CELERY_BROKER_URL)",
        env={"DEBUG": "1", "HANDSITE_VAR_DIR": str(tmp_path)},
    )
    assert result.stdout.split() == [
        "optional",
        "handsite.devmail.EmlBackend",
        "filesystem://",
    ], result.stderr


def test_with_redis_url_celery_uses_redis(tmp_path):
    result = run_manage(
        "shell",
        "-v",
        "0",
        "-c",
        "from django.conf import settings; print(settings.CELERY_BROKER_URL, settings.CELERY_RESULT_BACKEND)",
        env={"REDIS_URL": "redis://127.0.0.1:6379/3", "HANDSITE_VAR_DIR": str(tmp_path)},
    )
    assert result.stdout.split() == ["redis://127.0.0.1:6379/3", "redis://127.0.0.1:6379/3"], result.stderr
