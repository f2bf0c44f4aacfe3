import { describe, expect, it } from 'vitest';
import { domainFunctions } from '../../../runtime/domain/index.js';
import { presentDevice } from '../../../runtime/domain/dcim.js';
import { computeDisplay } from '../../../runtime/rest/display.js';
import { createDomainFunctions } from '../../../runtime/domain/index.js';
import { registry } from '../../../generated/index.js';
import {
  displayGroupAssignment,
  displayTermination,
  displayVirtualTermination,
} from '../../../runtime/domain/circuits.js';
import { displayAsn } from '../../../runtime/domain/ipam.js';
import { displayToken, displayUser, presentToken } from '../../../runtime/domain/users.js';
import { vlanText } from '../../../runtime/domain/interfaces.js';

/** Display texts (NetBox's `str(obj)` per model) and present hooks, from hand-written values. */

const display = (name: keyof typeof domainFunctions) => {
  const entry = domainFunctions[name];
  if (entry.kind !== 'display') throw new Error(`${name} is not a display function`);
  return entry.fn;
};

describe("the device's display templates (NetBox Device.__str__ without virtual chassis)", () => {
  const displayDevice = (values: Record<string, unknown>): string =>
    computeDisplay(createDomainFunctions(), registry.models['dcim.device']!.display, (name) => values[name]);
  const type = { 'device_type.manufacturer.name': 'Acme', 'device_type.model': 'X100', id: 7 };
  it.each([
    ['the name', { ...type, name: 'core1', asset_tag: null }, 'core1'],
    ['the name and the asset tag', { ...type, name: 'core1', asset_tag: 'A-1' }, 'core1 (A-1)'],
    ['manufacturer, model and id without a name', { ...type, name: null, asset_tag: null }, 'Acme X100 (7)'],
    ['manufacturer, model and asset tag', { ...type, name: '', asset_tag: 'A-1' }, 'Acme X100 (A-1)'],
    [
      'manufacturer and model while the id is unknown',
      { ...type, id: undefined, name: null, asset_tag: null },
      'Acme X100',
    ],
  ])('shows %s', (_name, values, text) => {
    expect(displayDevice(values)).toBe(text);
  });
});

