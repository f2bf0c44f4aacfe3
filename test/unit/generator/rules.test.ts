import { describe, expect, it } from 'vitest';
import { errorsOf as positionedErrorsOf, modelOf, shop } from './model-files.js';

/**
 * Model rules in YAML (`rules:`): what the generator resolves them into, and the diagnostics for rules that
 * name what does not exist or compare what cannot be compared, each at the rule's path.
 */

const MODELS = `  site:
    path: sites
    fields:
      name: { type: string, max_length: 50 }
  location:
    path: locations
    fields:
      name: { type: string, max_length: 50 }
      site: { type: fk, to: shop.site }
  panel:
    path: panels
    fields:
      name: { type: string, max_length: 50 }
      site: { type: fk, to: shop.site }
      location: { type: fk, to: shop.location, nullable: true }
      voltage: { type: integer, default: 120 }
      power: { type: integer, default: 0, read_only: true }
      total: { type: computed, function: ipam.prefixDepth, schema: { type: integer } }
`;

/** The shop models with these rules (YAML indented as under `rules:`) on `panel`. */
const withRules = (rules: string): string => shop(`${MODELS}    rules:\n${rules.replace(/^/gm, '      ').trimEnd()}\n`);
const E = (at: string, message: string): string => `models/shop.yaml: models.panel.rules.${at}: ${message}`;

/** The errors without their line and column, after checking that each has them (`models/shop.yaml:22:16: …`). */
function errorsOf(...args: Parameters<typeof positionedErrorsOf>): string[] {
  return positionedErrorsOf(...args).map((error) => {
    expect(error).toMatch(/^models\/shop\.yaml:\d+:\d+: /);
    return error.replace(/^(models\/shop\.yaml):\d+:\d+:/, '$1:');
  });
}

describe('rules that resolve', () => {
  it('keeps each rule in order, with `__all__` as the default key and constants of `set` as expressions', () => {
    const panel = modelOf(
      withRules(`- same: [location.site, site]
  message: Location {location} ({location.site}) is in a different site than {site}
- required: location
  when: voltage > 200
  key: location
  message: High voltage needs a location.
- forbidden: location
  when: not site.name
  message: No location without a named site.
- invalid: voltage == 0 or id == 5
  key: voltage
  message: This value may not be 0.
- validator: ipam.validateVlanGroup
- set: power
  to: round(abs(voltage) * 1.5)
  when: voltage
- set: power
  to: null
`),
      'shop.panel',
    );
    expect(panel.rules).toEqual([
      {
        kind: 'same',
        paths: ['location.site', 'site'],
        key: '__all__',
        message: 'Location {location} ({location.site}) is in a different site than {site}',
      },
      {
        kind: 'required',
        field: 'location',
        when: 'voltage > 200',
        key: 'location',
        message: 'High voltage needs a location.',
      },
      {
        kind: 'forbidden',
        field: 'location',
        when: 'not site.name',
        key: '__all__',
        message: 'No location without a named site.',
      },
      { kind: 'invalid', when: 'voltage == 0 or id == 5', key: 'voltage', message: 'This value may not be 0.' },
      { kind: 'validator', function: 'ipam.validateVlanGroup' },
      { kind: 'set', field: 'power', to: 'round(abs(voltage) * 1.5)', when: 'voltage' },
      { kind: 'set', field: 'power', to: 'null' },
    ]);
  });

  it('accepts a model without rules', () => {
    expect(modelOf(shop(MODELS), 'shop.panel').rules).toEqual([]);
  });
});

