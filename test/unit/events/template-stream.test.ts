import { describe, expect, it } from 'vitest';
import {
  compileListTemplate,
  TemplateRenderError,
  type ListTemplate,
} from '../../../runtime/events/template-stream.js';

/** Renders a list template over items in chunks of `size`, as the export does. */
function render(template: ListTemplate, items: unknown[], size: number, root: Record<string, unknown> = {}): string {
  if (!template.streamed) return template.whole(root, items);
  let out = template.head(root);
  if (items.length === 0) out += template.rows(root, [], 0, true);
  for (let offset = 0; offset < items.length; offset += size) {
    out += template.rows(root, items.slice(offset, offset + size), offset, offset + size >= items.length);
  }
  return out + template.tail(root);
}

const items = [
  { name: 'a', tags: [{ name: 't1' }, { name: 't2' }] },
  { name: 'b', tags: [] },
  { name: 'c', tags: [{ name: 't3' }] },
];

describe('list templates', () => {
  it('streams a top-level each over the list in chunks as one each would render it', () => {
    const text = [
      'name,index,first,last,tags',
      '{{#each queryset}}',
      '{{name}},{{@index}},{{@first}},{{@last}},{{#each tags}}{{name}}{{#unless @last}};{{/unless}}{{/each}}',
      '{{else}}',
      'none',
      '{{/each}}',
      'end',
    ].join('\n');
    const template = compileListTemplate(text);
    expect(template.streamed).toBe(true);
    const expected = 'name,index,first,last,tags\na,0,true,false,t1;t2\nb,1,false,false,\nc,2,false,true,t3\nend';
    for (const size of [1, 2, 3, 10]) expect(render(template, items, size)).toBe(expected);
    expect(render(template, [], 2)).toBe('name,index,first,last,tags\nnone\nend');
  });

  it('keeps block parameters and inline whitespace around the block', () => {
    const template = compileListTemplate('[{{#each queryset as |obj i|}}{{i}}={{obj.name}} {{/each}}]');
    expect(template.streamed).toBe(true);
    expect(render(template, items, 2)).toBe('[0=a 1=b 2=c ]');
  });

  it('renders a template that names the list elsewhere whole', () => {
    const template = compileListTemplate('{{queryset.length}}: {{#each queryset}}{{name}}{{/each}}');
    expect(template.streamed).toBe(false);
    expect(render(template, items, 1)).toBe('3: abc');
  });

  it('has no prototype access', () => {
    const template = compileListTemplate('{{#each queryset}}[{{constructor.name}}{{__proto__}}]{{/each}}');
    expect(render(template, items, 2)).toBe('[][][]');
  });

  it('reports a template that does not compile with its line', () => {
    expect(() => compileListTemplate('a\n{{#each queryset}}\n{{/if}}')).toThrow(/line 2|line 3/);
    expect(() => compileListTemplate('{{lower name}}')).toThrow(TemplateRenderError);
  });

  it('stops a render that takes too long and output that is too long', () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ name: `n${i}` }));
    const slow = compileListTemplate(
      '{{#each queryset}}{{#each ../queryset}}{{#each ../../queryset}}x{{/each}}{{/each}}{{/each}}',
      {
        timeoutMs: 200,
        maxOutput: 1e9,
      },
    );
    expect(() => render(slow, many, 3000)).toThrow(/longer than 0.2 seconds/);
    const big = compileListTemplate('{{#each queryset}}{{name}}{{/each}}', { timeoutMs: 1000, maxOutput: 10 });
    expect(() => render(big, many, 100)).toThrow(/longer than 10 characters/);
  });
});
