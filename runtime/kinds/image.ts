import type { ImageField } from '../spec.js';
import { defineKind, fail, ok } from './kind.js';

/**
 * An uploaded image (multipart only): stored under MEDIA_ROOT/`upload_to`, read as its absolute URL; the
 * named integer fields receive its dimensions and size.
 */
export const imageKind = defineKind<ImageField>({
  kinds: ['image'],
  types: ['image'],
  properties: ['upload_to', 'file_name', 'height_field', 'width_field', 'size_field'],
  resolve(def, ctx) {
    if (!def.upload_to) ctx.error('upload_to', "missing property 'upload_to'");
    return {
      ...ctx.base,
      kind: 'image',
      required: ctx.required,
      uploadTo: def.upload_to ?? '',
      fileName: def.file_name ?? '{file}',
      ...(def.height_field ? { heightField: def.height_field } : {}),
      ...(def.width_field ? { widthField: def.width_field } : {}),
      ...(def.size_field ? { sizeField: def.size_field } : {}),
    };
  },
  checkReferences(field, byName, error) {
    for (const [property, name] of [
      ['height_field', field.heightField],
      ['width_field', field.widthField],
      ['size_field', field.sizeField],
    ] as const) {
      const target = name === undefined ? undefined : byName.get(name);
      if (name !== undefined && (target?.kind !== 'integer' || !target.readOnly))
        error(property, `'${name}' is not a read-only integer field`);
    }
    for (const [, placeholder] of field.fileName.matchAll(/\{([^}]*)\}/g)) {
      for (const name of placeholder!.split('|')) {
        if (name !== 'file' && !byName.get(name)?.column) error('file_name', `'${name}' is not a stored field`);
      }
    }
  },
  column: () => ({ type: 'string', maxLength: 100 }),
  valueType: () => 'string',
  readSchema: () => ({ type: 'string', format: 'uri', description: 'Absolute URL of the stored file.' }),
  writeSchema: () => ({
    type: 'string',
    format: 'binary',
    description: 'A PNG, JPEG, GIF or WebP file, sent as multipart/form-data.',
  }),
  parse: (_field, value) =>
    isUploadedFile(value) ? ok(value) : fail('The submitted data was not a file. Check the encoding type on the form.'),
  options(_field, meta) {
    meta.type = 'image upload';
  },
  constraintValue: () => 'text',
});

/** An uploaded file as the multipart parser hands it over. */
export interface UploadedFile {
  originalName: string;
  size: number;
  buffer: Buffer;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    Buffer.isBuffer((value as UploadedFile).buffer) &&
    typeof (value as UploadedFile).originalName === 'string'
  );
}
