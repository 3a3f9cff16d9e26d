"""Many arbiters at once against `fluturas serve` as the hall runs it (the production server, a
real process, on loopback): each arbiter signs in with their own session, then all fire at once
a mix of the queue's reads and writes (pages, slip images, claims, accepts, previews, skips).
An error is an answer of 500 or more, an unexpected 4xx, or no answer at all; 409 (another
arbiter holds the item) and a redirect after a refused save are the app's normal answers."""
from __future__ import annotations

import http.client
import re
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
NORMAL = {200, 302, 409}


@dataclass
class LoadReport:
    requests: int
    seconds: float
    statuses: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return len(self.failures)

    def line(self) -> str:
        lat = sorted(self.latencies_ms) or [0.0]
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        return (f"{self.requests} requests in {self.seconds:.1f} s: {self.errors} errors; statuses "
                f"{dict(sorted(self.statuses.items()))}; latency median {statistics.median(lat):.0f} ms, "
                f"p95 {p95:.0f} ms, worst {lat[-1]:.0f} ms")


class Arbiter:
    """One arbiter's browser: a session cookie and the form's CSRF token."""

    def __init__(self, host: str, port: int, name: str, timeout: float) -> None:
        self.host, self.port, self.name, self.timeout = host, port, name, timeout
        self.cookie, self.csrf = "", ""

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, bytes, dict[str, str]]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            body = urlencode(form).encode() if form is not None else None
            headers = {"Cookie": self.cookie} if self.cookie else {}
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            return answer.status, answer.read(), {k.lower(): v for k, v in answer.getheaders()}
        finally:
            conn.close()

    def sign_in(self) -> None:
        _status, page, headers = self.request("GET", "/login")
        self.cookie = headers.get("set-cookie", "").split(";", 1)[0]
        self.csrf = re.search(rb'name="csrf-token" content="([^"]+)"', page).group(1).decode()
        status, _page, headers = self.request("POST", "/login", {"csrf": self.csrf, "name": self.name})
        assert status == 302, f"{self.name}: login answered {status}"
        self.cookie = headers.get("set-cookie", "").split(";", 1)[0] or self.cookie


def mixed_request(arbiter: Arbiter, k: int, items: list[tuple[int, int]]) -> tuple[str, str, dict | None]:
    """The k-th request of the mix: six reads to four writes, spread over the round's items."""
    item, slip = items[k % len(items)]
    form = {"csrf": arbiter.csrf, "version": 1}
    mix = [("GET", "/queue", None), ("GET", f"/queue?item={item}", None), ("GET", "/round", None),
           ("GET", "/hall/state", None), ("GET", "/results", None), ("GET", f"/slip/{slip}.png?outline=1", None),
           ("POST", f"/queue/{item}/claim", form), ("POST", f"/queue/{item}/accept", form),
           ("POST", f"/queue/{item}/skip", form), ("POST", f"/queue/{item}/preview", form | {"fields": "depunere=MODEL"})]
    return mix[k % len(mix)]


def run_load(host: str, port: int, items: list[tuple[int, int]], requests: int = 200, clients: int = 200,
             arbiters: int = 20, timeout: float = 60.0) -> LoadReport:
    """`requests` requests from `clients` threads released together, over `arbiters` sessions."""
    team = [Arbiter(host, port, f"arbitru-{i + 1}", timeout) for i in range(arbiters)]
    for a in team:
        a.sign_in()
    report = LoadReport(requests, 0.0)
    lock = threading.Lock()
    start = threading.Barrier(min(clients, requests))

    def one(k: int) -> None:
        arbiter = team[k % len(team)]
        method, path, form = mixed_request(arbiter, k, items)
        if k < clients:
            start.wait()
        began = time.perf_counter()
        try:
            status, _body, _headers = arbiter.request(method, path, form)
            what = None if status in NORMAL else f"{method} {path}: {status}"
        except (OSError, http.client.HTTPException) as exc:
            status, what = 0, f"{method} {path}: {type(exc).__name__} {exc}"
        with lock:
            report.statuses[status] += 1
            report.latencies_ms.append((time.perf_counter() - began) * 1000)
            if what:
                report.failures.append(what)

    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=min(clients, requests)) as pool:
        list(pool.map(one, range(requests)))
    report.seconds = time.perf_counter() - began
    return report


class ServedProcess:
    """`fluturas serve` in its own process on a free loopback port, stopped by `stop()`."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", "--db", str(db), "--port", "0",
                                      *extra], cwd=db.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        line = ""
        for _ in range(10):
            line = self.proc.stdout.readline().strip()
            if line.startswith("fluturas serve:"):
                break
        match = re.match(r"fluturas serve: http://([^:/]+):(\d+)/", line)
        if match is None:
            self.stop()
            raise RuntimeError(f"fluturas serve did not start: {line!r}")
        self.host, self.port = match.group(1), int(match.group(2))
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # drain its log

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
