import type { FieldSpec } from '../../runtime/spec.js';
import type { ModelInfo, Schema } from '../../runtime/rest/schema.js';
import type { ApiClient } from './client.js';

let sequence = 0;

/**
 * Optional fields that a model's domain rules require (a VM runs somewhere; a circuit termination attaches
 * to something): the fixtures fill them like required ones.
 */
const REQUIRED_BY_RULES: Record<string, string[]> = {
  'virtualization.virtualmachine': ['cluster'],
  'circuits.circuittermination': ['termination_type'],
};

/**
 * Fields that an `invalid` rule holding when they are all empty (`not device_type and not module_type`: one of
 * them is needed) makes required: the first of each such rule.
 */
function oneOfRequired(model: ModelInfo): string[] {
  return model.spec.rules.flatMap((rule) => {
    if (rule.kind !== 'invalid') return [];
    const names = /^not [a-z_]+( and not [a-z_]+)*$/.test(rule.when) ? rule.when.split(' and ') : [];
    const first = names[0]?.slice('not '.length);
    return first && model.fields.get(first) ? [first] : [];
  });
}

/** Fields that an `invalid` rule requires to be host names (`not is_hostname(name)`). */
function hostNameFields(model: ModelInfo): Set<string> {
  return new Set(
    model.spec.rules.flatMap((rule) =>
      rule.kind === 'invalid' ? [...rule.when.matchAll(/\bnot is_hostname\(([a-z_]+)\)/g)].map((m) => m[1]!) : [],
    ),
  );
}

/** Values that a model's domain rules demand in a particular shape. */
const VALUES_BY_RULES: Record<string, (seq: number) => Record<string, unknown>> = {
  'extras.customfieldchoiceset': () => ({
    extra_choices: [
      ['gold', 'Gold'],
      ['silver', 'Silver'],
    ],
  }),
  'extras.customfield': (seq) => ({ name: `field_${seq}` }),
  'users.objectpermission': () => ({ object_types: ['dcim.site'], actions: ['view'] }),
  'extras.webhook': (seq) => ({ payload_url: `https://example.com/hooks/${seq}` }),
  'extras.eventrule': () => ({ object_types: ['dcim.site'], event_types: ['object_created'], action_type: 'webhook' }),
  // The table of the model named and columns of it; saved filter parameters are keyword arguments.
  'extras.tableconfig': () => ({ object_type: 'dcim.site', table: 'SiteTable', columns: ['name'] }),
  'extras.savedfilter': () => ({ parameters: { status: ['active'] } }),
  // A unit of a 42U rack that the other reservations of a batch (up to 42 sharing a rack) do not hold.
  'dcim.rackreservation': (seq) => ({ units: [(seq % 42) + 1] }),
  // Its rule `end <= start` is invalid: a span of private ASNs.
  'ipam.asnrange': () => ({ start: 64512, end: 65534 }),
  // The first type (VPWS) is point-to-point: its terminations (which share one L2VPN) would stop at two.
  'vpn.l2vpn': () => ({ type: 'vpls' }),
};

type Given = Record<string, unknown>;
/** A parent device type: the only kind that takes device bays. */
const parentType = async (f: Fixtures): Promise<number> =>
  (await f.create('dcim.devicetype', { subdevice_role: 'parent' })).id as number;

/**
 * Related objects that a model's domain rules demand in a particular shape (a device bay's device is of a parent
 * type; a module's bay belongs to the module's device), given the values already chosen.
 */
