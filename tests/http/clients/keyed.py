#!/usr/bin/env python3
"""A careful charge client in Python's standard library alone, for `ratelab judge`.

    ratelab judge -- python3 tests/http/clients/keyed.py

It reads the provider's address from RATELAB_URL and charges customers 1 to
RATELAB_CUSTOMERS (1,000 if not set), as the lab's `pool` strategy does: six workers,
one shared pacer at 90 requests a second (the provider allows 100), a 1 s timeout on
every attempt, one idempotency key per charge sent on every attempt, and up to five
attempts with exponential backoff (100 ms, 200 ms, 400 ms, 800 ms) after a 409, 429,
500, 503 or a timeout. 200, 400 (card declined) and 422 are final.

What it did goes to standard output (which judge passes to its standard error); the exit
code is 0 once every customer is done, 2 for a bad environment.
"""

import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

WORKERS = 6
RATE_PER_S = 90
TIMEOUT_S = 1.0
MAX_ATTEMPTS = 5
BACKOFF_S = 0.1
FINAL = {200, 400, 422}


class Pacer:
    """One turn every 1/RATE_PER_S seconds, shared by every worker."""

    def __init__(self, rate_per_s):
        self.gap_s = 1.0 / rate_per_s
        self.next_s = time.monotonic()
        self.lock = threading.Lock()

    def wait_for_turn(self):
        with self.lock:
            now = time.monotonic()
            turn = max(now, self.next_s)
            self.next_s = turn + self.gap_s
        if turn > now:
            time.sleep(turn - now)


# No proxy from the environment: the provider is on this machine.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def attempt(base_url, customer, key):
    """One POST /charge: its status, or None if it timed out or failed to connect."""
    body = json.dumps({"id": customer, "amount": 1000}).encode()
    request = urllib.request.Request(
        base_url + "/charge",
        data=body,
        method="POST",
        headers={"content-type": "application/json", "idempotency-key": key},
    )
    try:
        with OPENER.open(request, timeout=TIMEOUT_S) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        # 4xx and 5xx arrive as errors; their body is read so the connection is freed.
        with error:
            error.read()
        return error.code
    except (urllib.error.URLError, TimeoutError, ConnectionError):
        # A timeout closes the connection: the provider sees the client leave.
        return None


def charge(base_url, pacer, customer):
    """Charges one customer: its last status, or 'gave up'."""
    key = f"py-{customer}"  # one key per charge, on every attempt
    for n in range(1, MAX_ATTEMPTS + 1):
        pacer.wait_for_turn()
        status = attempt(base_url, customer, key)
        if status in FINAL:
            return status
        if n < MAX_ATTEMPTS:
            time.sleep(BACKOFF_S * 2 ** (n - 1))
    return "gave up"


def main():
    base_url = os.environ.get("RATELAB_URL", "").rstrip("/")
    try:
        customers = int(os.environ.get("RATELAB_CUSTOMERS", "1000"))
    except ValueError:
        customers = 0
    if not base_url.startswith("http://") or not 1 <= customers <= 1_000_000:
        print(
            "usage: RATELAB_URL=http://host:port [RATELAB_CUSTOMERS=1..1000000] "
            "python3 keyed.py",
            file=sys.stderr,
        )
        return 2
    pacer = Pacer(RATE_PER_S)
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        ends = Counter(
            pool.map(lambda c: charge(base_url, pacer, c), range(1, customers + 1))
        )
    print(f"{customers} customers: " + ", ".join(f"{k}: {v}" for k, v in sorted(ends.items(), key=str)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
