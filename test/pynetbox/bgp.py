#!/usr/bin/env python3
"""Drives the BGP plugin of a running service with pynetbox (7.0, as Debian packages it), unchanged.

Usage: bgp.py [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

pynetbox reaches a plugin's endpoints as `nb.plugins.<base_url>.<endpoint>`, exactly as it does against
NetBox with the netbox-bgp plugin installed: the script creates a session between a device and a remote
address, filters, updates and deletes it, and reads the plugin list and the status. Everything it creates
carries a run-specific name and is deleted at the end. It exits 1 at the first failure.
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


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NETBOX_URL", "http://127.0.0.1:8000")
    token = sys.argv[2] if len(sys.argv) > 2 else os.environ["NETBOX_TOKEN"]
    nb = pynetbox.api(url, token=token)
    run = uuid.uuid4().hex[:8]
    created = []

    try:
        equal("bgp" in [p["package"] for p in nb.plugins.installed_plugins()], True, "installed_plugins()")
        equal(nb.status()["plugins"].get("bgp"), "0.17.0", "status() plugins")

        site = nb.dcim.sites.create(name=f"bgp-{run}", slug=f"bgp-{run}")
        manufacturer = nb.dcim.manufacturers.create(name=f"bgp-{run}", slug=f"bgp-{run}")
        device_type = nb.dcim.device_types.create(manufacturer=manufacturer.id, model=f"r-{run}", slug=f"r-{run}")
        role = nb.dcim.device_roles.create(name=f"bgp-{run}", slug=f"bgp-{run}")
        device = nb.dcim.devices.create(name=f"edge-{run}", device_type=device_type.id, role=role.id, site=site.id)
        rir = nb.ipam.rirs.create(name=f"bgp-{run}", slug=f"bgp-{run}")
        local_as = nb.ipam.asns.create(asn=4200000000 + int(run[:6], 16) % 1000000, rir=rir.id)
        remote_as = nb.ipam.asns.create(asn=4201000000 + int(run[:6], 16) % 1000000, rir=rir.id)
        local = nb.ipam.ip_addresses.create(address="198.51.100.1/31", description=run)
        remote = nb.ipam.ip_addresses.create(address="198.51.100.0/31", description=run)
        created += [site, manufacturer, device_type, role, device, rir, local_as, remote_as, local, remote]

        policy = nb.plugins.bgp.routing_policy.create(name=f"export-{run}", description="to transit")
        group = nb.plugins.bgp.peer_group.create(name=f"transit-{run}", export_policies=[policy.id])
        created += [policy, group]
        session = nb.plugins.bgp.session.create(
            name=f"transit-{run}",
            device=device.id,
            local_address=local.id,
            remote_address=remote.id,
            local_as=local_as.id,
            remote_as=remote_as.id,
            peer_group=group.id,
            status="planned",
        )
        equal(session.url, f"{url}/api/plugins/bgp/session/{session.id}/", "session.url")
        equal(session.device.name, f"edge-{run}", "session.device.name")
        equal(str(session.remote_address), "198.51.100.0/31", "str(session.remote_address)")
        equal(session.status.value, "planned", "session.status.value")

        found = list(nb.plugins.bgp.session.filter(device=f"edge-{run}", status="planned"))
        equal([s.id for s in found], [session.id], "session.filter(device=…, status=…)")
        equal(nb.plugins.bgp.session.count(remote_as_id=remote_as.id), 1, "session.count(remote_as_id=…)")
        equal(nb.plugins.bgp.session.get(name=f"transit-{run}").peer_group.id, group.id, "session.get(name=…)")

        session.description = "changed"
        session.status = "active"
        equal(session.save(), True, "session.save()")
        again = nb.plugins.bgp.session.get(session.id)
        equal((again.description, again.status.value), ("changed", "active"), "after save()")
        equal(nb.dcim.devices.get(device.id).bgp_session_count, 1, "device.bgp_session_count")

        try:
            nb.plugins.bgp.community.create(value="not a community")
            raise CheckFailed("community.create(value='not a community') succeeded")
        except RequestError as error:
            equal(error.req.status_code, 400, "an invalid community: status")
        community = nb.plugins.bgp.community.create(value=f"65000:{int(run[:4], 16)}")
        created.append(community)

        equal(session.delete(), True, "session.delete()")
        equal(nb.plugins.bgp.session.get(session.id), None, "session.get() after delete()")
    finally:
        for record in reversed(created):
            try:
                record.delete()
            except RequestError:
                pass
    print("OK: pynetbox 7.0 creates, filters, updates and deletes BGP sessions through nb.plugins.bgp")


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
