"""`fluturas serve` as the arbiter starts it: it prints where to open it and serves the store."""
from __future__ import annotations

import subprocess
import sys
import urllib.request

from tests.web.helpers import flagged_round


def test_serve_prints_its_address_and_serves_the_store(store, tmp_path):
    flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    proc = subprocess.Popen([sys.executable, "cli.py", "serve", "--db", str(tmp_path / "store.db"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = ""
        for _ in range(5):  # the address line, after whatever opening the store prints
            first = proc.stdout.readline().strip()
            if first.startswith("fluturas serve:"):
                break
        assert first.startswith("fluturas serve: http://127.0.0.1:") and first.endswith("/queue"), first
        assert "token" not in first  # loopback: no token needed
        with urllib.request.urlopen(first.split(": ", 1)[1], timeout=10) as response:
            page = response.read().decode()
        assert "Coada de revizuire" in page and "Masa 1" in page
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "cli.py", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_serve_on_a_store_that_does_not_exist_refuses_unless_asked_to_create_it(tmp_path):
    """A typo in --db never starts an empty store; --new-store starts one for a tournament set up in
    the browser, whose first page is the new-game form."""
    missing = tmp_path / "turneu.db"
    refused = subprocess.run([sys.executable, "cli.py", "serve", "--db", str(missing), "--port", "0"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "no such store" in refused.stderr and not missing.exists()
    proc = _serve("--db", str(missing), "--new-store")
    try:
        first = ""
        for _ in range(5):
            first = proc.stdout.readline().strip()
            if first.startswith("fluturas serve:"):
                break
        assert first.startswith("fluturas serve: http://127.0.0.1:"), first
        base = first.split(": ", 1)[1].rsplit("/", 1)[0]
        with urllib.request.urlopen(base + "/game/new", timeout=10) as response:
            page = response.read().decode()
        assert response.status == 200 and "<form" in page
        assert missing.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
