import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentParamsError, renderTemplateCode } from '../../../runtime/domain/config-templates.js';
import {
  fnmatchPattern,
  ignoredBy,
  readFolder,
  sourceFolder,
  SyncError,
} from '../../../runtime/domain/data-sources.js';
import { renderStoredTemplate, TemplateLimitError } from '../../../runtime/events/templates.js';

describe('config template rendering', () => {
  it('renders as NetBox renders Jinja2: one trailing newline of the code dropped, CRLF made LF', () => {
    expect(renderTemplateCode('a {{x}}\r\nb\n', {}, { x: 1 })).toBe('a 1\nb');
    expect(renderTemplateCode('a\n', { keep_trailing_newline: true }, {})).toBe('a\n');
    expect(renderTemplateCode('{{missing}}', {}, {})).toBe('');
    expect(() => renderTemplateCode('{{missing}}', { undefined: 'jinja2.StrictUndefined' }, {})).toThrow(/not defined/);
  });

  it('has no prototype access', () => {
    expect(renderTemplateCode('{{constructor.name}}{{__proto__}}', {}, { a: 1 })).toBe('');
  });

  it('stops loops at the time or size budget', () => {
    const a = Array.from({ length: 100 }, (_, i) => i);
    const code = '{{#each a}}{{#each ../a}}{{#each ../../a}}xxxxxxxxxx{{/each}}{{/each}}{{/each}}';
    expect(() => renderStoredTemplate(code, { a }, { timeoutMs: 60_000, maxOutput: 1_000_000 })).toThrow(
      TemplateLimitError,
    );
    expect(() => renderStoredTemplate(code, { a }, { timeoutMs: 1, maxOutput: 1e12 })).toThrow(/took longer than/);
    expect(
      renderStoredTemplate('{{#each a}}{{this}}{{/each}}', { a: [1, 2] }, { timeoutMs: 1000, maxOutput: 10 }),
    ).toBe('12');
  });

  it("checks environment parameters against NetBox's allow-list", () => {
    expect(environmentParamsError({ trim_blocks: true, undefined: 'jinja2.StrictUndefined' })).toBeNull();
    expect(environmentParamsError({ loader: 'x' })).toBe('"loader" is not a permitted Jinja2 environment parameter.');
    expect(environmentParamsError({ finalize: 'x' })).toMatch(/deprecated/);
    expect(environmentParamsError({ undefined: 'os.system' })).toMatch(/^Invalid value "os.system"/);
  });
});

describe('local data sources', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sources-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('resolves a source inside the root, whatever its path says', () => {
    expect(sourceFolder(root, 'file:///configs/')).toBe(path.join(root, 'configs/'));
    expect(sourceFolder(root, 'configs')).toBe(path.join(root, 'configs'));
    expect(sourceFolder(root, 'file:///../../etc/')).toBe(path.join(root, 'etc/'));
    expect(sourceFolder(root, 'a/%2e%2e/%2e%2e/b')).toBe(path.join(root, 'b'));
    expect(() => sourceFolder(root, 'a%00b')).toThrow(SyncError);
  });

  it("matches ignore rules as Python's fnmatchcase", () => {
    expect(fnmatchPattern('*.txt').test('dir/a.txt')).toBe(true);
    expect(fnmatchPattern('a?c').test('abc')).toBe(true);
    expect(fnmatchPattern('[!a]*').test('abc')).toBe(false);
    expect(fnmatchPattern('a.c').test('abc')).toBe(false);
    const ignored = ignoredBy('*.tmp\nsecret');
    expect(['x.tmp', 'd/secret', '.hidden', 'd/.git'].map(ignored)).toEqual([true, true, true, true]);
    expect(ignored('d/config.txt')).toBe(false);
  });

  it('reads files, not symbolic links, and never a folder outside the root', async () => {
    const folder = path.join(root, 'configs');
    fs.mkdirSync(path.join(folder, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'sub', 'a.txt'), 'hello');
    fs.writeFileSync(path.join(folder, 'bin'), Buffer.from([0xff, 0xfe]));
    fs.symlinkSync('/etc/hostname', path.join(folder, 'link'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
    fs.symlinkSync(outside, path.join(root, 'escape'));
    const files = await readFolder(root, folder, ignoredBy(''), () => undefined);
    expect(files.map((f) => [f.path, f.size, f.text])).toEqual([
      ['bin', 2, null],
      ['sub/a.txt', 5, 'hello'],
    ]);
    await expect(readFolder(root, path.join(root, 'escape'), ignoredBy(''), () => undefined)).rejects.toThrow(
      /outside DATA_SOURCES_ROOT/,
    );
    await expect(readFolder(root, path.join(root, 'none'), ignoredBy(''), () => undefined)).rejects.toThrow(
      /does not exist/,
    );
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
