#!/usr/bin/env python3
"""Allocates from an ASN range and from an IP range with pynetbox (7.0, as Debian packages it).

Usage: allocate_ranges.py [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

Four concurrent clients (threads, each with its own pynetbox API object and HTTP session) ask for 20 numbers
from an ASN range of 14 (`available-asns`, through pynetbox's DetailEndpoint: 7.0 has no attribute for it)
and for 20 addresses from an IP range of 14 (`ip_range.available_ips.create()`): 14 must succeed, 6 must get
409, and nothing may be handed out twice. Everything it creates is deleted at the end; it exits 1 at the
first failure and prints one summary line per check on success.
"""

import os
import random
import sys
import threading
import uuid

try:
    import pynetbox
    from pynetbox.core.endpoint import DetailEndpoint
    from pynetbox.core.query import AllocationError, RequestError
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"FAIL: pynetbox is not importable: {error}", file=sys.stderr)
    sys.exit(2)

CLIENTS = 4
REQUESTS = 20
SIZE = 14


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def race(url, token, take):
    """Every client asks at the same moment; `take(api)` allocates one value. Returns values and refusals."""
    allocated, refused, unexpected = [], [], []
    lock = threading.Lock()
    start = threading.Barrier(CLIENTS)

    def client(number):
        api = pynetbox.api(url, token=token)
        start.wait()
        for attempt in range(REQUESTS // CLIENTS):
            try:
                value = take(api, f"client {number} #{attempt}")
                with lock:
                    allocated.append(value)
            except AllocationError as error:  # pynetbox's error for a 409 of an allocation
                with lock:
                    (refused if error.req.status_code == 409 else unexpected).append(error.req.text)
            except RequestError as error:
                with lock:
                    (refused if error.req.status_code == 409 else unexpected).append(
                        f"{error.req.status_code}: {error.error}"
                    )

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return allocated, refused, unexpected


def verify(what, allocated, refused, unexpected):
    check(not unexpected, f"{what}: unexpected answers: {unexpected}")
    check(len(allocated) == SIZE, f"{what}: expected {SIZE}, got {len(allocated)}: {sorted(allocated)}")
    check(len(refused) == REQUESTS - SIZE, f"{what}: expected {REQUESTS - SIZE} refusals (409), got {len(refused)}")
    check(len(set(allocated)) == len(allocated), f"{what}: a value was handed out twice: {sorted(allocated)}")


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NETBOX_URL", "http://127.0.0.1:8000")
    token = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("NETBOX_TOKEN", "")
    run = f"ranges-{uuid.uuid4().hex[:8]}"
    nb = pynetbox.api(url, token=token)
    created = []
    try:
        rir = nb.ipam.rirs.create(name=run, slug=run, is_private=True)
        created.append(rir)
        low = random.randint(4_200_000_000, 4_290_000_000)
        asn_range = nb.ipam.asn_ranges.create(name=run, slug=run, rir=rir.id, start=low, end=low + SIZE - 1)
        created.append(asn_range)

        def take_asn(api, text):
            parent = api.ipam.asn_ranges.get(asn_range.id)
            return DetailEndpoint(parent, "available-asns").create({"description": f"{run} {text}"})["asn"]

        allocated, refused, unexpected = race(url, token, take_asn)
        created.extend(nb.ipam.asns.filter(rir_id=rir.id))
        verify("ASN range", allocated, refused, unexpected)
        check(sorted(allocated) == list(range(low, low + SIZE)), f"ASN range: expected {low}..{low + SIZE - 1}")
        check(list(DetailEndpoint(asn_range, "available-asns").list()) == [], "the ASN range still lists free numbers")
        print(f"OK: {CLIENTS} clients asked for {REQUESTS} ASNs of a range of {SIZE}: {SIZE} allocated, "
              f"{REQUESTS - SIZE} refused with 409, none twice")

        network = f"10.{random.randint(100, 199)}.{random.randint(0, 255)}"
        ip_range = nb.ipam.ip_ranges.create(
            start_address=f"{network}.1/24", end_address=f"{network}.{SIZE}/24", description=run
        )
        created.append(ip_range)

        def take_ip(api, text):
            parent = api.ipam.ip_ranges.get(ip_range.id)
            return str(parent.available_ips.create({"description": f"{run} {text}"}).address)

        allocated, refused, unexpected = race(url, token, take_ip)
        created.extend(nb.ipam.ip_addresses.filter(parent=f"{network}.0/24"))
        verify("IP range", allocated, refused, unexpected)
        hosts = sorted(int(a.split("/")[0].rsplit(".", 1)[1]) for a in allocated)
        check(hosts == list(range(1, SIZE + 1)), f"IP range: expected .1 to .{SIZE}, got {hosts}")
        check(all(a.endswith("/24") for a in allocated), f"IP range: addresses without the range's mask: {allocated}")
        check(ip_range.available_ips.list() == [], "the IP range still lists free addresses")
        print(f"OK: {CLIENTS} clients asked for {REQUESTS} addresses of an IP range of {SIZE}: {SIZE} allocated, "
              f"{REQUESTS - SIZE} refused with 409, none twice")
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        for obj in reversed(created):
            try:
                obj.delete()
            except RequestError:
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