const DEPENDENCIES_BY_RULES: Record<string, (f: Fixtures, given: Given) => Promise<Given>> = {
  'dcim.devicebaytemplate': async (f, given) => (given.device_type ? {} : { device_type: await parentType(f) }),
  'dcim.devicebay': async (f, given) =>
    given.device ? {} : { device: (await f.create('dcim.device', { device_type: await parentType(f) })).id },
  // A new cable needs both ends: an interface on each (of fresh devices, so that no end is cabled twice).
  'dcim.cable': async (f, given) => {
    if (given.a_terminations || given.b_terminations) return {};
    const end = async (): Promise<Given[]> => [
      { object_type: 'dcim.interface', object_id: (await f.create('dcim.interface', { type: '1000base-t' })).id },
    ];
    return { a_terminations: await end(), b_terminations: await end() };
  },
  // A wireless link joins two wireless interfaces, fresh ones (an interface shows one link).
  'wireless.wirelesslink': async (f, given) => {
    const radio = async (): Promise<number> =>
      (await f.create('dcim.interface', { type: 'ieee802.11ac' })).id as number;
    return {
      ...(given.interface_a ? {} : { interface_a: await radio() }),
      ...(given.interface_b ? {} : { interface_b: await radio() }),
    };
  },
  'dcim.module': async (f, given) => {
    const device = given.device ?? (await f.create('dcim.device')).id;
    return { device, ...(given.module_bay ? {} : { module_bay: (await f.create('dcim.modulebay', { device })).id }) };
  },
};

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A number unique within the test process (for unique names). */
export function nextSeq(): number {
  sequence += 1;
  return sequence;
}

/**
 * Builds valid write bodies for any model from its spec alone (required fields, with their dependencies
 * created through the API), so that suites can run over every model of the registry.
 */
export class Fixtures {
  /** One object of each model that other fixtures point at where they may share it (see `shares`). */
  private readonly dependencies = new Map<string, Promise<number>>();

  constructor(
    private readonly api: ApiClient,
    private readonly schema: Schema,
  ) {}

  /**
   * Whether the fixtures of a model may point their required relation `name` (an FK or a generic relation) at
   * one shared object: unless the relation is one-to-one, or a uniqueness rule involves it and nothing else in the rule differs from one
   * fixture to the next (each circuit has one A side; each interface of a device has its own name). A
   * dependency chain (an interface's device, its site, type and role) is then made once per suite instead of
   * once per fixture.
   */
  private shares(model: ModelInfo, name: string): boolean {
    const field = model.fields.get(name);
    // A generic relation is stored in two columns: its type and its id.
    const stored =
      field?.kind === 'fk' ? [name] : field?.kind === 'generic_fk' ? [name, field.typeField, field.idField] : [];
    if (stored.length === 0 || stored.some((column) => (model.fields.get(column) as { unique?: boolean })?.unique))
      return false;
    const variesPerFixture = (other: string): boolean => {
      const f = model.fields.get(other);
      return (
        f?.kind === 'string' ||
        f?.kind === 'ip_network' ||
        f?.kind === 'ip_interface' ||
        (f?.kind === 'integer' && f.unique)
      );
    };
    return !model.spec.uniques.some(
      (u) => u.fields.some((f) => stored.includes(f)) && !u.fields.some((other) => variesPerFixture(other)),
    );
  }

  /** The shared object of a model that fixtures point at (made on first use). */
  private dependency(label: string): Promise<number> {
    let id = this.dependencies.get(label);
    if (!id) {
      id = this.create(label).then((object) => object.id as number);
      // A failed creation is not remembered: the next fixture tries again (and reports the failure).
      id.catch(() => this.dependencies.delete(label));
      this.dependencies.set(label, id);
    }
    return id;
  }

  /** A valid create body for the model (dependencies are created first). */
  async payload(label: string, given: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const model = this.schema.model(label);
    const overrides = { ...(await DEPENDENCIES_BY_RULES[label]?.(this, given)), ...given };
    const seq = nextSeq();
    const body: Record<string, unknown> = {};
    const generic = model.spec.fields.filter((f) => f.kind === 'generic_fk');
    const pairedFields = new Set(generic.flatMap((f) => (f.kind === 'generic_fk' ? [f.typeField, f.idField] : [])));
    const extra = [...(REQUIRED_BY_RULES[label] ?? []), ...oneOfRequired(model)];
    const required = (name: string): boolean => model.fields.get(name)?.required === true || extra.includes(name);
    for (const field of model.writable) {
      if (!required(field.name) || field.name in overrides || pairedFields.has(field.name)) continue;
      body[field.name] =
        field.kind === 'fk' && this.shares(model, field.name)
          ? await this.dependency(field.target)
          : await this.value(model, field, seq);
    }
    Object.assign(body, VALUES_BY_RULES[label]?.(seq));
    // A required generic relation points at an object of its first allowed type (shared as FKs are).
    for (const field of generic) {
      if (field.kind !== 'generic_fk' || !required(field.typeField) || field.typeField in overrides) continue;
      const target = field.targets[0]!;
      body[field.typeField] = target;
      body[field.idField] = this.shares(model, field.name)
        ? await this.dependency(target)
        : (await this.create(target)).id;
    }
    return { ...body, ...overrides };
  }

