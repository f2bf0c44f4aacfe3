import { parse as parseYaml } from 'yaml';
import { now } from '../db/clock.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { checkTemplate, renderStoredTemplate, TemplateLimitError } from '../events/templates.js';
import type { Schema } from '../rest/schema.js';
import { decodeRow } from '../rest/values.js';
import type { Knex } from 'knex';
import { configContexts } from './extras.js';
import { schemaDefinitionError, schemaValueError } from './modules.js';
import type { ActionParent, DomainEntry, PrepareFunction, RunContext, RunFunction, WriteItemContext } from './types.js';

/**
 * Config templates, config context profiles and the values they and config contexts take from data files
 * (NetBox's RenderTemplateMixin, ConfigTemplate, ConfigContextProfile and SyncedDataMixin), and rendering:
 * a template's render/, and render-config/ of devices and virtual machines (NetBox's RenderConfigMixin).
 * Templates are Handlebars, rendered in the webhooks' environment (runtime/events/templates.ts) within
 * RENDER_LIMITS.
 */

type Row = Record<string, unknown>;

/** How long a render may take and how much text it may make. */
export const RENDER_LIMITS = { timeoutMs: 5000, maxOutput: 10 * 1024 * 1024 } as const;

/** NetBox's JINJA_ENV_PARAMS_ALLOWED (extras/constants.py): the only keys environment_params may have. */
const ENVIRONMENT_PARAMS: Record<string, readonly string[] | null> = {
  auto_reload: null,
  autoescape: null,
  cache_size: null,
  enable_async: null,
  keep_trailing_newline: null,
  lstrip_blocks: null,
  optimized: null,
  trim_blocks: null,
  block_start_string: null,
  block_end_string: null,
  comment_start_string: null,
  comment_end_string: null,
  line_comment_prefix: null,
  line_statement_prefix: null,
  newline_sequence: null,
  variable_start_string: null,
  variable_end_string: null,
  undefined: ['jinja2.ChainableUndefined', 'jinja2.DebugUndefined', 'jinja2.StrictUndefined', 'jinja2.Undefined'],
};

/** Why environment_params are refused (NetBox's RenderTemplateMixin.clean()), or null. */
export function environmentParamsError(params: unknown): string | null {
  if (params === null || params === undefined) return null;
  if (typeof params !== 'object' || Array.isArray(params)) return 'Environment parameters must be a JSON object.';
  for (const [key, value] of Object.entries(params)) {
    if (key === 'finalize')
      return `The "${key}" parameter is deprecated and may not be set on new or modified templates.`;
    if (!(key in ENVIRONMENT_PARAMS)) return `"${key}" is not a permitted Jinja2 environment parameter.`;
    const allowed = ENVIRONMENT_PARAMS[key];
    if (allowed && !allowed.includes(value as string))
      return `Invalid value "${String(value)}" for parameter "${key}". Allowed values are: ${allowed.join(', ')}`;
  }
  return null;
}

/**
 * Renders a template's code as NetBox renders its Jinja2 (utilities/jinja2.py render_jinja2): a missing value is
 * nothing unless `undefined` is StrictUndefined, the code's one trailing newline is dropped unless keep_trailing_newline,
 * and CRLF line ends become LF. Throws an Error whose message says what failed (and where).
 */
export function renderTemplateCode(code: string, params: unknown, context: Record<string, unknown>): string {
  const options = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  const source = options.keep_trailing_newline === true ? code : code.replace(/\r?\n$/, '');
  const output = renderStoredTemplate(source, context, {
    ...RENDER_LIMITS,
    strict: options.undefined === 'jinja2.StrictUndefined',
  });
  return output.replaceAll('\r\n', '\n');
}

/** A data file's source, path and text (null when it is not UTF-8), or undefined when it does not exist. */
async function readDataFile(
  q: Knex,
  schema: Schema,
  id: number,
): Promise<{ source: number; path: string; text: string | null } | undefined> {
  const model = schema.model('core.datafile');
  const row = (await q(model.table).where('id', id).first()) as Row | undefined;
  if (!row) return undefined;
  const values = decodeRow(model.spec.fields, row);
  return { source: Number(values.source), path: String(values.path), text: (values.data as string | null) ?? null };
}

/**
 * NetBox's SyncedDataMixin.clean(): with a data file, the object's data source and path are the file's and
 * `take` copies the file's text into the object (an error goes to the response); without one, nothing is synced.
 */
