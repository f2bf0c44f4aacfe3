#!/usr/bin/env python3
"""Drives the NetBox DNS example plugin of a running service with pynetbox (7.0, as Debian packages it), unchanged.

Usage: dns.py [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

pynetbox reaches the plugin as `nb.plugins.netbox_dns.<endpoint>` (/api/plugins/netbox-dns/…), as it reaches
NetBox with the netbox-dns plugin installed. The script uses what the plugin's YAML declares: one default view
(conditional uniqueness), zone names unique per view whatever their case, a record's value checked against its
type (IPv4, IPv6, host name), a record's FQDN that follows a renamed zone, the record display with brackets and
a zone's stamped time. Everything it creates carries a run-specific name and is deleted at the end. It exits 1
at the first failure.
"""

import os
import sys
import uuid

try:
    import pynetbox
    from pynetbox.core.query import RequestError
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"FAIL: pynetbox is not importable: {error}", file=sys.stderr)
    sys.exit(2)


class CheckFailed(Exception):
    pass


def equal(actual, expected, what):
    if actual != expected:
        raise CheckFailed(f"{what}: expected {expected!r}, got {actual!r}")


def refused(call, what):
    try:
        call()
    except RequestError as error:
        equal(error.req.status_code, 400, f"{what}: status")
        return error.error
    raise CheckFailed(f"{what} succeeded")


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NETBOX_URL", "http://127.0.0.1:8000")
    token = sys.argv[2] if len(sys.argv) > 2 else os.environ["NETBOX_TOKEN"]
    nb = pynetbox.api(url, token=token)
    dns = nb.plugins.netbox_dns
    run = uuid.uuid4().hex[:8]
    created = []

    try:
        equal(nb.status()["plugins"].get("netbox_dns"), "1.4.0", "status() plugins")

        view = dns.views.create(name=f"internal-{run}", default_view=not dns.views.count(default_view=True))
        other = dns.views.create(name=f"external-{run}")
        created += [view, other]
        if view.default_view:
            refused(lambda: dns.views.create(name=f"second-{run}", default_view=True), "a second default view")

        ns1 = dns.nameservers.create(name=f"ns1.{run}.example")
        ns2 = dns.nameservers.create(name=f"ns2.{run}.example")
        created += [ns1, ns2]
        refused(lambda: dns.nameservers.create(name=f"-{run}-.example"), "a name server that is no host name")

        zone = dns.zones.create(view=view.id, name=f"{run}.example", nameservers=[ns1.id], soa_mname=ns1.id)
        created.append(zone)
        ns_records = dns.records.filter(zone_id=zone.id, type="NS")
        equal([r.value for r in ns_records], [ns1.name], "the zone's NS records, written by its created hook")
        refused(lambda: dns.zones.create(view=view.id, name=f"{run}.EXAMPLE"), "the same zone name in another case")
        twin = dns.zones.create(view=other.id, name=f"{run}.EXAMPLE")
        created.append(twin)

        zone.description = "only the description"
        equal(zone.save(), True, "zone.save() of a zone whose SOA MName is one of its name servers")
        stamped = zone.soa_serial_stamped
        equal(dns.zones.get(zone.id).soa_serial_stamped > stamped, True, "soa_serial_stamped after save()")

        refused(lambda: dns.records.create(zone=zone.id, name="www", type="A", value="2001:db8::1"), "an A record")
        refused(lambda: dns.records.create(zone=zone.id, name="www", type="AAAA", value="192.0.2.1"), "AAAA")
        record = dns.records.create(zone=zone.id, name="www", type="A", value="192.0.2.1")
        created.append(record)
        equal(record.display, "www [A] 192.0.2.1", "record.display")
        equal(record.fqdn, f"www.{run}.example.", "record.fqdn")

        zone.name = f"renamed-{run}.example"
        equal(zone.save(), True, "zone.save() renaming the zone")
        equal(dns.records.get(record.id).fqdn, f"www.renamed-{run}.example.", "record.fqdn after the rename")
        equal(len(list(dns.records.filter(fqdn=f"www.renamed-{run}.example."))), 1, "records.filter(fqdn=…)")
    finally:
        for item in reversed(created):
            try:
                item.delete()
            except RequestError:
                pass
    print("OK: pynetbox 7.0 drives the NetBox DNS plugin through nb.plugins.netbox_dns")


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
