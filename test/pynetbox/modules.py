#!/usr/bin/env python3
"""Installs a module and builds an inventory tree with pynetbox (7.0, as Debian packages it).

Usage: modules.py [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

1. A module type with console port and module bay templates named with `{module}` is installed, as a module,
   in a module bay at position 3 of a device: the device gets the module's console ports and nested module bay
   named with the bay's position, belonging to the module; a module installed in that nested bay takes the
   positions of both bays (`{module}/{module}`).
2. A device type with module bay, device bay and inventory item templates gives a new device those components
   (the inventory items as a tree); inventory items made by hand nest below them, and the counts follow.

It exits 1 at the first failure and prints one summary line per check on success.
"""

import os
import sys
import uuid

try:
    import pynetbox
except ImportError as error:  # pragma: no cover - reported to the caller
    print(f"FAIL: pynetbox is not importable: {error}", file=sys.stderr)
    sys.exit(2)


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def names(records):
    return sorted(record.name for record in records)


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NETBOX_URL", "http://127.0.0.1:8000")
    token = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("NETBOX_TOKEN", "")
    nb = pynetbox.api(url, token=token)
    run = uuid.uuid4().hex[:8]
    try:
        manufacturer = nb.dcim.manufacturers.create(name=f"Maker {run}", slug=f"maker-{run}")
        site = nb.dcim.sites.create(name=f"Site {run}", slug=f"site-{run}")
        role = nb.dcim.device_roles.create(name=f"Role {run}", slug=f"role-{run}")
        chassis = nb.dcim.device_types.create(
            manufacturer=manufacturer.id, model=f"Chassis {run}", slug=f"chassis-{run}", subdevice_role="parent"
        )
        nb.dcim.module_bay_templates.create(device_type=chassis.id, name="Slot 3", position="3")
        nb.dcim.device_bay_templates.create(device_type=chassis.id, name="Blade 1")
        top = nb.dcim.inventory_item_templates.create(device_type=chassis.id, name="Chassis")
        nb.dcim.inventory_item_templates.create(device_type=chassis.id, name="Fan tray", parent=top.id)

        device = nb.dcim.devices.create(name=f"switch-{run}", device_type=chassis.id, role=role.id, site=site.id)
        device = nb.dcim.devices.get(device.id)
        check(device.module_bay_count == 1 and device.device_bay_count == 1, f"bays: {dict(device)}")
        check(device.inventory_item_count == 2, f"inventory_item_count: {device.inventory_item_count}")
        print("OK: a device gets the module bays, device bays and inventory items of its type's templates")

        linecard = nb.dcim.module_types.create(manufacturer=manufacturer.id, model=f"Line card {run}")
        nb.dcim.console_port_templates.create(
            [
                {"module_type": linecard.id, "name": "con{module}/0"},
                {"module_type": linecard.id, "name": "con{module}/1"},
            ]
        )
        nb.dcim.module_bay_templates.create(module_type=linecard.id, name="Sub {module}", position="{module}")
        bay = nb.dcim.module_bays.get(device_id=device.id, name="Slot 3")
        module = nb.dcim.modules.create(device=device.id, module_bay=bay.id, module_type=linecard.id, serial="LC1")
        ports = list(nb.dcim.console_ports.filter(device_id=device.id))
        check(names(ports) == ["con3/0", "con3/1"], f"console ports: {names(ports)}")
        check(all(port.module.id == module.id for port in ports), "the console ports belong to the module")
        nested = nb.dcim.module_bays.get(device_id=device.id, name="Sub 3")
        check(nested is not None and nested.module.id == module.id, "the module's own bay")
        check(nb.dcim.module_bays.get(bay.id).installed_module.id == module.id, "installed_module")
        print("OK: installing a module in the bay at position 3 gives the device con3/0, con3/1 and Sub 3")

        optic = nb.dcim.module_types.create(manufacturer=manufacturer.id, model=f"Optic {run}")
        nb.dcim.console_port_templates.create(module_type=optic.id, name="con{module}/{module}")
        nb.dcim.modules.create(device=device.id, module_bay=nested.id, module_type=optic.id)
        check(
            nb.dcim.console_ports.get(device_id=device.id, name="con3/3") is not None,
            f"nested: {names(nb.dcim.console_ports.filter(device_id=device.id))}",
        )
        print("OK: a module in the nested bay names its console port with both positions (con3/3)")

        chassis_item = nb.dcim.inventory_items.get(device_id=device.id, name="Chassis")
        card = nb.dcim.inventory_items.create(device=device.id, name="Line card", parent=chassis_item.id, serial="LC1")
        nb.dcim.inventory_items.create(device=device.id, name="Optic", parent=card.id)
        items = {item.name: item for item in nb.dcim.inventory_items.filter(device_id=device.id)}
        depths = {name: item._depth for name, item in items.items()}
        check(
            depths == {"Chassis": 0, "Fan tray": 1, "Line card": 1, "Optic": 2},
            f"inventory tree: {depths}",
        )
        check(items["Optic"].parent.id == card.id, "Optic's parent")
        check(len(list(nb.dcim.inventory_items.filter(parent_id=chassis_item.id))) == 2, "children of Chassis")
        check(nb.dcim.devices.get(device.id).inventory_item_count == 4, "inventory_item_count")
        print("OK: inventory items form a tree (Chassis > Fan tray, Line card > Optic)")

        module.delete()
        left = names(nb.dcim.console_ports.filter(device_id=device.id))
        check(left == [], f"removing the module removes its components: {left}")
        device.delete()
        print("OK: removing the module removes its components; the device goes with its bays and items")
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