  /** `count` valid create bodies (dependencies shared as in `payload`). */
  async payloads(
    label: string,
    count: number,
    overrides: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>[]> {
    const bodies: Record<string, unknown>[] = [];
    for (let i = 0; i < count; i += 1) bodies.push(await this.payload(label, overrides));
    return bodies;
  }

  /** Creates an object through the API and returns its representation. */
  async create(label: string, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const model = this.schema.model(label);
    const response = await this.api.post(`/api${model.listPath}`, await this.payload(label, overrides));
    if (response.status !== 201) throw new Error(`creating ${label} failed: ${response.status} ${response.text}`);
    return response.body as Record<string, any>;
  }

  /** A value for one field: unique where it must be, within its limits, valid for its format. */
  async value(model: ModelInfo, field: FieldSpec, seq: number): Promise<unknown> {
    switch (field.kind) {
      case 'string': {
        const text = (base: string): string => base.slice(0, field.maxLength ?? 100);
        if (hostNameFields(model).has(field.name)) return text(`${field.name.replace(/_/g, '-')}-${seq}.example`);
        if (field.pattern) {
          // A patterned field takes the first of a few shapes that its pattern accepts (`65000:7`, `7`…).
          // Six hex pairs for an address-like pattern (a MAC address).
          const pairs = seq.toString(16).padStart(12, '0').match(/../g)!.join(':');
          const shapes = [`${seq}`, `65000:${seq}`, `${seq}.${seq}`, `${field.name}-${seq}`, pairs];
          const fits = shapes.find((shape) => new RegExp(field.pattern!, 'u').test(shape));
          if (fits) return text(fits);
        }
        switch (field.format) {
          case 'slug':
          case 'unicode-slug':
            return text(`${field.name}-${seq}`);
          case 'color':
            return 'aa00ff';
          case 'email':
            return `user${seq}@example.com`;
          case 'url':
            return `https://example.com/${seq}`;
          case 'timezone':
            return 'Europe/Paris';
          default:
            return text(
              `${seq} ${model.spec.name} ${field.name}`.replace(/\s+/g, field.name === 'username' ? '_' : ' '),
            );
        }
      }
      case 'password':
        return 'Str0ng-Password-1';
      case 'integer': {
        // Unique numbers (ASNs…) differ per object; others take the smallest valid value.
        if (field.unique) return Math.min((field.min ?? 0) + seq, field.max ?? Number.MAX_SAFE_INTEGER);
        return field.min ?? (field.max !== undefined ? Math.min(1, field.max) : 1);
      }
      case 'decimal':
        return field.min !== undefined && field.min > 1 ? field.min : 1;
      case 'boolean':
        return true;
      case 'date':
        return '2026-01-01';
      case 'datetime':
        return '2099-01-01T00:00:00Z';
      case 'json':
        return {};
      case 'list':
        // Integer lists (a service's ports) take one valid item; others stay empty.
        return field.items === 'integer' ? [field.min ?? 1] : [];
      case 'object_types': {
        if (field.allowEmpty !== false) return [];
        // One model that may carry the field's feature (the first by label).
        const labels = [...this.schema.models.values()]
          .filter((m) => !field.feature || m.spec.features.includes(field.feature))
          .map((m) => m.label)
          .sort();
        return labels.slice(0, 1);
      }
      case 'choice':
        return field.choices[0]![0];
      case 'fk': {
        const created = await this.create(field.target);
        return created.id;
      }
      case 'm2m':
      case 'children':
        return [];
      case 'content_type':
        return field.targets[0];
      case 'ip_network':
        return `10.${(seq >> 8) & 255}.${seq & 255}.0/24`;
      case 'ip_interface':
        return `10.${(seq >> 8) & 255}.${seq & 255}.1/24`;
      case 'generic_fk':
      case 'ip_family':
      case 'constant':
      case 'computed':
      case 'alias':
      case 'derived':
        return null;
      case 'image':
        return new File([TINY_PNG], `fixture-${seq}.png`, { type: 'image/png' });
    }
  }
}
