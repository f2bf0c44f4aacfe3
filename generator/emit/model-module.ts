import { ownsColumn } from '../../runtime/kinds/index.js';
import { Project, VariableDeclarationKind, type SourceFile } from 'ts-morph';
import type { FieldSpec, ModelSpec } from '../../runtime/spec.js';
import { toLiteral } from '../literal.js';
import { apiSegment } from '../names.js';
import { GENERATED_HEADER } from './header.js';
import { choiceTypeName, choiceUnion, modelNames, readType, rowType, writeType } from './types.js';

const project = new Project({ useInMemoryFileSystem: true });

/** Emits `generated/<app>/<model>.ts`: types, the typed table accessor, the spec and the route mounting. */
export function emitModelModule(model: ModelSpec, models: Map<string, ModelSpec>, source: string): string {
  const names = modelNames(model);
  const file = project.createSourceFile(`/${names.file}.ts`, '', { overwrite: true });

  const runtimeTypes = ['ModelSpec', 'RelatedInput', 'TagInput'];
  if (model.path) runtimeTypes.push('ModelHandlers');
  if (model.path) file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: 'express', namedImports: ['Router'] });
  file.addImportDeclaration({
    isTypeOnly: true,
    moduleSpecifier: relativeModule(modelNames(model).file, 'runtime/spec', '..'),
    namedImports: runtimeTypes.sort(),
  });
  addNestedImports(file, model, models);

  for (const field of model.fields) {
    if (field.kind !== 'choice') continue;
    file.addTypeAlias({
      isExported: true,
      name: choiceTypeName(model, field),
      type: choiceUnion(field),
      docs: [
        `Values of ${model.verboseName} \`${field.name}\`: ${field.choices.map(([v, l]) => `${v} (${l})`).join(', ')}.`,
      ],
    });
  }

  file.addInterface({
    isExported: true,
    name: names.row,
    docs: [`A row of table \`${model.table}\`.`],
    properties: [
      { name: 'id', type: 'number' },
      ...model.fields.filter(ownsColumn).flatMap((f) => rowProperties(model, f)),
      ...(model.tree
        ? [
            { name: '_depth', type: 'number', docs: ['Depth in the tree; roots are 0.'] },
            { name: '_path', type: 'string', docs: ['Materialised path; sorts depth-first, siblings by name.'] },
          ]
        : []),
      ...(model.features.includes('custom_fields')
        ? [{ name: 'custom_field_data', type: 'Record<string, unknown>' }]
        : []),
      ...(model.features.includes('change_logging')
        ? [
            { name: 'created', type: 'string | null' },
            { name: 'last_updated', type: 'string | null' },
          ]
        : []),
    ],
  });

  const writable = model.fields.filter((f) => !f.readOnly && !f.hidden);
  file.addInterface({
    isExported: true,
    name: names.write,
    docs: [`The body that creates or replaces a ${model.verboseName}; a PATCH may leave out any key.`],
    properties: [
      ...writable.map((f) => ({
        name: f.name,
        type: writeType(model, f),
        hasQuestionToken: !f.required,
        docs: docsOf(f),
      })),
      ...(model.features.includes('tags')
        ? [
            { name: 'tags', type: 'TagInput[]', hasQuestionToken: true, docs: ['Replaces every tag.'] },
            { name: 'add_tags', type: 'TagInput[]', hasQuestionToken: true, docs: ['Adds tags, keeps the others.'] },
            { name: 'remove_tags', type: 'TagInput[]', hasQuestionToken: true, docs: ['Removes these tags.'] },
          ]
        : []),
      ...(model.features.includes('custom_fields')
        ? [{ name: 'custom_fields', type: 'Record<string, unknown>', hasQuestionToken: true }]
        : []),
      { name: 'changelog_message', type: 'string', hasQuestionToken: true, docs: ['Stored with the change record.'] },
    ],
  });

  for (const [name, keys, doc] of [
    [model.className, model.output, `A ${model.verboseName} as the API returns it.`],
    [names.brief, model.brief, `The brief representation of a ${model.verboseName} (\`?brief=true\`).`],
    [`${model.className}Nested`, model.nested, `A ${model.verboseName} nested in another object.`],
  ] as const) {
    file.addInterface({
      isExported: true,
      name,
      docs: [doc],
      properties: keys.map((key) => ({ name: key, type: keyType(model, key, models) })),
    });
  }

  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [model.description ?? `The ${model.verboseName} model.`],
    declarations: [{ name: names.spec, type: 'ModelSpec', initializer: toLiteral(model) }],
  });

  if (model.path) addRouteMounting(file, model, names.mount);
  return `${GENERATED_HEADER}\n// Source: ${source} (${model.label})\n${file.getFullText()}`;
}

