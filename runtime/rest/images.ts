import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Uploaded images: recognising the format from the bytes (never from the client's file name or content
 * type), reading the dimensions, and storing the file under MEDIA_ROOT with a safe name.
 */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

export { isUploadedFile, type UploadedFile } from '../kinds/image.js';

export const INVALID_IMAGE =
  'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

/** The format and size of a PNG, JPEG, GIF or WebP image; null for anything else (SVG included). */
export function sniffImage(data: Buffer): ImageInfo | null {
  const info = png(data) ?? gif(data) ?? jpeg(data) ?? webp(data);
  return info && info.width > 0 && info.height > 0 ? info : null;
}

function png(d: Buffer): ImageInfo | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (d.length < 24 || !d.subarray(0, 8).equals(signature) || d.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { format: 'png', width: d.readUInt32BE(16), height: d.readUInt32BE(20) };
}

function gif(d: Buffer): ImageInfo | null {
  const magic = d.toString('latin1', 0, 6);
  if (d.length < 10 || (magic !== 'GIF87a' && magic !== 'GIF89a')) return null;
  return { format: 'gif', width: d.readUInt16LE(6), height: d.readUInt16LE(8) };
}

/** Walks the JPEG segments up to the first start-of-frame marker. */
function jpeg(d: Buffer): ImageInfo | null {
  if (d.length < 4 || d[0] !== 0xff || d[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 < d.length) {
    if (d[offset] !== 0xff) return null;
    const marker = d[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = d.readUInt16BE(offset + 2);
    const startOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (startOfFrame) return { format: 'jpeg', height: d.readUInt16BE(offset + 5), width: d.readUInt16BE(offset + 7) };
    if (length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

function webp(d: Buffer): ImageInfo | null {
  if (d.length < 30 || d.toString('latin1', 0, 4) !== 'RIFF' || d.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = d.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && d[23] === 0x9d && d[24] === 0x01 && d[25] === 0x2a) {
    return { format: 'webp', width: d.readUInt16LE(26) & 0x3fff, height: d.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && d[20] === 0x2f) {
    const bits = d.readUInt32LE(21);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { format: 'webp', width: d.readUIntLE(24, 3) + 1, height: d.readUIntLE(27, 3) + 1 };
  }
  return null;
}

const EXTENSIONS: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/** Django's get_valid_filename, stricter: ASCII letters, digits, `-` and `_` only. */
export function safeStem(raw: string): string {
  const stem = raw
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .replace(/^[-_]+/, '');
  return stem.slice(0, 60) || 'image';
}

/** A file name's stem (no folders, no extension). */
export function fileStem(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Writes an image below `<mediaRoot>/<folder>/` as `<stem>.<ext>` (the extension from the detected format),
 * adding a random suffix when the name is taken; never overwrites and never leaves the folder. Returns the
 * path relative to the media root, with `/` separators.
 */
export function storeImage(mediaRoot: string, folder: string, stem: string, format: ImageFormat, data: Buffer): string {
  const root = path.resolve(mediaRoot);
  const directory = path.resolve(root, folder);
  if (!directory.startsWith(root + path.sep)) throw new Error(`upload folder escapes MEDIA_ROOT: ${folder}`);
  fs.mkdirSync(directory, { recursive: true });
  const safe = safeStem(stem);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const suffix = attempt === 0 ? '' : `_${randomBytes(4).toString('hex').slice(0, 7)}`;
    const name = `${safe}${suffix}.${EXTENSIONS[format]}`;
    try {
      fs.writeFileSync(path.join(directory, name), data, { flag: 'wx' });
      return path.posix.join(folder.split(path.sep).join('/'), name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error('could not find a free file name');
}

/** Removes a stored file (relative to the media root); missing files are fine. */
export function removeStoredFile(mediaRoot: string, relative: string): void {
  const root = path.resolve(mediaRoot);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return;
  fs.rmSync(file, { force: true });
}
