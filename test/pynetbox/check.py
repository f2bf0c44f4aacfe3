#!/usr/bin/env python3
"""Drives a running service with pynetbox (7.0, as packaged by Debian) and checks that it works unchanged.

Usage: check.py [--strict] [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

BASE_URL is the server root (e.g. http://127.0.0.1:8000, without /api). TOKEN is what pynetbox sends after
`Token `: a v2 token `svc_<KEY>.<TOKEN>` (the part after `Bearer ` printed by `createsuperuser --token`) or
a v1 token. Every object the script creates carries a run-specific name, so it may run against a server
that has other data, and it deletes what it created. It exits 1 with a message at the first failure and
prints a short summary on success. Known defects of the service (not of its pynetbox compatibility) are
worked around and listed in the summary; --strict makes them failures.
"""

import os
import sys
import traceback
import uuid

try:
    import pynetbox
    from pynetbox.core.query import RequestError
    from pynetbox.core.response import Record, RecordSet
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"FAIL: pynetbox is not importable: {error}", file=sys.stderr)
    sys.exit(2)

# Enough objects for several pages. pynetbox's filter()/all() ask for limit=0, which the server answers with
# MAX_PAGE_SIZE rows (1000 by default): start the server with a small MAX_PAGE_SIZE (the vitest runner uses
# 25) to make them walk pages too; filter(limit=7) always does.
MANY = 120


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def equal(actual, expected, what):
    check(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")


def expect_request_error(status, what, call, *args, **kwargs):
    """Runs a call that must fail with a RequestError of this HTTP status; returns the error."""
    try:
        call(*args, **kwargs)
    except RequestError as error:
        equal(error.req.status_code, status, f"{what}: HTTP status")
        return error
    raise CheckFailed(f"{what}: expected a RequestError ({status}), the call succeeded")


class Checker:
    def __init__(self, url, token, strict=False):
        self.strict = strict
        self.bugs = []
        self.url = url
        self.token = token
        self.nb = pynetbox.api(url, token=token)
        # Every response pynetbox receives, to count the pages it fetched.
        self.responses = []
        self.nb.http_session.hooks["response"].append(lambda response, **_: self.responses.append(response))
        self.run = uuid.uuid4().hex[:8]
        # An address of this run (the global table rejects duplicates).
        self.address = f"10.{int(self.run[:2], 16)}.{int(self.run[2:4], 16)}.1/24"
        self.done = []

    def name(self, text):
        """A name unique to this run."""
        return f"pyn-{self.run}-{text}"

    def known_bug(self, text):
        """A known defect of the service (not of pynetbox compatibility): fatal with --strict."""
        if self.strict:
            raise CheckFailed(f"known service bug: {text}")
        print(f"  KNOWN SERVICE BUG (worked around): {text}", flush=True)
        self.bugs.append(text)

    def step(self, title, function):
        print(f"- {title}", flush=True)
        function()
        self.done.append(title)

    # -- the checks ------------------------------------------------------------------------------------

    def connection(self):
        equal(self.nb.version, "4.6", "nb.version (API-Version header of /api/)")
        status = self.nb.status()
        check(isinstance(status, dict), f"nb.status() returns a dict, got {status!r}")
        check("netbox-version" in status, f"nb.status() has netbox-version: {sorted(status)}")
        # A bad token is refused with 403, as NetBox does.
        bad = pynetbox.api(self.url, token="svc_nope.nope")
        expect_request_error(403, "a list with a bad token", lambda: list(bad.dcim.sites.all()))

    def tenant_crud(self):
        nb = self.nb
        group = nb.tenancy.tenant_groups.create(name=self.name("group"), slug=self.name("group"))
        check(isinstance(group, Record), "create() returns a Record")
        check(isinstance(group.id, int) and group.id > 0, f"created group has an id: {group.id!r}")
        equal(str(group), self.name("group"), "str() of a record is its name")
        tenant = nb.tenancy.tenants.create(
            name=self.name("tenant"), slug=self.name("tenant"), group=group.id, description="first"
        )
        equal(tenant.group.id, group.id, "tenant.group.id (nested record)")
        equal(tenant.group.name, group.name, "tenant.group.name")

        fetched = nb.tenancy.tenants.get(tenant.id)
        equal(fetched.name, self.name("tenant"), "get(id).name")
        equal(nb.tenancy.tenants.get(slug=self.name("tenant")).id, tenant.id, "get(slug=...) finds the tenant")
        equal(nb.tenancy.tenants.get(999999999), None, "get() of an unknown id")
        equal(nb.tenancy.tenants.get(slug=self.name("nothing")), None, "get() matching nothing")

        # save() sends only the changed attribute.
        fetched.description = "changed by save()"
        equal(fetched.updates(), {"description": "changed by save()"}, "record.updates()")
        check(fetched.save() is True, "record.save() returns True")
        equal(nb.tenancy.tenants.get(tenant.id).description, "changed by save()", "description after save()")
        check(nb.tenancy.tenants.get(tenant.id).save() is False, "save() of an unchanged record returns False")

        # update() sets and saves; a nested FK can be changed by id.
        other = nb.tenancy.tenant_groups.create(name=self.name("group-2"), slug=self.name("group-2"))
        check(fetched.update({"description": "via update()", "group": other.id}) is True, "record.update()")
        again = nb.tenancy.tenants.get(tenant.id)
        equal(again.description, "via update()", "description after update()")
        equal(again.group.id, other.id, "group after update()")

        # A duplicate (globally unique) slug is a 400 whose body names the field.
        error = expect_request_error(
            400,
            "creating a tenant group with a taken slug",
            nb.tenancy.tenant_groups.create,
            name=self.name("group-bis"),
            slug=self.name("group"),
        )
        check("slug" in error.error, f"the 400 body names the slug: {error.error}")

        check(again.delete() is True, "record.delete()")
        equal(nb.tenancy.tenants.get(tenant.id), None, "the deleted tenant")
        check(other.delete() is True, "deleting the second group")
        self.group = group

    def sites_and_devices(self):
        nb = self.nb
        region = nb.dcim.regions.create(name=self.name("region"), slug=self.name("region"))
        site = nb.dcim.sites.create(
            name=self.name("site"),
            slug=self.name("site"),
            region=region.id,
            status="planned",
            time_zone="Europe/Paris",
        )
        equal(site.status.value, "planned", "site.status.value")
        equal(site.status.label, "Planned", "site.status.label")
        equal(site.region.id, region.id, "site.region.id")

        # Changing a choice field through save() sends the raw value.
        site.status = "active"
        check(site.save() is True, "site.save() with a new status")
        site = nb.dcim.sites.get(site.id)
        equal(site.status.value, "active", "status after save()")
        # Saving a record whose nested values were not touched changes nothing.
        check(site.save() is False, "save() of an unchanged site (nested records and choices)")

        manufacturer = nb.dcim.manufacturers.create(name=self.name("mfr"), slug=self.name("mfr"))
        device_type = nb.dcim.device_types.create(
            manufacturer=manufacturer.id, model=self.name("model"), slug=self.name("model")
        )
        role = nb.dcim.device_roles.create(name=self.name("role"), slug=self.name("role"), color="ff0000")
        device = nb.dcim.devices.create(
            name=self.name("router"), device_type=device_type.id, role=role.id, site=site.id, serial="S1"
        )
        equal(device.site.id, site.id, "device.site.id")
        # A nested record fetches its full representation on demand (through its url).
        equal(device.site.time_zone, "Europe/Paris", "device.site.time_zone (full details of a nested record)")
        equal(device.device_type.manufacturer.id, manufacturer.id, "device.device_type.manufacturer.id")

        interfaces = nb.dcim.interfaces.create(
            [
                {"device": device.id, "name": "ge-0/0/0", "type": "1000base-t"},
                {"device": device.id, "name": "ge-0/0/1", "type": "1000base-t"},
                {"device": device.id, "name": "ae0", "type": "lag"},
            ]
        )
        check(isinstance(interfaces, list) and len(interfaces) == 3, f"bulk create returns 3 records: {interfaces!r}")
        by_name = {i.name: i for i in interfaces}
        member = by_name["ge-0/0/0"]
        member.lag = by_name["ae0"].id
        check(member.save() is True, "setting an interface's LAG with save()")
        equal(nb.dcim.interfaces.get(member.id).lag.id, by_name["ae0"].id, "interface.lag after save()")
        equal(
            sorted(i.name for i in nb.dcim.interfaces.filter(device_id=device.id)),
            ["ae0", "ge-0/0/0", "ge-0/0/1"],
            "interfaces.filter(device_id=...)",
        )
        equal(nb.dcim.interfaces.count(device_id=device.id), 3, "interfaces.count(device_id=...)")
        equal(nb.dcim.devices.get(device.id).interface_count, 3, "device.interface_count")

        # An address on an interface, made the device's primary IPv4.
        address = nb.ipam.ip_addresses.create(
            address=self.address,
            assigned_object_type="dcim.interface",
            assigned_object_id=by_name["ge-0/0/1"].id,
            dns_name=self.name("router").upper() + ".example.com",
        )
        equal(address.family.value, 4, "ip.family.value")
        equal(address.assigned_object.id, by_name["ge-0/0/1"].id, "ip.assigned_object.id")
        equal(address.assigned_object.device.id, device.id, "ip.assigned_object.device.id")
        device.primary_ip4 = address.id
        check(device.save() is True, "setting primary_ip4 with save()")
        device = nb.dcim.devices.get(device.id)
        equal(device.primary_ip4.address, self.address, "device.primary_ip4.address")
        equal(device.primary_ip.id, address.id, "device.primary_ip.id")
        equal([a.id for a in nb.ipam.ip_addresses.filter(device_id=device.id)], [address.id], "ips of the device")

        # dict() of a record: nested records become dicts.
        as_dict = dict(device)
        equal(as_dict["site"]["id"], site.id, "dict(device)['site']['id']")
        equal(as_dict["name"], self.name("router"), "dict(device)['name']")

        # A site that still has devices cannot be deleted (409), and nothing is deleted.
        expect_request_error(409, "deleting a site with devices", site.delete)
        check(nb.dcim.devices.get(device.id) is not None, "the device survives the refused delete")

        # Deleting the device deletes its interfaces (and their addresses).
        try:
            check(device.delete() is True, "device.delete()")
        except RequestError as error:
            if error.req.status_code != 409:
                raise
            # Service bug: a device whose primary IP sits on its own interface cannot be deleted.
            self.known_bug(
                "DELETE /api/dcim/devices/<id>/ of a device whose primary_ip4 is assigned to one of its own "
                f"interfaces answers 409 ({error.error}); NetBox answers 204"
            )
            device.primary_ip4 = None
            check(device.save() is True, "clearing primary_ip4 (work-around)")
            check(device.delete() is True, "device.delete() without a primary IP")
        equal(nb.ipam.ip_addresses.get(address.id), None, "the address of a deleted device's interface")
        for interface in interfaces:
            equal(nb.dcim.interfaces.get(interface.id), None, f"interface {interface.name} of the deleted device")
        for record in (role, device_type, manufacturer, site, region):
            check(record.delete() is True, f"deleting {record}")

    def filters(self):
        nb = self.nb
        region = nb.dcim.regions.create(name=self.name("f-region"), slug=self.name("f-region"))
        sites = nb.dcim.sites.create(
            [
                {"name": self.name("f-alpha"), "slug": self.name("f-alpha"), "status": "active", "region": region.id},
                {"name": self.name("f-beta"), "slug": self.name("f-beta"), "status": "planned", "region": region.id},
                {"name": self.name("f-gamma"), "slug": self.name("f-gamma"), "status": "retired"},
            ]
        )
        ids = {s.name.rsplit("-", 1)[1]: s.id for s in sites}

        def names(records):
            return sorted(r.name.rsplit("-", 1)[1] for r in records)

        check(isinstance(nb.dcim.sites.filter(region_id=region.id), RecordSet), "filter() returns a RecordSet")
        equal(names(nb.dcim.sites.filter(region_id=region.id)), ["alpha", "beta"], "filter(region_id=...)")
        equal(names(nb.dcim.sites.filter(region=region.slug)), ["alpha", "beta"], "filter(region=<slug>)")
        equal(names(nb.dcim.sites.filter(self.name("f-"))), ["alpha", "beta", "gamma"], "filter(<free text>)")
        equal(
            names(nb.dcim.sites.filter(self.name("f-"), status=["active", "retired"])),
            ["alpha", "gamma"],
            "filter(status=[a, b]) (repeated parameter)",
        )
        equal(names(nb.dcim.sites.filter(name__ic=self.name("f-b"))), ["beta"], "filter(name__ic=...)")
        equal(
            names(nb.dcim.sites.filter(id=[ids["alpha"], ids["gamma"]])), ["alpha", "gamma"], "filter(id=[...])"
        )
        equal(nb.dcim.sites.count(self.name("f-")), 3, "count(<free text>)")
        equal(nb.dcim.sites.count(region_id=region.id, status="planned"), 1, "count(filters)")
        equal(nb.dcim.sites.get(q=self.name("f-"), status="retired").id, ids["gamma"], "get(q=..., status=...)")
        try:
            nb.dcim.sites.get(region_id=region.id)
            raise CheckFailed("get() matching two sites must raise ValueError")
        except ValueError:
            pass
        # An unknown related slug is a 400, not an empty list.
        expect_request_error(400, "filter(region=<unknown>)", lambda: list(nb.dcim.sites.filter(region="nope-x")))
        nb.dcim.sites.delete([s.id for s in sites])
        region.delete()

    def pagination(self):
        nb = self.nb
        group = self.group
        created = nb.tenancy.tenants.create(
            [
                {"name": self.name(f"many-{i:03d}"), "slug": self.name(f"many-{i:03d}"), "group": group.id}
                for i in range(MANY)
            ]
        )
        equal(len(created), MANY, "bulk create of many tenants")
        expected = sorted(t.id for t in created)

        def ids(records):
            values = [r.id for r in records]
            equal(len(values), len(set(values)), "no record is listed twice")
            return sorted(values)

        def pages(call):
            """The records of a call and the number of list pages pynetbox fetched for them."""
            before = len(self.responses)
            records = list(call())
            return records, len(self.responses) - before

        equal(nb.tenancy.tenants.count(group_id=group.id), MANY, "count()")
        # filter() asks for limit=0, which the server caps at MAX_PAGE_SIZE, then follows `next`.
        records, fetched = pages(lambda: nb.tenancy.tenants.filter(group_id=group.id))
        equal(ids(records), expected, f"filter() over every page ({fetched} pages)")
        self.pages = fetched
        records, fetched = pages(lambda: nb.tenancy.tenants.filter(group_id=group.id, limit=7))
        equal(ids(records), expected, "filter(limit=7)")
        equal(fetched, -(-MANY // 7), "pages fetched by filter(limit=7)")
        every = ids(nb.tenancy.tenants.all())
        check(set(expected) <= set(every), "all() returns every tenant")
        equal(ids(nb.tenancy.tenants.all(limit=9)), every, "all(limit=9), 9 per page")
        page = list(nb.tenancy.tenants.filter(group_id=group.id, limit=10, offset=20))
        equal([t.id for t in page], expected[20:30], "filter(limit=10, offset=20): one page")
        records = nb.tenancy.tenants.filter(group_id=group.id)
        equal(len(records), MANY, "len() of a record set")
        threaded = pynetbox.api(self.url, token=self.token, threading=True)
        equal(ids(threaded.tenancy.tenants.filter(group_id=group.id)), expected, "filter() with threading=True")
        self.many = created

    def choices(self):
        nb = self.nb
        sites = nb.dcim.sites.choices()
        check("status" in sites, f"sites.choices() has status: {sorted(sites)}")
        values = [c["value"] for c in sites["status"]]
        equal(values, ["planned", "staging", "active", "decommissioning", "retired"], "site status values")
        labels = {c["value"]: c["display_name"] for c in sites["status"]}
        equal(labels["active"], "Active", "display_name of active")
        interfaces = nb.dcim.interfaces.choices()
        type_values = [c["value"] for c in interfaces["type"]]
        for value in ("1000base-t", "10gbase-x-sfpp", "lag", "virtual"):
            check(value in type_values, f"interface type choices contain {value}")
        check("mode" in interfaces, "interfaces.choices() has mode")
        addresses = nb.ipam.ip_addresses.choices()
        equal(
            [c["value"] for c in addresses["status"]],
            ["active", "reserved", "deprecated", "dhcp", "slaac"],
            "ip address status values",
        )
        check("role" in addresses, "ip_addresses.choices() has role")
        check("status" in nb.ipam.prefixes.choices(), "prefixes.choices() has status")

    def bulk(self):
        nb = self.nb
        created = self.many
        first, second = created[0], created[1]
        # Endpoint.update() with dicts.
        updated = nb.tenancy.tenants.update(
            [{"id": first.id, "description": "bulk 1"}, {"id": second.id, "description": "bulk 2"}]
        )
        check(isinstance(updated, list) and len(updated) == 2, f"update([dicts]) returns 2 records: {updated!r}")
        equal(nb.tenancy.tenants.get(first.id).description, "bulk 1", "description after update([dicts])")
        # Endpoint.update() with changed records (only their changes are sent).
        records = [nb.tenancy.tenants.get(first.id), nb.tenancy.tenants.get(second.id)]
        for record in records:
            record.description = f"record {record.id}"
        updated = nb.tenancy.tenants.update(records)
        equal(sorted(r.description for r in updated), sorted(f"record {r.id}" for r in records), "update([records])")
        # Sites too.
        sites = nb.dcim.sites.create(
            [{"name": self.name(f"bulk-{i}"), "slug": self.name(f"bulk-{i}")} for i in range(3)]
        )
        updated = nb.dcim.sites.update([{"id": s.id, "status": "planned"} for s in sites])
        equal([s.status.value for s in updated], ["planned"] * 3, "sites.update([...]) statuses")
        # RecordSet.update() and RecordSet.delete().
        result = nb.dcim.sites.filter(self.name("bulk-")).update(status="staging", description="record set")
        check(result, f"RecordSet.update() succeeds: {result!r}")
        equal(
            sorted(s.status.value for s in nb.dcim.sites.filter(self.name("bulk-"))),
            ["staging"] * 3,
            "statuses after RecordSet.update()",
        )
        equal(nb.dcim.sites.count(self.name("bulk-"), description="record set"), 3, "RecordSet.update() description")
        check(nb.dcim.sites.filter(self.name("bulk-")).delete() is True, "RecordSet.delete()")
        equal(nb.dcim.sites.count(self.name("bulk-")), 0, "sites left after RecordSet.delete()")
        # Endpoint.delete() with ids, with records, and with a record set.
        ids = [t.id for t in created]
        check(nb.tenancy.tenants.delete(ids[:40]) is True, "delete([ids])")
        check(nb.tenancy.tenants.delete(created[40:80]) is True, "delete([records])")
        check(nb.tenancy.tenants.delete(nb.tenancy.tenants.filter(group_id=self.group.id)) is True, "delete(RecordSet)")
        equal(nb.tenancy.tenants.count(group_id=self.group.id), 0, "tenants left after the bulk deletes")
        check(self.group.delete() is True, "deleting the tenant group")

    def run_all(self):
        self.step("connection, version and status", self.connection)
        self.step("tenants: create, get, save, update, delete", self.tenant_crud)
        self.step("sites, devices, interfaces, addresses", self.sites_and_devices)
        self.step("filters and counts", self.filters)
        self.step(f"pagination over {MANY} objects", self.pagination)
        self.done[-1] += f" (filter() fetched {self.pages} pages)"
        self.step("choices (OPTIONS)", self.choices)
        self.step("bulk update and delete", self.bulk)


def main(argv):
    strict = "--strict" in argv
    args = [a for a in argv[1:] if a != "--strict"]
    url = args[0] if len(args) > 0 else os.environ.get("NETBOX_URL")
    token = args[1] if len(args) > 1 else os.environ.get("NETBOX_TOKEN")
    if not url or not token:
        print(__doc__, file=sys.stderr)
        return 2
    if token.lower().startswith(("bearer ", "token ")):
        token = token.split(None, 1)[1]
    checker = Checker(url.rstrip("/"), token, strict)
    print(f"pynetbox {pynetbox.__version__} against {url} (run {checker.run})")
    try:
        checker.run_all()
    except CheckFailed as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1
    except RequestError as error:
        print(f"FAIL: unexpected HTTP error: {error}", file=sys.stderr)
        print(f"  request: {error.req.request.method} {error.req.request.url}", file=sys.stderr)
        print(f"  request body: {error.request_body!r}", file=sys.stderr)
        return 1
    except Exception:  # noqa: BLE001 - any other error is a failure of the check
        print("FAIL: unexpected exception:", file=sys.stderr)
        traceback.print_exc()
        return 1
    print(f"OK: {len(checker.done)} checks passed with pynetbox {pynetbox.__version__}:")
    for title in checker.done:
        print(f"  ✓ {title}")
    if checker.bugs:
        print(f"{len(checker.bugs)} known service bug(s) worked around (run with --strict to fail on them):")
        for text in checker.bugs:
            print(f"  ! {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
