"""What keeps the app to the arbiters: an access token when it listens beyond this machine, a
named arbiter for every write, a CSRF token on every form (and on the keys' POSTs), redirects
only inside the app, and path and query numbers the store can hold (a bad one is a 400 or a
404, never a failure of the server)."""
from __future__ import annotations

import hmac
import ipaddress
import secrets
from urllib.parse import urlencode, urlsplit

from flask import Flask, abort, redirect, request, session
from werkzeug.routing import BaseConverter, ValidationError

from ..store.freetext import check_text
from ..store.validation import LARGEST

CSRF_HEADER = "X-CSRF-Token"
OPEN_ENDPOINTS = {"static", "hall", "hall_state", "login"}  # the hall is read-only and token-free
NAME_LONGEST = 100  # the audit log's limit on who did it (audit.record)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(18)


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def token_matches(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.strip().encode(), token.encode())


def install(app: Flask) -> None:
    """Checks run before every view: the access token (if any), then CSRF on writes. The login
    form's POST checks the token itself: it is how an arbiter without the link gets in."""
    app.url_map.converters["id"] = IdConverter

    @app.before_request
    def _guard():
        token = app.config.get("ACCESS_TOKEN")
        if token:
            given = request.args.get("token")
            if token_matches(given, token):
                session["authed"] = True
                args = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
                return redirect(request.path + ("?" + urlencode(args) if args else ""))
            if not session.get("authed") and request.endpoint not in OPEN_ENDPOINTS:
                abort(401)
        if request.method == "POST":
            sent = request.form.get("csrf") or request.headers.get(CSRF_HEADER) or ""
            if not session.get("csrf") or not hmac.compare_digest(sent.encode(), session["csrf"].encode()):
                abort(400, description="CSRF token missing or wrong")
            if token and not session.get("authed") and request.endpoint != "login":
                abort(401)
        return None


def arbiter() -> str | None:
    return session.get("arbiter")


def arbiter_name(raw: str) -> str:
    """The name an arbiter signs in with, checked as the audit log checks who did a change
    (freetext.check_text), so a name accepted here is never refused at the first save."""
    return check_text(raw.strip(), "arbitru", required=True, longest=NAME_LONGEST)


def safe_next(target: str | None, default: str) -> str:
    """`target` when it is a path of this app, else `default`. Browsers drop tabs and line breaks
    inside a URL and read a backslash as a slash (`/\\t/evil.example` is `//evil.example`, another
    site), so a target with any of them, or with a scheme or a host, is refused."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return default
    if any(ord(ch) < 0x21 or ord(ch) == 0x7F or ch == "\\" for ch in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return default
    return target


def whole_arg(name: str, least: int = 1) -> int | None:
    """A whole-number query or form parameter (`?round=3`): None when absent or blank, a 400 when
    it is not a number the store can hold (`?round=99999999999999999999`, `?round=x`)."""
    raw = request.values.get(name, "")
    if not raw.strip():
        return None
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or not least <= int(text) <= LARGEST:
        abort(400, description=f"{name}={raw[:20]!r}: expected a whole number from {least} to {LARGEST}")
    return int(text)


class IdConverter(BaseConverter):
    """`<id:item_id>`: a record number the store can hold (1 to 2³¹−1); anything else is a 404
    before the view runs, so no query ever sees a number too large for the database."""

    regex = r"[0-9]{1,10}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= LARGEST:
            raise ValidationError()
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))

