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
