import { describe, expect, it } from 'vitest';
import { cellText } from '../../../runtime/http/export-csv.js';
import { safeLink } from '../../../runtime/http/custom-links.js';

describe('CSV cells of the list export', () => {
  it('writes values as NetBox’s table export does', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(true)).toBe('True');
    expect(cellText(3)).toBe('3');
    expect(cellText({ value: 'active', label: 'Active' })).toBe('Active');
    expect(cellText({ id: 1, display: 'Site 1', name: 'x' })).toBe('Site 1');
    expect(cellText([{ name: 'a' }, { name: 'b' }])).toBe('a,b');
    expect(cellText({ ntp: ['192.0.2.1'] })).toBe('{"ntp":["192.0.2.1"]}');
  });
});

describe('custom link URLs', () => {
  it('quote as Python’s urllib.parse.quote with NetBox’s safe characters', () => {
    expect(safeLink('https://example.com/a b?q=ü&x=[1]#top')).toBe('https://example.com/a%20b?q=%C3%BC&x=[1]#top');
    expect(safeLink('/relative/path')).toBe('/relative/path');
  });

  it('drop a scheme NetBox does not allow', () => {
    expect(safeLink('javascript:alert(1)')).toBe('');
    expect(safeLink('ssh://host')).toBe('ssh://host');
  });
});
