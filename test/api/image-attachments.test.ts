import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { nextSeq, TINY_PNG } from '../support/fixtures.js';

const INVALID = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

/** A 1×1 GIF. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAA////IfkEAQAAAAAsAAAAAAEAAQAAAgJEAQA7', 'base64');
/** JPEG headers up to a baseline start-of-frame of 3×2 pixels (what the service reads). */
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc00011080002000303012200021101031101ffd9', 'hex');
/** A lossless WebP of 5×4 pixels (VP8L header). */
const WEBP = (() => {
  const bits = (5 - 1) | ((4 - 1) << 14);
  const header = Buffer.alloc(30);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(22, 4);
  header.write('WEBPVP8L', 8, 'latin1');
  header.writeUInt32LE(10, 16);
  header[20] = 0x2f;
  header.writeUInt32LE(bits, 21);
  return header;
})();
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');

const file = (data: Buffer, name: string, type = 'application/octet-stream'): File => new File([data], name, { type });

/**
 * Image attachments: multipart uploads checked to be images, stored under MEDIA_ROOT with generated names,
 * served back, and removed with the attachment or its parent.
 */
describe.each(DIALECTS)('image attachments on %s', (dialect) => {
  let app: TestApp;
  const list = '/api/extras/image-attachments/';
  const media = (): string => app.context.settings.MEDIA_ROOT;
  const stored = (): string[] => {
    const folder = path.join(media(), 'image-attachments');
    return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
  };
  const site = async (): Promise<{ id: number; name: string }> => {
    const seq = nextSeq();
    const response = await app.api.post('/api/dcim/sites/', { name: `Img site ${seq}`, slug: `img-site-${seq}` });
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const upload = (body: Record<string, unknown>) => app.api.post(list, body);

  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { MAX_UPLOAD_SIZE: 4096 } });
  });
  afterAll(async () => app?.close());

  it('stores an upload, reads its dimensions and serves it at an absolute URL', async () => {
    const parent = await site();
    const response = await upload({
      object_type: 'dcim.site',
      object_id: parent.id,
      name: 'Floor plan',
      description: 'Ground floor',
      image: file(TINY_PNG, 'plan.png', 'image/png'),
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      display: 'Floor plan',
      object_type: 'dcim.site',
      object_id: parent.id,
      parent: { id: parent.id, display: parent.name },
      name: 'Floor plan',
      description: 'Ground floor',
      image_height: 1,
      image_width: 1,
      image_size: TINY_PNG.length,
      image: `${app.baseUrl}/media/image-attachments/site_${parent.id}_Floor_plan.png`,
    });
    expect(response.body).not.toHaveProperty('display_url');
    const served = await fetch(response.body.image);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(TINY_PNG)).toBe(true);

    const brief = await app.api.get(`${list}${response.body.id}/?brief=1`);
    expect(Object.keys(brief.body)).toEqual(['id', 'url', 'display', 'name', 'image', 'description']);
    const filtered = await app.api.get(`${list}?object_type=dcim.site&object_id=${parent.id}`);
    expect(filtered.body.count).toBe(1);
  });

  it.each([
    ['GIF', GIF, 'gif', 1, 1],
    ['JPEG', JPEG, 'jpg', 3, 2],
    ['WebP', WEBP, 'webp', 5, 4],
  ])('accepts %s images', async (_format, data, extension, width, height) => {
    const parent = await site();
    // The extension comes from the content, not from the client's file name.
    const response = await upload({ object_type: 'dcim.site', object_id: parent.id, image: file(data, 'upload.bin') });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ image_width: width, image_height: height, image_size: data.length });
    expect(response.body.image).toMatch(new RegExp(`/site_${parent.id}_upload\\.${extension}$`));
    // Without a name, the display is the stored file name without its object prefix.
    expect(response.body.display).toBe(`upload.${extension}`);
  });

  it.each([
    ['an SVG image', SVG, 'drawing.svg'],
    ['text named like a PNG', Buffer.from('hello, not an image'), 'fake.png'],
    ['a truncated PNG', TINY_PNG.subarray(0, 12), 'cut.png'],
  ])('refuses %s and stores nothing', async (_what, data, name) => {
    const parent = await site();
    const before = stored();
    const response = await upload({ object_type: 'dcim.site', object_id: parent.id, image: file(data, name) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ image: [INVALID] });
    expect(stored()).toEqual(before);
    expect((await app.api.get(`${list}?object_id=${parent.id}`)).body.count).toBe(0);
  });

  it('never lets client-supplied names escape the media folder', async () => {
    const parent = await site();
    const response = await upload({
      object_type: 'dcim.site',
      object_id: parent.id,
      name: '../../../../etc/passwd',
      image: file(TINY_PNG, '../../../evil.png'),
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.image).toBe(`${app.baseUrl}/media/image-attachments/site_${parent.id}_etcpasswd.png`);
    const named = await upload({
      object_type: 'dcim.site',
      object_id: parent.id,
      image: file(TINY_PNG, '..\\..\\x.png'),
    });
    expect(named.body.image).toMatch(/\/media\/image-attachments\/site_\d+_x\.png$/);
    // The same name twice gets a suffix instead of overwriting.
    const again = await upload({ object_type: 'dcim.site', object_id: parent.id, image: file(TINY_PNG, 'x.png') });
    expect(again.body.image).toMatch(/\/site_\d+_x_[0-9a-f]{7}\.png$/);
    for (const name of fs.readdirSync(path.join(media(), 'image-attachments'))) expect(name).toMatch(/^[\w-]+\.\w+$/);
    expect((await fetch(`${app.baseUrl}/media/../package.json`)).status).toBe(404);
  });

  it('answers 413 beyond MAX_UPLOAD_SIZE and stores nothing', async () => {
    const parent = await site();
    const before = stored();
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(5000)]);
    const response = await upload({ object_type: 'dcim.site', object_id: parent.id, image: file(big, 'big.png') });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: 'Uploaded file exceeds the limit of 4096 bytes.' });
    expect(stored()).toEqual(before);
  });

  it('validates the parent and the image field', async () => {
    const parent = await site();
    const json = await app.api.post(list, { object_type: 'dcim.site', object_id: parent.id, image: 'x.png' });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ image: ['The submitted data was not a file. Check the encoding type on the form.'] });
    const missing = await upload({ object_type: 'dcim.site', object_id: parent.id, name: 'no file', image: null });
    expect(missing.status).toBe(400);
    expect(missing.body.image).toBeDefined();
    const tenant = await upload({ object_type: 'tenancy.tenant', object_id: 1, image: file(TINY_PNG, 'a.png') });
    expect(tenant.status).toBe(400);
    expect(tenant.body).toEqual({ object_type: ['Invalid content type: tenancy.tenant'] });
    const nowhere = await upload({ object_type: 'dcim.site', object_id: 999999, image: file(TINY_PNG, 'a.png') });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.object_id).toBeDefined();
  });

  it('renames with JSON, replaces the file with a form, and deletes the file with the attachment', async () => {
    const parent = await site();
    const created = await upload({ object_type: 'dcim.site', object_id: parent.id, image: file(TINY_PNG, 'one.png') });
    const url = `${list}${created.body.id}/`;
    const renamed = await app.api.patch(url, { name: 'Renamed', description: 'd' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', image: created.body.image });
    const oldFile = path.join(media(), 'image-attachments', path.basename(created.body.image as string));
    expect(fs.existsSync(oldFile)).toBe(true);

    const replaced = await app.api.patch(url, { image: file(GIF, 'two.gif') });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ image_width: 1, image_size: GIF.length });
    expect(replaced.body.image).toMatch(/_Renamed\.gif$/);
    expect(fs.existsSync(oldFile)).toBe(false);

    expect((await app.api.delete(url)).status).toBe(204);
    expect((await fetch(replaced.body.image)).status).toBe(404);
    expect(stored().some((name) => name.includes('Renamed'))).toBe(false);
  });

  it('deletes attachments and their files with the parent object', async () => {
    const parent = await site();
    const first = await upload({ object_type: 'dcim.site', object_id: parent.id, image: file(TINY_PNG, 'a.png') });
    const second = await upload({ object_type: 'dcim.site', object_id: parent.id, image: file(GIF, 'b.gif') });
    expect((await app.api.delete(`/api/dcim/sites/${parent.id}/`)).status).toBe(204);
    for (const attachment of [first.body, second.body]) {
      expect((await app.api.get(`${list}${attachment.id}/`)).status).toBe(404);
      expect((await fetch(attachment.image)).status).toBe(404);
    }
  });

  it('takes optional images on other models (device type front and rear images) and clears them', async () => {
    const seq = nextSeq();
    const maker = await app.api.post('/api/dcim/manufacturers/', { name: `Maker ${seq}`, slug: `maker-${seq}` });
    const created = await app.api.post('/api/dcim/device-types/', {
      manufacturer: maker.body.id,
      model: `Box ${seq}`,
      slug: `box-${seq}`,
      front_image: file(TINY_PNG, 'front view.png'),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.front_image).toBe(`${app.baseUrl}/media/devicetype-images/front_view.png`);
    expect(created.body.rear_image).toBeNull();
    const front = path.join(media(), 'devicetype-images', 'front_view.png');
    expect(fs.existsSync(front)).toBe(true);
    // JSON writes leave the image alone, or clear it with null (the file goes too).
    const renamed = await app.api.patch(`/api/dcim/device-types/${created.body.id}/`, { part_number: 'P1' });
    expect(renamed.body.front_image).toBe(created.body.front_image);
    const cleared = await app.api.patch(`/api/dcim/device-types/${created.body.id}/`, { front_image: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.front_image).toBeNull();
    expect(fs.existsSync(front)).toBe(false);
  });

  it('describes the upload in OPTIONS', async () => {
    const response = await app.api.options(list);
    expect(response.body.parses).toContain('multipart/form-data');
    expect(response.body.actions.POST.image).toMatchObject({ type: 'image upload', required: true, read_only: false });
    expect(response.body.actions.POST.image_height).toMatchObject({ read_only: true });
  });
});
