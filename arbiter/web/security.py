"""What keeps the app to the arbiters: an access token when it listens beyond this machine, a
named arbiter for every write, and a CSRF token on every form (and on the keys' POSTs)."""
from __future__ import annotations

import hmac
import ipaddress
import secrets
from urllib.parse import urlencode

from flask import Flask, abort, redirect, request, session

CSRF_HEADER = "X-CSRF-Token"
OPEN_ENDPOINTS = {"static", "hall", "hall_state", "login"}  # the hall is read-only and token-free


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


def install(app: Flask) -> None:
    """Checks run before every view: the access token (if any), then CSRF on writes."""

    @app.before_request
    def _guard():
        token = app.config.get("ACCESS_TOKEN")
        if token:
            given = request.args.get("token")
            if given is not None and hmac.compare_digest(given, token):
                session["authed"] = True
                args = {k: v for k, v in request.args.items() if k != "token"}
                return redirect(request.path + ("?" + urlencode(args) if args else ""))
            if not session.get("authed") and request.endpoint not in OPEN_ENDPOINTS:
                abort(401)
        if request.method == "POST":
            sent = request.form.get("csrf") or request.headers.get(CSRF_HEADER) or ""
            if not session.get("csrf") or not hmac.compare_digest(sent, session["csrf"]):
                abort(400, description="CSRF token missing or wrong")
            if token and not session.get("authed"):
                abort(401)
        return None


def arbiter() -> str | None:
    return session.get("arbiter")
