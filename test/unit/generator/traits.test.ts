import { describe, expect, it } from 'vitest';
import { fieldOf, modelOf, resolveFiles } from './model-files.js';

/**
 * Traits: a model that lists a trait has the trait's parts as if written in it; diagnostics about a trait's
 * parts point at the trait's YAML, naming the models that include it.
 */

const PEOPLE = `app: people
traits:
  owned:
    description: An owner.
    fields:
      owner: { type: fk, to: people.person, nullable: true, on_delete: protect, filter_by: name }
    filters:
      owner_group: { path: owner.team, by: name }
models:
  team:
    path: teams
    fields:
      name: { type: string, max_length: 50, unique: true }
  person:
    path: people
    fields:
      name: { type: string, max_length: 50, unique: true }
      team: { type: fk, to: people.team, nullable: true, on_delete: set_null }
`;

/** A `shop` app whose models include traits (YAML text indented as under `models:`), beside `people`. */
function shopWith(models: string, traits = ''): Record<string, string> {
  const traitBlock = traits ? `traits:\n${traits}` : '';
  return { 'models/people.yaml': PEOPLE, 'models/shop.yaml': `app: shop\n${traitBlock}models:\n${models}` };
}

const ITEM = `  item:
    path: items
    traits: [people.owned, component]
    fields:
      name: { type: string, max_length: 50 }
`;

const COMPONENT = `  component:
    traits: [labelled]
    features: [tags]
    fields:
      box: { type: fk, to: shop.box, on_delete: cascade }
      description: { type: string, max_length: 200, blank: true }
    unique_together:
      - { fields: [box, name] }
    rules:
      - invalid: name == 'x'
        key: name
        message: Not x.
    search: [name, description]
  labelled:
    fields:
      label: { type: string, max_length: 64, blank: true }
`;

const BOX = `  box:
    path: boxes
    fields:
      name: { type: string, max_length: 50 }
`;

describe('traits', () => {
  it("give a model the trait's parts, after its own, with traits a trait includes first", () => {
    const { graph, errors } = resolveFiles(shopWith(ITEM + BOX, COMPONENT));
    expect(errors).toEqual([]);
    const item = graph.models.find((m) => m.label === 'shop.item')!;
    expect(item.fields.map((f) => f.name)).toEqual(['name', 'owner', 'label', 'box', 'description']);
    expect(fieldOf(item, 'owner')).toMatchObject({ kind: 'fk', target: 'people.person', nullable: true });
    expect(item.features).toEqual(['tags']);
    expect(item.uniques.map((u) => u.fields)).toEqual([['box', 'name']]);
    expect(item.rules).toHaveLength(1);
    expect(item.search).toEqual(['name', 'description']);
    const filters = item.filters.map((f) => f.name);
    expect(filters).toEqual(expect.arrayContaining(['owner', 'owner_id', 'owner_group', 'box_id', 'label']));
  });

  it("let the model's own field win over the trait's", () => {
    const own = ITEM.replace(
      '      name: { type: string, max_length: 50 }',
      '      name: { type: string, max_length: 50 }\n      label: { type: string, max_length: 10, blank: true }',
    );
    const item = modelOf(
      shopWith(own + BOX, COMPONENT)['models/shop.yaml']!.replace('people.owned, ', ''),
      'shop.item',
    );
    expect(fieldOf(item, 'label')).toMatchObject({ maxLength: 10 });
  });

  it('report an unknown trait and a trait that includes itself at the reference', () => {
    const { errors } = resolveFiles(
      shopWith(ITEM.replace('component', 'componnt') + BOX, `  loop:\n    traits: [loop]\n`),
    );
    expect(errors).toEqual(["models/shop.yaml:8:28: models.item.traits.1: unknown trait 'shop.componnt'"]);
    const looped = resolveFiles(shopWith(ITEM.replace('component', 'loop') + BOX, `  loop:\n    traits: [loop]\n`));
    expect(looped.errors).toEqual(["models/shop.yaml:4:14: traits.loop.traits.0: trait 'shop.loop' includes itself"]);
  });

  it("report a mistake in a trait's part once, at the trait, naming every model that includes it", () => {
    const broken = COMPONENT.replace('to: shop.box', 'to: shop.crate');
    const other = `  thing:\n    path: things\n    traits: [component]\n    fields:\n      name: { type: string, max_length: 50 }\n`;
    const { errors } = resolveFiles(shopWith(ITEM + other + BOX, broken));
    expect(errors).toEqual([
      "models/shop.yaml:7:24: traits.component.fields.box.to: unknown model 'shop.crate' (in models 'shop.item', 'shop.thing')",
    ]);
  });

  it("let a trait replace the parts of a trait it includes, but refuse two unrelated traits' same part", () => {
    const below = COMPONENT.replace(
      '      label: { type: string, max_length: 64, blank: true }',
      '      label: { type: string, max_length: 64, blank: true }\n      description: { type: string, max_length: 20, blank: true }',
    );
    const item = resolveFiles(shopWith(ITEM + BOX, below)).graph.models.find((m) => m.label === 'shop.item')!;
    expect(fieldOf(item, 'description')).toMatchObject({ maxLength: 200 });
    const unrelated = below.replace('    traits: [labelled]\n', '');
    const { errors } = resolveFiles(shopWith(ITEM.replace('component]', 'component, labelled]') + BOX, unrelated));
    expect(errors).toEqual([
      "models/shop.yaml:22:5: models.item.traits: traits 'shop.component' and 'shop.labelled' both define fields.description; define it in the model",
    ]);
  });

  it('give single parts and hooks as fields, and a related name per model', () => {
    const traits = `  part:\n    display: '{name}!'\n    ordering: [name]\n    related_object: box\n    brief: [id, url, display, name]\n    hooks: { prepare: shop.prepare }\n    validators: [shop.check]\n    fields:\n      box: { type: fk, to: shop.box, on_delete: cascade, related_name: '{model}s' }\n`;
    const items = `  item:\n    path: items\n    traits: [part]\n    ordering: [-name]\n    fields:\n      name: { type: string, max_length: 50 }\n  widget:\n    path: widgets\n    traits: [part]\n    fields:\n      name: { type: string, max_length: 50 }\n`;
    const { graph, errors } = resolveFiles(shopWith(items + BOX, traits));
    expect(errors).toEqual([]);
    const [item, widget] = ['shop.item', 'shop.widget'].map((l) => graph.models.find((m) => m.label === l)!);
    expect(item!.ordering).toEqual([{ field: 'name', descending: true }]);
    expect(widget!.ordering).toEqual([{ field: 'name', descending: false }]);
    expect(widget).toMatchObject({ relatedObject: 'box', brief: ['id', 'url', 'display', 'name'] });
    expect(widget!.display).toMatchObject({ kind: 'template', template: '{name}!' });
    expect(widget!.hooks).toEqual({ prepare: 'shop.prepare' });
    expect(widget!.validators).toEqual(['shop.check']);
    expect(fieldOf(item!, 'box')).toMatchObject({ relatedName: 'items' });
    expect(fieldOf(widget!, 'box')).toMatchObject({ relatedName: 'widgets' });
  });
});
