import { checkTemplate } from '../events/templates.js';
import { compileListTemplate, TemplateRenderError } from '../events/template-stream.js';
import type { DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * Saved filters, export templates, custom links and table configs: NetBox's `clean()` checks of each, and the
 * `usable` filter of the objects a user may share (saved filters, table configs).
 */

/** NetBox's JINJA_ENV_PARAMS_ALLOWED: the names allowed, and for `undefined` the values allowed. */
const ENVIRONMENT_PARAMS = new Set([
  'auto_reload',
  'autoescape',
  'cache_size',
  'enable_async',
  'keep_trailing_newline',
  'lstrip_blocks',
  'optimized',
  'trim_blocks',
  'block_start_string',
  'block_end_string',
  'comment_start_string',
  'comment_end_string',
  'line_comment_prefix',
  'line_statement_prefix',
  'newline_sequence',
  'variable_start_string',
  'variable_end_string',
  'undefined',
]);
const UNDEFINED_CLASSES = [
  'jinja2.ChainableUndefined',
  'jinja2.DebugUndefined',
  'jinja2.StrictUndefined',
  'jinja2.Undefined',
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** NetBox's SavedFilter.clean(): the parameters are keyword arguments. */
function validateSavedFilter(item: WriteItemContext): void {
  if (!isObject(item.values.parameters)) {
    item.errors.add('parameters', 'Filter parameters must be stored as a dictionary of keyword arguments.');
  }
}

/**
 * NetBox's RenderTemplateMixin.clean() (environment parameters from its allowed list; Handlebars itself takes
 * none) and the template compiling in the one Handlebars environment, reported with its line.
 */
export function checkRenderTemplate(item: WriteItemContext): void {
  const { values, errors } = item;
  const params = values.environment_params ?? {};
  if (!isObject(params)) errors.add('environment_params', 'Enter a valid JSON object.');
  else {
    for (const [key, value] of Object.entries(params)) {
      if (key === 'finalize') {
        errors.add(
          'environment_params',
          `The "${key}" parameter is deprecated and may not be set on new or modified templates.`,
        );
      } else if (!ENVIRONMENT_PARAMS.has(key)) {
        errors.add('environment_params', `"${key}" is not a permitted Jinja2 environment parameter.`);
      } else if (key === 'undefined' && !UNDEFINED_CLASSES.includes(value as string)) {
        errors.add(
          'environment_params',
          `Invalid value "${String(value)}" for parameter "${key}". Allowed values are: ${UNDEFINED_CLASSES.join(', ')}`,
        );
      }
    }
  }
  try {
    compileListTemplate(String(values.template_code ?? ''));
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
    errors.add('template_code', error.message);
  }
}

/** NetBox's ExportTemplate.clean(): `table` names the list's own CSV; then the template checks. */
function validateExportTemplate(item: WriteItemContext): void {
  const name = String(item.values.name ?? '');
  if (name.toLowerCase() === 'table') {
    item.errors.add('name', `"${name}" is a reserved name. Please choose a different name.`);
  }
  checkRenderTemplate(item);
}

/** Custom links: the text and URL templates compile. */
function validateCustomLink(item: WriteItemContext): void {
  for (const name of ['link_text', 'link_url']) {
    const problem = checkTemplate(String(item.values[name] ?? ''));
    if (problem) item.errors.add(name, problem);
  }
}

/**
 * NetBox's TableConfig.clean(): the table is the model's (`<ClassName>Table`, as NetBox names its tables) and
 * the columns and ordering name its columns. This service has no table classes: a model's columns are its
 * fields and counts, with NetBox's `pk`, `actions` and `id`.
 */
function validateTableConfig(item: WriteItemContext): void {
  const { values, errors, schema } = item;
  const objectType = values.object_type as string | null | undefined;
  const table = String(values.table ?? '');
  if (!objectType || !table) return;
  const model = schema.models.get(objectType);
  if (!model || table !== `${model.spec.className}Table`) {
    errors.add('table', `Unknown table: ${table}`);
    return;
  }
  const columns = new Set(['pk', 'id', 'actions', ...model.spec.output, ...model.spec.counts.map((c) => c.name)]);
  for (const name of (values.ordering as string[] | null) ?? []) {
    const column = name.startsWith('-') ? name.slice(1) : name;
    if (!columns.has(column)) {
      errors.add('ordering', `Unknown column: ${column}`);
      return;
    }
  }
  for (const name of (values.columns as string[] | null) ?? []) {
    if (!columns.has(name)) {
      errors.add('columns', `Unknown column: ${name}`);
      return;
    }
  }
}

/**
 * NetBox's `usable` filter of saved filters and table configs: true selects the enabled ones the requesting
 * user may apply (shared, or their own), false the others.
 */
const usableSharedObjects: FilterFunction = (ctx, model, values) => {
  const shared = model.spec.shared;
  const wanted = values[0]!.toLowerCase();
  if (!shared) return Promise.resolve('This model has no shared objects.');
  if (!['true', 'false', '1', '0'].includes(wanted)) return Promise.resolve(`"${values[0]}" is not a valid boolean.`);
  const column = (name: string): string => `t0.${model.fields.get(name)?.column ?? name}`;
  const flag = column(shared.flag);
  const owner = column(shared.user);
  const enabled = column('enabled');
  const userId = ctx.user?.id ?? null;
  const usable = wanted === 'true' || wanted === '1';
  return Promise.resolve((query) => {
    if (usable) {
      void query.where(enabled, true).where((mine) => {
        void mine.where(flag, true);
        if (userId !== null) void mine.orWhere(owner, userId);
      });
    } else {
      void query.where((other) => {
        void other.where(enabled, false).orWhere((unshared) => {
          void unshared.where(flag, false);
          if (userId !== null) void unshared.where((q) => void q.whereNull(owner).orWhereNot(owner, userId));
        });
      });
    }
  });
};

export const savedObjectFunctions = {
  'extras.validateSavedFilter': { kind: 'validator', fn: validateSavedFilter, batch: true },
  'extras.validateExportTemplate': { kind: 'validator', fn: validateExportTemplate, batch: true },
  'extras.validateCustomLink': { kind: 'validator', fn: validateCustomLink, batch: true },
  'extras.validateTableConfig': { kind: 'validator', fn: validateTableConfig, batch: true },
  'extras.usableSharedObjects': { kind: 'filter', fn: usableSharedObjects },
} satisfies Record<string, DomainEntry>;