/** A field's columns: IP fields keep their family, range and mask length beside the text. */
function rowProperties(model: ModelSpec, field: FieldSpec): { name: string; type: string; docs: string[] }[] {
  const column = field.column!;
  const own = { name: column, type: rowType(model, field), docs: docsOf(field) };
  const orNull = field.nullable ? ' | null' : '';
  if (field.kind === 'ip_network' || field.kind === 'ip_interface') {
    return [
      own,
      { name: `${column}_family`, type: `4 | 6${orNull}`, docs: [] },
      { name: `${column}_start`, type: `string${orNull}`, docs: ['First address, 32 hex digits.'] },
      { name: `${column}_end`, type: `string${orNull}`, docs: ['Last address, 32 hex digits.'] },
      { name: `${column}_len`, type: `number${orNull}`, docs: ['Mask length.'] },
    ];
  }
  if (field.kind === 'string' && field.natural) {
    return [own, { name: `${column}_natural`, type: 'string', docs: ['Natural sort key.'] }];
  }
  return [own];
}

function docsOf(field: FieldSpec): string[] {
  const text = field.description ?? field.helpText;
  return text ? [text] : [];
}

function keyType(model: ModelSpec, key: string, models: Map<string, ModelSpec>): string {
  const field = model.fields.find((f) => f.name === key);
  if (field) return readType(model, field, models);
  switch (key) {
    case 'id':
      return model.stringId ? 'string' : 'number';
    case '_depth':
      return 'number';
    case 'url':
    case 'display_url':
    case 'display':
      return 'string';
    case 'created':
    case 'last_updated':
      return 'string | null';
    case 'custom_fields':
      return 'Record<string, unknown>';
    case 'tags':
      return 'Record<string, unknown>[]';
    default:
      return 'number';
  }
}

function addNestedImports(file: SourceFile, model: ModelSpec, models: Map<string, ModelSpec>): void {
  const targets = new Map<string, ModelSpec>();
  for (const field of model.fields) {
    const related = field.kind === 'fk' || (field.kind === 'm2m' && !field.by);
    if (!related || field.target === model.label) continue;
    const target = models.get(field.target);
    if (target) targets.set(target.label, target);
  }
  for (const target of [...targets.values()].sort((a, b) => a.label.localeCompare(b.label))) {
    const path = relativeModule(modelNames(model).file, modelNames(target).file);
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: path, namedImports: [`${target.className}Nested`] });
  }
}

function addRouteMounting(file: SourceFile, model: ModelSpec, name: string): void {
  const list = `/${apiSegment(model)}/${model.path}/`;
  const writes = model.readOnly
    ? ''
    : '\n    .post(handlers.create)\n    .put(handlers.bulkUpdate)\n    .patch(handlers.bulkUpdate)\n    .delete(handlers.bulkDelete)';
  const detailWrites = model.readOnly
    ? ''
    : '\n    .put(handlers.update)\n    .patch(handlers.update)\n    .delete(handlers.destroy)';
  // A locate action is at the app's root, mounted by the runtime with the app's other root endpoints.
  const below = model.actions.filter((action) => action.kind !== 'locate');
  const actions = below.map((action) => {
    const handlers = `handlers.action('${action.name}')`;
    const get = action.kind === 'run' ? '' : `\n    .get(${handlers}.get)`;
    const post = action.kind === 'list' ? '' : `\n    .post(${handlers}.post)`;
    return `router\n    .route('${list}:id/${action.name}/')${get}${post}\n    .options(${handlers}.options)\n    .all(handlers.methodNotAllowed);`;
  });
  const actionDocs = below.length
    ? `, and the actions ${below.map((a) => `\`${a.name}/\``).join(', ')} below each object`
    : '';
  file.addFunction({
    isExported: true,
    name,
    docs: [`Mounts \`${list}\` and \`${list}{id}/\` (relative to the API root)${actionDocs}.`],
    parameters: [
      { name: 'router', type: 'Router' },
      { name: 'handlers', type: 'ModelHandlers' },
    ],
    returnType: 'void',
    statements: [
      `router\n    .route('${list}')\n    .get(handlers.list)${writes}\n    .options(handlers.options)\n    .all(handlers.methodNotAllowed);`,
      `router\n    .route('${list}:id/')\n    .get(handlers.retrieve)${detailWrites}\n    .options(handlers.options)\n    .all(handlers.methodNotAllowed);`,
      ...actions,
    ],
  });
}

/** The import specifier of `to` (a path under the output folder, or above it with `up`) from module `from`. */
function relativeModule(from: string, to: string, up = ''): string {
  const depth = from.split('/').length - 1;
  const target = up ? `${up}/${to}` : to;
  const fromParts = from.split('/').slice(0, depth);
  const toParts = target.split('/');
  while (fromParts.length > 0 && toParts.length > 1 && fromParts[0] === toParts[0]) {
    fromParts.shift();
    toParts.shift();
  }
  const prefix = fromParts.length === 0 ? './' : '../'.repeat(fromParts.length);
  return `${prefix}${toParts.join('/')}.js`;
}