async function syncFromFile(item: WriteItemContext, take: (text: string | null) => string | null): Promise<void> {
  const fileId = item.values.data_file;
  if (fileId === null || fileId === undefined) {
    Object.assign(item.values, { data_source: null, data_path: '', auto_sync_enabled: false, data_synced: null });
    return;
  }
  const file = await readDataFile(item.q, item.schema, Number(fileId));
  if (!file) return;
  Object.assign(item.values, { data_source: file.source, data_path: file.path, data_synced: now() });
  const error = take(file.text);
  if (error) item.errors.add('data_file', error);
}

/** A data file's text as JSON or YAML (NetBox's DataFile.get_data()). */
function parseData(text: string | null): { value: unknown } | { error: string } {
  if (text === null) return { error: 'The data file is not UTF-8 text.' };
  try {
    return { value: parseYaml(text) as unknown };
  } catch {
    return { error: 'The data file is not valid JSON or YAML.' };
  }
}

/** A template (config or export): its code from its data file, when it has one. */
const syncTemplateCode: PrepareFunction = async (item) => {
  await syncFromFile(item, (text) => {
    if (text === null) return 'The data file is not UTF-8 text.';
    item.values.template_code = text;
    return null;
  });
};

/** A config template: its code from its data file, then checked (it compiles, its environment is allowed). */
const prepareConfigTemplate: PrepareFunction = async (item) => {
  await syncTemplateCode(item);
  if (item.errors.has()) return;
  const paramsError = environmentParamsError(item.values.environment_params);
  if (paramsError) item.errors.add('environment_params', paramsError);
  const codeError = checkTemplate(String(item.values.template_code ?? ''));
  if (codeError) item.errors.add('template_code', `Template error: ${codeError}`);
};

/** A config context profile: its schema from its data file, then checked (NetBox's validate_schema). */
const syncProfileSchema: PrepareFunction = async (item) => {
  await syncFromFile(item, (text) => {
    const data = parseData(text);
    if ('error' in data) return data.error;
    item.values.schema = data.value;
    return null;
  });
  if (item.errors.has()) return;
  const error = schemaDefinitionError(item.values.schema);
  if (error) item.errors.add('schema', error);
};

/**
 * A config context: its data from its data file; then, with a profile that has a schema, the data must satisfy
 * it (NetBox's ConfigContext.clean(): "Data does not conform to profile schema: …").
 */
const syncContextData: PrepareFunction = async (item) => {
  await syncFromFile(item, (text) => {
    const data = parseData(text);
    if ('error' in data) return data.error;
    if (!data.value || typeof data.value !== 'object' || Array.isArray(data.value))
      return 'JSON data must be in object form. Example: {"foo": 123}';
    item.values.data = data.value;
    return null;
  });
  if (item.errors.has() || item.values.profile === null || item.values.profile === undefined) return;
  const profiles = item.schema.model('extras.configcontextprofile');
  const row = (await item.q(profiles.table).where('id', Number(item.values.profile)).first()) as Row | undefined;
  const schema = row ? decodeRow(profiles.spec.fields, row).schema : null;
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return;
  const error = schemaValueError(schema as Record<string, unknown>, item.values.data);
  if (error)
    item.errors.add('__all__', `Data does not conform to profile schema: ${error.replace(/^Invalid schema: /, '')}`);
};

/**
 * NetBox's SyncedDataMixin sync/ action: an object with a data file takes its value from it again (saved through
 * the write path, change-logged); answers the object.
 */
const syncFromDataFile: RunFunction = async (ctx, parent) => {
  if (parent.values.data_file !== null && parent.values.data_file !== undefined) {
    const model = ctx.model;
    await ctx.write.update(model, [{ id: parent.id, input: {} }]);
  }
  return { object: true };
};

/** A config template's fields as rendering needs them. */
async function readTemplate(ctx: RunContext, id: number): Promise<Row | undefined> {
  const model = ctx.schema.model('extras.configtemplate');
  const row = (await ctx.q(model.table).where('id', id).first()) as Row | undefined;
  return row ? { id, ...decodeRow(model.spec.fields, row) } : undefined;
}

/**
 * NetBox's ConfigTemplateRenderMixin.render_configtemplate: the rendered text, as JSON (`configtemplate`,
 * `content`) or as text/plain; a failure to render is a 400 saying why (NetBox answers 500 with the Jinja2
 * error; the message here names the template's problem and never the server's).
 */
