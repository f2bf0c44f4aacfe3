import { describe, expect, it } from 'vitest';
import { emitOpenApi } from '../../../generator/emit/openapi.js';
import { modelOf, pathsOf, resolveFiles, shop } from './model-files.js';

/** Model actions: `locate` (an endpoint at the app's root answering one object of the model) beside list. */

const ITEM = (actions: string): string =>
  shop(`  item:
    path: items
    fields:
      name: { type: string, max_length: 50 }
    actions:
${actions}`);

const LOCATE = `      find-item:
        kind: locate
        function: shop.findItem
        parameters:
          key: { type: string, description: The key }
`;

describe('locate actions', () => {
  it('resolve without an item', () => {
    const action = modelOf(ITEM(LOCATE), 'shop.item').actions[0]!;
    expect(action).toMatchObject({ name: 'find-item', kind: 'locate', function: 'shop.findItem', item: {} });
  });

  it('answer the model itself: item, paginated, tuple and media are refused', () => {
    const yaml = ITEM(`${LOCATE}        paginated: true\n        item: { id: { type: integer } }\n`);
    expect(pathsOf(yaml)).toEqual([
      "models/shop.yaml: models.item.actions.find-item.item: a locate action answers the model itself (no 'item')",
      "models/shop.yaml: models.item.actions.find-item.paginated: a locate action answers the model itself (no 'paginated')",
    ]);
  });

  it('leave item required for list actions', () => {
    expect(pathsOf(ITEM('      things:\n        kind: list\n        function: shop.things\n'))).toEqual([
      "models/shop.yaml: models.item.actions.things: a list action needs 'item'",
    ]);
  });

  it('are described at the app root, with required parameters and the full representation', () => {
    const { graph, errors } = resolveFiles({ 'models/shop.yaml': ITEM(LOCATE) });
    expect(errors).toEqual([]);
    const document = emitOpenApi(graph, '4.6.0') as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const get = document.paths['/api/shop/find-item/']!.get!;
    expect(get.operationId).toBe('shop_find_item_list');
    expect(get.parameters).toEqual([
      { name: 'key', in: 'query', required: true, description: 'The key', schema: { type: 'string' } },
    ]);
    expect(JSON.stringify(get.responses)).toContain('#/components/schemas/Item"');
    expect(document.paths['/api/shop/items/{id}/find-item/']).toBeUndefined();
    const root = JSON.stringify(document.paths['/api/shop/']);
    expect(root).toContain('find-item');
  });
});
