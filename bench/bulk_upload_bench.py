"""A bulk upload of N records (2,000 by default) over HTTP while results are entered on the
same event (issue 14 item 2): how long the upload takes to be accepted (stored, audited and
queued), and how long each result entered meanwhile waits. Needs PostgreSQL and Redis; runs
the site as the Procfile's web line (gunicorn) on a spare port, no worker (queueing is part
of "accepted"; validation is bench/worker_bench.py's).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 python bench/bulk_upload_bench.py [--records 2000]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def multipart(filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = io.BytesIO()
    body.write(f"--{boundary}\r\n".encode())
    body.write(f'Content-Disposition: form-data; name="file"; filename="{filename}"\r\n'.encode())
    body.write(b"Content-Type: application/zip\r\n\r\n" + data + b"\r\n")
    body.write(f"--{boundary}--\r\n".encode())
    return body.getvalue(), f"multipart/form-data; boundary={boundary}"


def post(url: str, body: bytes, content_type: str, token: str) -> tuple[int, float]:
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", content_type)
    request.add_header("Authorization", f"Token {token}")
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=300) as response:  # noqa: S310 - local
            response.read()
            return response.status, time.perf_counter() - start
    except urllib.error.HTTPError as exc:
        return exc.code, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--records", type=int, default=2000)
    args = ap.parse_args()
    if not (
        os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
    ):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    os.environ["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.test"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from games.models import RecordSubmission
    from tests.integration.test_bulk_upload_short import upload_zip
    from tests.workers import free_port, http_wait, service, web_server_argv
    from tournaments.demo import demo_load
    from tournaments.models import Game

    call_command("migrate", verbosity=0)
    tournament, login, _, _ = demo_load(rounds_played=2)
    user = get_user_model().objects.get(username=login)
    token = Token.objects.get_or_create(user=user)[0].key
    games = list(
        Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).select_related(
            "round", "first", "second"
        )
    )
    data = upload_zip(games, args.records)
    port = free_port(8390, 8399)
    base = f"http://127.0.0.1:{port}"
    before = RecordSubmission.objects.filter(tournament=tournament).count()
    db_url = os.environ["DATABASE_URL"]
    with service("bench-web", web_server_argv(port), DATABASE_URL=db_url):
        http_wait(base + "/")
        body, content_type = multipart("all.zip", data)
        waits: list[float] = []
        upload: dict[str, float] = {}

        def do_upload() -> None:
            status, seconds = post(
                f"{base}/api/tournaments/{tournament.slug}/record-uploads/",
                body,
                content_type,
                token,
            )
            upload["status"], upload["seconds"] = status, seconds

        thread = threading.Thread(target=do_upload)
        thread.start()
        n = 0
        while thread.is_alive():
            result = ("first_win", "draw")[n % 2]
            status, seconds = post(
                f"{base}/api/games/{games[0].pk}/result/",
                json.dumps({"result": result}).encode(),
                "application/json",
                token,
            )
            assert status == 200, status
            waits.append(seconds)
            n += 1
            time.sleep(0.05)
        thread.join()
    stored = RecordSubmission.objects.filter(tournament=tournament).count() - before
    print(f"upload of {args.records} records: HTTP {upload['status']}, accepted (stored, ")
    print(f"  audited, queued) in {upload['seconds']:.2f} s; {stored} stored")
    if waits:
        print(
            f"results entered meanwhile: {len(waits)}, wait median "
            f"{statistics.median(waits) * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