async function answerRendered(
  ctx: RunContext,
  template: Row,
  context: Record<string, unknown>,
  media: string,
): Promise<Awaited<ReturnType<RunFunction>>> {
  let content: string;
  try {
    content = renderTemplateCode(String(template.template_code ?? ''), template.environment_params, context);
  } catch (error) {
    const detail = `${error instanceof TemplateLimitError ? 'TemplateLimitError' : 'TemplateError'}: ${(error as Error).message}`;
    if (media === 'text/plain') return { body: detail, contentType: 'text/plain; charset=utf-8', status: 400 };
    return { json: { detail }, status: 400 };
  }
  if (media === 'text/plain') return { body: content, contentType: 'text/plain; charset=utf-8' };
  const [nested] = await ctx.load('extras.configtemplate', ctx.schema.model('extras.configtemplate').spec.nested, [
    Number(template.id),
  ]);
  return { json: { configtemplate: nested ?? null, content } };
}

/** A config template's render/: the request body is the context. */
const renderConfigTemplate: RunFunction = async (ctx, parent, body, media) => {
  const template = await readTemplate(ctx, parent.id);
  if (!template) throw new NotFoundError();
  return answerRendered(ctx, template, body, media);
};

/**
 * render-config/ of a device or virtual machine (NetBox's RenderConfigMixin): the template is the request's
 * `config_template_id` (one the user may view), else the object's, its role's or its platform's (400 without
 * one); the context is the object's rendered config context, the request's other keys over it, and the object
 * under its model's name (`device`, `virtualmachine`) in its REST representation.
 */
const renderObjectConfig: RunFunction = async (ctx, parent, body, media) => {
  const model = ctx.model;
  const name = model.spec.name;
  let templateId: number | null;
  const requested = body.config_template_id;
  if (requested !== undefined && requested !== null && requested !== '' && requested !== 0) {
    const id = Number(requested);
    const templates = ctx.schema.model('extras.configtemplate');
    const query = ctx
      .q({ t0: templates.table })
      .select('t0.id')
      .where('t0.id', Number.isSafeInteger(id) ? id : -1);
    const visible = ctx.restrictView('extras.configtemplate', query)
      ? ((await query.first()) as Row | undefined)
      : undefined;
    if (!visible) return { json: { error: `Config template with ID ${String(requested)} not found.` }, status: 400 };
    templateId = id;
  } else {
    templateId = await assignedTemplate(ctx, parent);
    if (templateId === null) return { json: { error: `No config template found for this ${name}.` }, status: 400 };
  }
  const template = await readTemplate(ctx, templateId);
  if (!template) throw new BadRequestError(`Config template with ID ${templateId} not found.`);
  const contexts = await configContexts(ctx, model, [parent.id]);
  const keys = model.spec.output.filter((key) => key !== 'config_context');
  const [object] = await ctx.load(model.label, keys, [parent.id]);
  const context: Record<string, unknown> = { ...((contexts.get(parent.id) as Row | undefined) ?? {}) };
  for (const [key, value] of Object.entries(body)) if (key !== 'config_template_id') context[key] = value;
  context[name] = object ?? null;
  return answerRendered(ctx, template, context, media);
};

/** NetBox's get_config_template(): the object's template, else its role's, else its platform's. */
async function assignedTemplate(ctx: RunContext, parent: ActionParent): Promise<number | null> {
  const own = parent.values.config_template;
  if (own !== null && own !== undefined) return Number(own);
  for (const [field, label] of [
    ['role', 'dcim.devicerole'],
    ['platform', 'dcim.platform'],
  ] as const) {
    const id = parent.values[field];
    if (id === null || id === undefined) continue;
    const related = ctx.schema.model(label);
    const row = (await ctx.q(related.table).where('id', Number(id)).first()) as Row | undefined;
    const template = row ? decodeRow(related.spec.fields, row).config_template : null;
    if (template !== null && template !== undefined) return Number(template);
  }
  return null;
}

export const configTemplateFunctions = {
  'extras.prepareConfigTemplate': { kind: 'prepare', fn: prepareConfigTemplate },
  'extras.syncTemplateCode': { kind: 'prepare', fn: syncTemplateCode },
  'extras.syncProfileSchema': { kind: 'prepare', fn: syncProfileSchema },
  'extras.syncContextData': { kind: 'prepare', fn: syncContextData },
  'extras.syncFromDataFile': { kind: 'run', fn: syncFromDataFile },
  'extras.renderConfigTemplate': { kind: 'run', fn: renderConfigTemplate },
  'extras.renderConfig': { kind: 'run', fn: renderObjectConfig },
} satisfies Record<string, DomainEntry>;
