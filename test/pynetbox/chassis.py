#!/usr/bin/env python3
"""Builds a virtual chassis of two members with pynetbox (7.0, as Debian packages it), unchanged.

Usage: chassis.py [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

Two switches, each with interfaces (one of them management-only), become a stack: the chassis is created with
the first as master (NetBox makes the master member 1), the second joins as member 2. The script checks the
chassis's members and count, the device filters, the master's interface list (its own and the member's
interfaces that are not management-only, as NetBox lists them), that the master cannot leave its chassis, and
deletes everything it made. It exits 1 at the first failure.
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
        site = nb.dcim.sites.create(name=f"vc-{run}", slug=f"vc-{run}")
        manufacturer = nb.dcim.manufacturers.create(name=f"vc-{run}", slug=f"vc-{run}")
        device_type = nb.dcim.device_types.create(manufacturer=manufacturer.id, model=f"sw-{run}", slug=f"sw-{run}")
        role = nb.dcim.device_roles.create(name=f"vc-{run}", slug=f"vc-{run}")
        created += [site, manufacturer, device_type, role]
        switches = [
            nb.dcim.devices.create(name=f"sw{i}-{run}", device_type=device_type.id, role=role.id, site=site.id)
            for i in (1, 2)
        ]
        created += switches
        nb.dcim.interfaces.create(
            [
                {"device": switches[0].id, "name": "1/1", "type": "1000base-t"},
                {"device": switches[0].id, "name": "1/2", "type": "1000base-t"},
                {"device": switches[1].id, "name": "2/1", "type": "1000base-t"},
                {"device": switches[1].id, "name": "mgmt", "type": "1000base-t", "mgmt_only": True},
            ]
        )

        stack = nb.dcim.virtual_chassis.create(name=f"stack-{run}", domain="stack", master=switches[0].id)
        created.append(stack)
        master = nb.dcim.devices.get(switches[0].id)
        equal((master.virtual_chassis.id, master.vc_position), (stack.id, 1), "the master is member 1")

        member = nb.dcim.devices.get(switches[1].id)
        member.virtual_chassis = stack.id
        member.vc_position = 2
        member.vc_priority = 100
        equal(member.save(), True, "member.save()")

        stack = nb.dcim.virtual_chassis.get(stack.id)
        equal(stack.member_count, 2, "stack.member_count")
        equal(sorted(m.name for m in stack.members), [f"sw1-{run}", f"sw2-{run}"], "stack.members")
        equal(stack.master.name, f"sw1-{run}", "stack.master.name")
        equal(nb.dcim.devices.count(virtual_chassis_id=stack.id), 2, "devices.count(virtual_chassis_id=…)")
        equal(nb.dcim.devices.get(member.id).virtual_chassis.master.id, master.id, "a member's chassis names its master")

        listed = sorted(i.name for i in nb.dcim.interfaces.filter(virtual_chassis_member_or_master_id=master.id))
        equal(listed, ["1/1", "1/2", "2/1"], "the master's interfaces (with the member's, not management-only)")
        listed = sorted(i.name for i in nb.dcim.interfaces.filter(virtual_chassis_member_or_master_id=member.id))
        equal(listed, ["2/1", "mgmt"], "a member's own interfaces only")
        equal(nb.dcim.interfaces.count(virtual_chassis_id=stack.id), 4, "interfaces.count(virtual_chassis_id=…)")

        try:
            master.virtual_chassis = None
            master.vc_position = None
            master.save()
            raise CheckFailed("the master left its chassis")
        except RequestError as error:
            equal(error.req.status_code, 400, "the master leaving its chassis: status")
            equal("virtual_chassis" in error.error, True, "the master leaving its chassis: the field at fault")

        try:
            nb.dcim.devices.create(
                name=f"sw3-{run}", device_type=device_type.id, role=role.id, site=site.id, virtual_chassis=stack.id
            )
            raise CheckFailed("a member without a position was created")
        except RequestError as error:
            equal(error.req.status_code, 400, "a member without a position: status")

        equal(stack.delete(), True, "stack.delete()")
        created.remove(stack)
        equal(nb.dcim.devices.get(member.id).virtual_chassis, None, "a member after its chassis is deleted")
    finally:
        for record in reversed(created):
            try:
                record.delete()
            except RequestError:
                pass
    print("OK: pynetbox 7.0 builds a virtual chassis of two members")


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
