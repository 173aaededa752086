"""Web throughput under gunicorn (2 sync workers, loopback): each page over a bare text route of the same app.

The bare route, ``/bench/bare``, exists only in this bench's configuration
(:func:`bench_app`): it answers ``ok`` as plain text through the same app,
so its rate is the server's and Flask's own cost, and each page's rate over
it is what the page adds.  Pages: Tito's case 6.21, Tito's table of
contents, search (a stated mix of words and case numbers, see SEARCHES) and
the stored report of the Tito overstacked example.

It imports Tito's rulebook into the instance folder ``REFEREE_INSTANCE``
names (from ``REFEREE_RULEBOOKS``), stores the report through the check API,
starts gunicorn, warms every page once (a real server has served each page
before: that is what the page caches keep, validator.web.page_cache: the
rules pages and each search's results per import of the book, the report's
page per version of what it shows, so the search and report figures are
those of a query or a report asked for before), then sends ``--requests``
requests per page from ``--clients`` threads, in rounds alternating with the
bare route, and keeps each figure's best round.  Prints one JSON object per
page: requests per second, the ratio to the bare route's, and errors.

    PYTHONPATH=. python bench/web_throughput.py [--requests 300] [--clients 4] [--rounds 3]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
TITO_EXAMPLE = CHECKOUT / "examples" / "tito" / "overstacked.xml"
TITO_FILES = ("tito-rulebook.txt",)
# Half words, half case numbers: what a player types into the search box.
SEARCHES = ("stacking", "6.21", "hide-away", "7.2", "brigade strength", "11.1", "partisan", "5.4")


def bench_app():
    """The app as deployed, plus the bare text route the bench measures against (never in the real app)."""
    from validator.web import create_app

    app = create_app()

    @app.get("/bench/bare")
    def bare():
        return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}

    return app


def stored_report() -> str:
    """Store the Tito overstacked example's report through the check API; its id."""
    app = bench_app()
    client = app.test_client()
    response = client.post("/api/check", data={"save": (io.BytesIO(TITO_EXAMPLE.read_bytes()), "overstacked.xml")},
                           content_type="multipart/form-data")
    if response.status_code != 200:
        raise SystemExit(f"web_throughput: the example could not be stored: {response.get_data(as_text=True)}")
    return response.get_json()["id"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def rate(urls: list[str], requests: int, clients: int) -> tuple[float, int]:
    """Requests per second over ``requests`` fetches cycling through ``urls``, and how many failed."""
    chosen = [urls[number % len(urls)] for number in range(requests)]
    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        answers = list(pool.map(fetch, chosen))
    return requests / (time.perf_counter() - started), answers.count(False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args(argv)
    rulebooks = Path(os.environ.get("REFEREE_RULEBOOKS", ""))
    if not all((rulebooks / name).is_file() for name in TITO_FILES):
        raise SystemExit("web_throughput: set REFEREE_RULEBOOKS to the folder holding Tito's rulebook")
    subprocess.run([sys.executable, "-m", "validator.cli", "rules", "import", "tito",
                    *(str(rulebooks / name) for name in TITO_FILES)], check=True, capture_output=True)
    report_id = stored_report()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "sync", "--bind", f"127.0.0.1:{port}",
         "--chdir", str(CHECKOUT / "bench"), "--log-level", "warning", "web_throughput:bench_app()"],
        env=dict(os.environ, PYTHONPATH=str(CHECKOUT)), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    pages = {
        "case page": [f"{base}/tito/rules/6.21"],
        "contents": [f"{base}/tito/rules/"],
        "search": [f"{base}/tito/search?q={urllib.request.quote(query)}" for query in SEARCHES],
        "stored report": [f"{base}/reports/{report_id}"],
    }
    bare = [f"{base}/bench/bare"]
    try:
        for _ in range(100):
            if fetch(bare[0]):
                break
            time.sleep(0.1)
        else:
            raise SystemExit(f"web_throughput: gunicorn did not answer: {server.stderr.read().decode()[-500:]}")
        for urls in pages.values():  # two workers: each serves every page once before the rounds
            for url in urls * 4:
                fetch(url)
        for name, urls in pages.items():
            best_ratio, best_rate, errors = 0.0, 0.0, 0
            for _ in range(arguments.rounds):
                bare_rate, bare_errors = rate(bare, arguments.requests, arguments.clients)
                page_rate, page_errors = rate(urls, arguments.requests, arguments.clients)
                errors += bare_errors + page_errors
                if page_rate / bare_rate > best_ratio:
                    best_ratio, best_rate = page_rate / bare_rate, page_rate
            print(json.dumps({"page": name, "requests_per_second": best_rate, "ratio": best_ratio,
                              "errors": errors}), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
