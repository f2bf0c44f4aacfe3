#!/usr/bin/env python3
"""Cables and paths with pynetbox (7.0, as Debian packages it), unchanged.

Usage: cables.py [BASE_URL [TOKEN]]   (or the environment: NETBOX_URL, NETBOX_TOKEN)

Two sites with a rack each; in each rack two switches and a patch panel, all made from device types whose
templates give them their interfaces and their front and rear ports (four front ports on the positions of one
rear port). Each switch patches two interfaces into its rack's panel, a trunk joins the two panels' rear ports,
and a circuit between the sites joins the first switches' uplinks. The script reads `interface.trace()` (the
hops through both panels, and across the circuit), `connected_endpoints`, the `connected` filter, the trunk's
`paths/`, and asks `dcim/connected-device/` which device is at the far end of an interface, as LLDP-driven
checks do. It deletes everything it made and exits 1 at the first failure.
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

    def make(endpoint, **values):
        record = endpoint.create(**values)
        created.append(record)
        return record

    try:
        sites = [make(nb.dcim.sites, name=f"{side}-{run}", slug=f"{side}-{run}") for side in ("east", "west")]
        racks = [make(nb.dcim.racks, name=f"R1-{run}", site=site.id) for site in sites]
        maker = make(nb.dcim.manufacturers, name=f"cables-{run}", slug=f"cables-{run}")
        role = make(nb.dcim.device_roles, name=f"cables-{run}", slug=f"cables-{run}")

        switch_type = make(nb.dcim.device_types, manufacturer=maker.id, model=f"sw-{run}", slug=f"sw-{run}")
        nb.dcim.interface_templates.create(
            [{"device_type": switch_type.id, "name": f"eth{i}", "type": "1000base-t"} for i in (1, 2)]
            + [{"device_type": switch_type.id, "name": "xe-0", "type": "10gbase-x-sfpp"}]
        )
        panel_type = make(nb.dcim.device_types, manufacturer=maker.id, model=f"pp-{run}", slug=f"pp-{run}")
        trunk_template = nb.dcim.rear_port_templates.create(
            device_type=panel_type.id, name="trunk", type="lc", positions=4
        )
        nb.dcim.front_port_templates.create(
            [
                {
                    "device_type": panel_type.id,
                    "name": f"p{i}",
                    "type": "lc",
                    "rear_ports": [{"position": 1, "rear_port": trunk_template.id, "rear_port_position": i}],
                }
                for i in (1, 2, 3, 4)
            ]
        )

        racks_of_devices = []
        for side, site, rack in zip(("east", "west"), sites, racks):
            switches = [
                make(
                    nb.dcim.devices,
                    name=f"{side}-sw{i}-{run}",
                    device_type=switch_type.id,
                    role=role.id,
                    site=site.id,
                    rack=rack.id,
                    position=i,
                    face="front",
                )
                for i in (1, 2)
            ]
            panel = make(
                nb.dcim.devices,
                name=f"{side}-pp-{run}",
                device_type=panel_type.id,
                role=role.id,
                site=site.id,
                rack=rack.id,
                position=10,
                face="front",
            )
            racks_of_devices.append((switches, panel))
        equal(nb.dcim.interfaces.count(device_id=racks_of_devices[0][0][0].id), 3, "a switch's interfaces from templates")
        equal(nb.dcim.front_ports.count(device_id=racks_of_devices[0][1].id), 4, "a panel's front ports from templates")

        def interface(device, name):
            return nb.dcim.interfaces.get(device_id=device.id, name=name)

        def port(endpoint, device, name):
            return endpoint.get(device_id=device.id, name=name)

        def cable(a, a_type, b, b_type, **values):
            return make(
                nb.dcim.cables,
                a_terminations=[{"object_type": a_type, "object_id": a.id}],
                b_terminations=[{"object_type": b_type, "object_id": b.id}],
                **values,
            )

        # Each switch's eth1 and eth2 into its panel: switch 1 on p1/p2, switch 2 on p3/p4.
        for switches, panel in racks_of_devices:
            for s, switch in enumerate(switches):
                for i in (1, 2):
                    front = port(nb.dcim.front_ports, panel, f"p{2 * s + i}")
                    cable(interface(switch, f"eth{i}"), "dcim.interface", front, "dcim.frontport", type="cat6")
        east_trunk = port(nb.dcim.rear_ports, racks_of_devices[0][1], "trunk")
        west_trunk = port(nb.dcim.rear_ports, racks_of_devices[1][1], "trunk")
        trunk = cable(east_trunk, "dcim.rearport", west_trunk, "dcim.rearport", type="smf", label=f"trunk-{run}")

        east_sw1, west_sw1 = racks_of_devices[0][0][0], racks_of_devices[1][0][0]
        near = interface(east_sw1, "eth2")
        hops = near.trace()
        equal(len(hops), 9, "eth2's trace: three hops of (near ends, cable, far ends)")
        equal([t.name for t in hops[0]], ["eth2"], "trace: the origin")
        equal([t.name for t in hops[2]], ["p2"], "trace: the east panel's front port")
        equal([t.name for t in hops[3]], ["trunk"], "trace: the east panel's rear port")
        equal(hops[4].id, trunk.id, "trace: the trunk cable")
        equal(hops[4].label, f"trunk-{run}", "trace: the trunk's label")
        equal([(t.name, t.device.name) for t in hops[8]], [("eth2", west_sw1.name)], "trace: the far end")
        equal(type(hops[8][0]).__name__, "Interfaces", "pynetbox makes the far end an interface record")

        near = nb.dcim.interfaces.get(near.id)
        equal(near.connected_endpoints_reachable, True, "connected_endpoints_reachable")
        equal(near.connected_endpoints_type, "dcim.interface", "connected_endpoints_type")
        equal([e.device.name for e in near.connected_endpoints], [west_sw1.name], "connected_endpoints")
        equal(near.link_peers[0].name, "p2", "link_peers")
        west_sw2 = racks_of_devices[1][0][1]
        equal(interface(west_sw2, "eth1").connected_endpoints[0].device.name, racks_of_devices[0][0][1].name, "sw2")

        located = nb.dcim.connected_device.get(peer_device=west_sw1.name, peer_interface="eth2")
        equal(located.name, east_sw1.name, "dcim/connected-device/ names the device at the far end")
        try:
            nb.dcim.connected_device.get(peer_device=west_sw1.name, peer_interface="nonesuch")
            raise CheckFailed("connected-device answered for an interface that does not exist")
        except RequestError as error:
            equal(error.req.status_code, 404, "connected-device for a missing interface")
        try:
            nb.dcim.connected_device.get(peer_device=west_sw1.name)
            raise CheckFailed("connected-device answered without peer_interface")
        except RequestError as error:
            equal(error.req.status_code, 400, "connected-device without peer_interface")

        # The circuit between the sites joins the first switches' uplinks.
        provider = make(nb.circuits.providers, name=f"carrier-{run}", slug=f"carrier-{run}")
        circuit_type = make(nb.circuits.circuit_types, name=f"wave-{run}", slug=f"wave-{run}")
        circuit = make(nb.circuits.circuits, cid=f"WAVE-{run}", provider=provider.id, type=circuit_type.id)
        ends = [
            make(
                nb.circuits.circuit_terminations,
                circuit=circuit.id,
                term_side=side,
                termination_type="dcim.site",
                termination_id=site.id,
            )
            for side, site in zip("AZ", sites)
        ]
        cable(interface(east_sw1, "xe-0"), "dcim.interface", ends[0], "circuits.circuittermination")
        cable(ends[1], "circuits.circuittermination", interface(west_sw1, "xe-0"), "dcim.interface")
        uplink = interface(east_sw1, "xe-0")
        hops = uplink.trace()
        equal(len(hops), 6, "the uplink's trace: two hops")
        equal([t.id for t in hops[2]] + [t.id for t in hops[3]], [ends[0].id, ends[1].id], "trace: across the circuit")
        equal(uplink.connected_endpoints[0].device.name, west_sw1.name, "the uplink's far end")
        located = nb.dcim.connected_device.get(peer_device=west_sw1.name, peer_interface="xe-0")
        equal(located.name, east_sw1.name, "connected-device across the circuit")

        equal(nb.dcim.interfaces.count(device_id=east_sw1.id, connected=True), 3, "interfaces.count(connected=True)")
        equal(nb.dcim.interfaces.count(device_id=east_sw1.id, cabled=True), 3, "interfaces.count(cabled=True)")
        response = nb.http_session.get(
            f"{nb.base_url}/dcim/rear-ports/{east_trunk.id}/paths/", headers={"Authorization": f"Token {token}"}
        )
        equal(response.status_code, 200, "the trunk's paths/")
        equal(len(response.json()), 8, "the trunk carries eight paths (four positions, both ways)")
        equal(all(p["is_complete"] and p["is_active"] for p in response.json()), True, "the trunk's paths are up")

        trunk.status = "planned"
        equal(trunk.save(), True, "trunk.save()")
        equal(nb.dcim.interfaces.get(near.id).connected_endpoints_reachable, False, "a planned trunk: not reachable")
        equal(nb.dcim.interfaces.count(device_id=east_sw1.id, connected=True), 1, "only the uplink stays connected")
    finally:
        cables = [r for r in created if "/dcim/cables/" in r.url]
        others = [r for r in reversed(created) if "/dcim/cables/" not in r.url]
        for record in cables + others:
            try:
                record.delete()
            except RequestError:
                pass
    print("OK: pynetbox 7.0 traces cables through patch panels and a circuit")


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        sys.exit(1)