describe('other displays', () => {
  it('circuit terminations: "<cid>: Termination <side>"', () => {
    expect(displayTermination({ 'circuit.cid': 'CID-1', term_side: 'Z' })).toBe('CID-1: Termination Z');
  });

  it('circuit group assignments: the group, and the priority label when there is one', () => {
    expect(displayGroupAssignment({ 'group.name': 'Backbone', priority: 'secondary' })).toBe('Backbone (Secondary)');
    expect(displayGroupAssignment({ 'group.name': 'Backbone', priority: null })).toBe('Backbone');
  });

  it('virtual circuit terminations: "<cid>: <Role> termination"', () => {
    expect(displayVirtualTermination({ 'virtual_circuit.cid': 'VC-1', role: 'hub' })).toBe('VC-1: Hub termination');
  });

  it('ASNs: AS and the number', () => {
    expect(displayAsn({ asn: 65000 })).toBe('AS65000');
    expect(displayAsn({ asn: 65535 })).toBe('AS65535');
  });

  // NetBox's ASN.__str__ is f'AS{self.asn_with_asdot}': 32-bit ASNs add their ASDOT form.
  it.fails('32-bit ASNs add their ASDOT form, AS65536 (1.0) (bug: AS65536)', () => {
    expect(displayAsn({ asn: 65536 })).toBe('AS65536 (1.0)');
    expect(displayAsn({ asn: 4200000000 })).toBe('AS4200000000 (64086.59904)');
  });

  it.each([
    [{ username: 'jane' }, 'jane'],
    [{ username: 'jane', first_name: 'Jane', last_name: 'Doe' }, 'jane (Jane Doe)'],
    [{ username: 'jane', first_name: 'Jane', last_name: '' }, 'jane (Jane)'],
    [{ username: 'jane', first_name: '  ', last_name: 'Doe' }, 'jane (Doe)'],
  ])('users: %j → %s', (values, text) => {
    expect(displayUser(values)).toBe(text);
  });

  it('tokens: the key of a v2 token, a masked v1 secret with its last six characters', () => {
    expect(displayToken({ version: 2, key: 'abcDEF123456', plaintext: null })).toBe('abcDEF123456');
    const secret = `${'x'.repeat(34)}123456`;
    expect(displayToken({ version: 1, key: null, plaintext: secret })).toBe(`${'*'.repeat(34)}123456`);
    expect(displayToken({ version: '1', key: null, plaintext: secret })).toHaveLength(40);
  });

  it('custom fields: the label, else the name with spaces and a capital', () => {
    const show = display('extras.displayCustomField');
    expect(show({ label: 'Asset owner', name: 'owner' })).toBe('Asset owner');
    expect(show({ label: '', name: 'asset_owner' })).toBe('Asset owner');
  });

  // NetBox: self.label or self.name.replace('_', ' ').capitalize(); Python's capitalize() lowers the rest,
  // and custom field names may hold capitals (the name pattern ignores case).
  it.fails('custom fields: capitalise as Python does, lowering the rest (bug: the rest keeps its case)', () => {
    expect(display('extras.displayCustomField')({ label: '', name: 'Asset_TAG' })).toBe('Asset tag');
  });

  it('image attachments: the name, else the file name without its stored prefix', () => {
    const show = display('extras.displayImageAttachment');
    expect(show({ name: 'Front', image: 'image-attachments/site_1_front.png' })).toBe('Front');
    expect(show({ name: '', image: 'image-attachments/site_12_rack_2_view.png' })).toBe('rack_2_view.png');
    expect(show({ name: null, image: 'image-attachments/plain.png' })).toBe('plain.png');
  });

  it.each([
    ['create', 'admin', 'dcim | site Site A created by admin'],
    ['update', 'admin', 'dcim | site Site A updated by admin'],
    ['delete', 'jane', 'dcim | site Site A deleted by jane'],
  ])('object changes: %s → "%s"', (action, user, text) => {
    const show = display('core.displayObjectChange');
    expect(show({ object_type_name: 'dcim | site', object_repr: 'Site A', action, user_name: user })).toBe(text);
  });

  it('VLANs as NetBox prints them in messages', () => {
    expect(vlanText({ name: 'users', vid: 10 })).toBe('users (10)');
  });
});

describe('present hooks', () => {
  it.each([
    ['the IPv6 address when there is one', { ip4: 'v4', ip6: 'v6' }, 'v6'],
    ['else the IPv4 address', { ip4: 'v4', ip6: null }, 'v4'],
    ['else null', { ip4: null, ip6: null }, null],
  ])('primary_ip is %s', (_name, { ip4, ip6 }, expected) => {
    const object: Record<string, unknown> = { primary_ip: 'stale', primary_ip4: ip4, primary_ip6: ip6 };
    presentDevice(object);
    expect(object.primary_ip).toBe(expected);
  });

  it('leaves out primary_ip when the representation has no such key (brief, fields=)', () => {
    const object: Record<string, unknown> = { id: 1, primary_ip4: 'v4' };
    presentDevice(object);
    expect(object).toEqual({ id: 1, primary_ip4: 'v4' });
  });

  it('shows a token’s secret only in the response to the request that created it', () => {
    const created: Record<string, unknown> = { id: 1, token: 'stored?' };
    presentToken(created, { token: 'the-secret' });
    expect(created.token).toBe('the-secret');
    const read: Record<string, unknown> = { id: 1, token: 'stored?' };
    presentToken(read, undefined);
    expect(read.token).toBeNull();
    const brief: Record<string, unknown> = { id: 1 };
    presentToken(brief, { token: 'the-secret' });
    expect(brief).toEqual({ id: 1 });
  });
});