describe('rule diagnostics', () => {
  it.each([
    [
      'a path naming a missing field',
      '- same: [location.country, site]\n  message: x',
      [E('0.same.0', "unknown field 'country' of shop.location in 'location.country'")],
    ],
    [
      'a path stepping through a field that is not a foreign key',
      '- same: [name.site, site]\n  message: x',
      [E('0.same.0', "'name' of shop.panel is not a foreign key, in 'name.site'")],
    ],
    [
      'paths with no common target',
      '- same: [location, site]\n  message: x',
      [E('0.same', "'location' and 'site' have no common target (shop.location and shop.site)")],
    ],
    [
      'a foreign key compared with a plain value',
      '- same: [site, voltage]\n  message: x',
      [E('0.same', "'site' and 'voltage' have no common target (shop.site and integer)")],
    ],
    [
      'values of different kinds',
      '- same: [name, voltage]\n  message: x',
      [E('0.same', "'name' and 'voltage' have no common target (string and integer)")],
    ],
    ['an unknown required field', '- required: colour\n  message: x', [E('0.required', "unknown field 'colour'")]],
    [
      'an unknown error key',
      '- forbidden: location\n  key: colour\n  message: x',
      [E('0.key', "unknown field 'colour'")],
    ],
    [
      'a message placeholder naming a missing field',
      '- required: location\n  message: At {site.country}',
      [E('0.message', "unknown field 'country' of shop.site in 'site.country'")],
    ],
    [
      'a condition naming a missing field',
      '- required: location\n  when: amps > 3\n  message: x',
      [E('0.when', "unknown field 'amps' of shop.panel in 'amps'")],
    ],
    [
      'a condition with a syntax error',
      '- invalid: voltage <\n  message: x',
      [E('0.invalid', "unexpected end of expression at column 10 of 'voltage <'")],
    ],
    [
      'an unclosed parenthesis',
      '- set: power\n  to: round(voltage',
      [E('0.to', "expected ')' at column 14 of 'round(voltage'")],
    ],
    ['a set rule on a missing field', '- set: watts\n  to: 1', [E('0.set', "unknown field 'watts'")]],
    ['a set rule on a field that is not stored', '- set: total\n  to: 1', [E('0.set', "'total' is not stored")]],
    [
      'a rule of no known form',
      '- same: [site, site]\n  required: site\n  message: x',
      ['models/shop.yaml: models.panel.rules.0: does not match any of the allowed forms'],
    ],
    [
      'a check without a message',
      '- required: location',
      ['models/shop.yaml: models.panel.rules.0: does not match any of the allowed forms'],
    ],
  ])('%s', (_name, rules, expected) => {
    expect(errorsOf(withRules(rules))).toEqual(expected);
  });

  it('reports every broken rule, each once', () => {
    const errors = errorsOf(withRules('- required: colour\n  message: x\n- same: [location, site]\n  message: y'));
    expect(errors).toEqual([
      E('0.required', "unknown field 'colour'"),
      E('1.same', "'location' and 'site' have no common target (shop.location and shop.site)"),
    ]);
  });
});

describe('paths through generic relations', () => {
  // A plug's `socket` is a generic relation to a wall socket or a strip socket; only a wall socket has a site.
  const GENERIC = `${MODELS}  wallsocket:
    path: wall-sockets
    fields:
      site: { type: fk, to: shop.site }
      voltage: { type: integer }
  stripsocket:
    path: strip-sockets
    fields:
      voltage: { type: integer }
  plug:
    path: plugs
    fields:
      site: { type: fk, to: shop.site }
      socket_type: { type: content_type, types: [shop.wallsocket, shop.stripsocket], nullable: true }
      socket_id: { type: bigint, nullable: true }
      socket: { type: generic_fk, type_field: socket_type, id_field: socket_id, types: [shop.wallsocket, shop.stripsocket], on_delete: cascade }
`;
  const plugRules = (rules: string): string =>
    shop(`${GENERIC}    rules:\n${rules.replace(/^/gm, '      ').trimEnd()}\n`);
  const P = (at: string, message: string): string => `models/shop.yaml: models.plug.rules.${at}: ${message}`;

  it('steps through the model of the object the relation names', () => {
    const plug = modelOf(
      plugRules('- same: [socket.site, site]\n  key: socket_id\n  message: The socket {socket} is not at {site}.'),
      'shop.plug',
    );
    expect(plug.rules).toEqual([
      {
        kind: 'same',
        paths: ['socket.site', 'site'],
        key: 'socket_id',
        message: 'The socket {socket} is not at {site}.',
      },
    ]);
    expect(modelOf(plugRules('- invalid: socket.voltage > 240\n  message: x'), 'shop.plug').rules).toHaveLength(1);
  });

  it.each([
    [
      'a step no model the relation may name has',
      '- same: [socket.location, site]\n  message: x',
      [
        P(
          '0.same.0',
          "no model that 'socket' of shop.plug may name (shop.stripsocket, shop.wallsocket) has a field 'location', in 'socket.location'",
        ),
      ],
    ],
    [
      'a step past the relation that is not a foreign key',
      '- same: [socket.voltage.site, site]\n  message: x',
      [P('0.same.0', "'voltage' of shop.stripsocket is not a foreign key, in 'socket.voltage.site'")],
    ],
    [
      'an end through the relation of another target',
      '- same: [socket.site, socket_type]\n  message: x',
      [P('0.same', "'socket.site' and 'socket_type' have no common target (shop.site and content_type)")],
    ],
  ])('reports %s', (_name, rules, expected) => {
    expect(errorsOf(plugRules(rules)).map((e) => e.replace(/^(models\/shop\.yaml):\d+:\d+:/, '$1:'))).toEqual(expected);
  });
});
