import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Custom field choice sets as NetBox 4.6 has them: predefined base sets (IATA, ISO 3166), extra pairs,
 * alphabetical order, colours of choices, and the `choices/` endpoint; custom fields accept their values.
 */
describe.each(DIALECTS)('custom field choice sets on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());
  const sets = '/api/extras/custom-field-choice-sets/';

  it('offers base choices with extra ones, counted and listed through choices/', async () => {
    const created = await app.api.post(sets, {
      name: 'Countries',
      base_choices: 'ISO_3166',
      extra_choices: [['XK', 'XK (Kosovo)']],
      choice_colors: { FR: 'blue', XK: 'red' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      base_choices: { value: 'ISO_3166', label: 'ISO 3166 (Country codes)' },
      extra_choices: [['XK', 'XK (Kosovo)']],
      choice_colors: { FR: 'blue', XK: 'red' },
      choices_count: 250,
    });
    const url = `${sets}${created.body.id}/choices/`;
    const first = await app.api.get(`${url}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 250, results: [{ id: 'AD', display: 'AD (Andorra)' }, { id: 'AE' }] });
    expect((await app.api.get(`${url}?q=france`)).body.results).toEqual([{ id: 'FR', display: 'FR (France)' }]);
    expect((await app.api.get(`${url}?q=xk&limit=0`)).body.results).toEqual([{ id: 'XK', display: 'XK (Kosovo)' }]);

    const airports = await app.api.post(sets, { name: 'Airports', base_choices: 'IATA' });
    expect(airports.status, airports.text).toBe(201);
    expect(airports.body.choices_count).toBe(9765);
    expect(airports.body.extra_choices).toBeNull();
    expect(airports.body.choice_colors).toEqual({});
    expect((await app.api.get(`${sets}${airports.body.id}/choices/?q=CDG`)).body.results[0].id).toBe('CDG');

    // Custom fields take the values of the base set.
    const field = await app.api.post('/api/extras/custom-fields/', {
      name: 'country',
      type: 'select',
      object_types: ['dcim.site'],
      choice_set: created.body.id,
    });
    expect(field.status, field.text).toBe(201);
    const site = await app.api.post('/api/dcim/sites/', {
      name: 'Paris',
      slug: 'paris',
      custom_fields: { country: 'FR' },
    });
    expect(site.status, site.text).toBe(201);
    expect(site.body.custom_fields.country).toBe('FR');
    const bad = await app.api.post('/api/dcim/sites/', {
      name: 'Nowhere',
      slug: 'nowhere',
      custom_fields: { country: 'ZZ' },
    });
    expect(bad.status).toBe(400);
  });

  it('orders choices alphabetically when asked and can drop its base set again', async () => {
    const created = await app.api.post(sets, {
      name: 'Ordered',
      extra_choices: [
        ['b', 'B'],
        ['a', 'A'],
      ],
      order_alphabetically: true,
    });
    expect(created.status).toBe(201);
    expect((await app.api.get(`${sets}${created.body.id}/choices/`)).body.results.map((c: any) => c.id)).toEqual([
      'a',
      'b',
    ]);
    const withBase = await app.api.patch(`${sets}${created.body.id}/`, { base_choices: 'ISO_3166' });
    expect(withBase.body.choices_count).toBe(251);
    const back = await app.api.patch(`${sets}${created.body.id}/`, { base_choices: null });
    expect(back.status).toBe(200);
    expect(back.body.base_choices).toBeNull();
    expect(back.body.choices_count).toBe(2);
  });

  it('refuses invalid colours, colours of unknown values and sets without choices', async () => {
    const extra = [
      ['choice1', 'Choice 1'],
      ['choice2', 'Choice 2'],
    ];
    const magenta = await app.api.post(sets, {
      name: 'c1',
      extra_choices: extra,
      choice_colors: { choice1: 'magenta' },
    });
    expect(magenta.status).toBe(400);
    expect(magenta.body).toEqual({ choice_colors: { choice1: ['"magenta" is not a valid choice.'] } });
    const unknown = await app.api.post(sets, { name: 'c2', extra_choices: extra, choice_colors: { choice3: 'red' } });
    expect(unknown.body).toEqual({
      choice_colors: ['Color mappings must reference an existing choice value. Invalid value(s): choice3.'],
    });
    expect((await app.api.post(sets, { name: 'c3', extra_choices: extra, choice_colors: ['red'] })).status).toBe(400);
    expect((await app.api.post(sets, { name: 'c4', extra_choices: [['x']] })).status).toBe(400);
    expect((await app.api.post(sets, { name: 'c5' })).body).toEqual({
      non_field_errors: ['Must define base or extra choices.'],
    });
    const locode = await app.api.post(sets, { name: 'c6', base_choices: 'UN_LOCODE' });
    expect(locode.status).toBe(400);
    expect(locode.body.base_choices).toBeDefined();
    expect((await app.api.get(`${sets}?name=c1`)).body.count).toBe(0);
  });
});
