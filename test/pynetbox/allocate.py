#!/usr/bin/env python3
"""Allocates from a running service with pynetbox (7.0, as Debian packages it), as automation does.

Usage: allocate.py [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

1. Four concurrent clients (threads, each with its own pynetbox API object and HTTP session) ask for 20
   addresses from a /28 with `prefix.available_ips.create()`: 14 must succeed, 6 must get 409, and no
   address may be handed out twice.
2. `available_ips.list()`, `available_prefixes.list()/create()` and `available_vlans.list()/create()` answer
   what pynetbox expects.

Everything it creates carries a run-specific tag in its description and is deleted at the end. It exits 1 at
the first failure and prints one summary line per check on success.
"""

import os
import random
import sys
import threading
import uuid

try:
    import pynetbox
    from pynetbox.core.query import AllocationError, RequestError
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"FAIL: pynetbox is not importable: {error}", file=sys.stderr)
    sys.exit(2)

CLIENTS = 4
REQUESTS = 20


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def race(url, token, prefix_id, run):
    """Every client asks for addresses at the same moment; returns the addresses and the refusals."""
    allocated, refused, unexpected = [], [], []
    lock = threading.Lock()
    start = threading.Barrier(CLIENTS)

    def client(number):
        api = pynetbox.api(url, token=token)
        prefix = api.ipam.prefixes.get(prefix_id)
        start.wait()
        for attempt in range(REQUESTS // CLIENTS):
            try:
                address = prefix.available_ips.create({"description": f"{run} client {number} #{attempt}"})
                with lock:
                    allocated.append(str(address.address))
            except AllocationError as error:  # pynetbox's error for a 409 of an allocation
                with lock:
                    (refused if error.req.status_code == 409 else unexpected).append(error.req.text)
            except RequestError as error:
                with lock:
                    unexpected.append(f"{error.req.status_code}: {error.error}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return allocated, refused, unexpected


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NETBOX_URL", "http://127.0.0.1:8000")
    token = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("NETBOX_TOKEN", "")
    run = f"alloc-{uuid.uuid4().hex[:8]}"
    nb = pynetbox.api(url, token=token)
    network = f"10.{random.randint(100, 199)}.{random.randint(0, 255)}.0"
    created = []
    try:
        prefix = nb.ipam.prefixes.create(prefix=f"{network}/28", description=run)
        created.append(prefix)

        allocated, refused, unexpected = race(url, token, prefix.id, run)
        check(not unexpected, f"unexpected answers: {unexpected}")
        check(len(allocated) == 14, f"expected 14 addresses, got {len(allocated)}: {sorted(allocated)}")
        check(len(refused) == 6, f"expected 6 refusals (409), got {len(refused)}")
        check(len(set(allocated)) == len(allocated), f"an address was handed out twice: {sorted(allocated)}")
        hosts = sorted(int(a.split("/")[0].split(".")[3]) for a in allocated)
        check(hosts == list(range(1, 15)), f"expected .1 to .14, got {hosts}")
        check(all(a.endswith("/28") for a in allocated), f"addresses without the prefix's mask: {allocated}")
        stored = list(nb.ipam.ip_addresses.filter(parent=f"{network}/28"))
        created.extend(stored)
        check(len(stored) == 14, f"expected 14 stored addresses, found {len(stored)}")
        check(prefix.available_ips.list() == [], "the /28 still lists free addresses")
        print(f"OK: {CLIENTS} clients asked for {REQUESTS} addresses of {network}/28: 14 allocated, 6 refused with 409, none twice")

        parent = nb.ipam.prefixes.create(prefix=f"{network.rsplit('.', 1)[0]}.64/26", description=run)
        created.append(parent)
        free = parent.available_ips.list()
        check(len(free) == 50 and str(free[0].address).endswith(".65/26"), f"available_ips.list(): {free[:2]}")
        two = parent.available_ips.create([{"description": run}, {"description": run}])
        created.extend(two)
        check([str(ip.address).split("/")[0].rsplit(".", 1)[1] for ip in two] == ["65", "66"], f"bulk: {two}")
        blocks = parent.available_prefixes.list()
        check([str(b.prefix) for b in blocks] == [f"{network.rsplit('.', 1)[0]}.64/26"], f"available_prefixes: {blocks}")
        child = parent.available_prefixes.create({"prefix_length": 28, "description": run})
        created.append(child)
        check(str(child.prefix) == f"{network.rsplit('.', 1)[0]}.64/28", f"available_prefixes.create(): {child.prefix}")
        print("OK: available_ips.list()/create([..]) and available_prefixes.list()/create() work from pynetbox")

        group = nb.ipam.vlan_groups.create(name=run, slug=run, vid_ranges=[[100, 102]], description=run)
        created.append(group)
        check([v.vid for v in group.available_vlans.list()] == [100, 101, 102], "available_vlans.list()")
        vlan = group.available_vlans.create({"name": run})
        created.append(vlan)
        check(vlan.vid == 100 and vlan.group.id == group.id, f"available_vlans.create(): {vlan.vid}")
        print("OK: available_vlans.list()/create() work from pynetbox")
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
