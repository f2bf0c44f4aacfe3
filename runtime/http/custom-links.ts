import type { Response } from 'express';
import type { AppContext } from './app-context.js';
import { principalOf } from './app-context.js';
import { whereJsonListHasAny } from '../db/sql.js';
import { compileMessage, DEFAULT_TEMPLATE_LIMITS } from '../events/template-stream.js';
import { renderWithin as run } from '../events/templates.js';
import { templateEnvironment, TEMPLATE_COMPILE_OPTIONS, TEMPLATE_RUNTIME_OPTIONS } from '../events/templates.js';
import type { ModelInfo } from '../rest/schema.js';
import { applyOrdering } from '../rest/params.js';

/**
 * Custom links as NetBox's object pages show them (its REST API does not render them): the enabled links of
 * the object's model, in their order (group, weight, name), each text and URL rendered with `object` (the
 * object's JSON) and `user`; a link whose text renders empty is left out, a URL whose scheme is not one
 * NetBox allows becomes empty, and a template that fails shows its error instead of the link.
 */

/** NetBox's default ALLOWED_URL_SCHEMES. */
const ALLOWED_URL_SCHEMES = new Set([
  'file',
  'ftp',
  'ftps',
  'http',
  'https',
  'irc',
  'mailto',
  'sftp',
  'ssh',
  'tel',
  'telnet',
  'tftp',
  'vnc',
  'xmpp',
]);

export interface RenderedLink {
  name: string;
  group: string;
  buttonClass: string;
  newWindow: boolean;
  text: string;
  link: string;
  /** Set when a template failed: the message, and text and link are empty. */
  error?: string;
}

/** The custom links of a model's object, rendered (empty without a model playing the `custom_link` role). */
export async function renderCustomLinks(
  app: AppContext,
  res: Response,
  model: ModelInfo,
  object: Record<string, unknown>,
): Promise<RenderedLink[]> {
  const links = app.schema.withRole('custom_link');
  if (!links) return [];
  const column = (field: string): string => `t0.${links.fields.get(field)!.column!}`;
  const query = app.db.knex(`${links.table} as t0`).select('t0.*').where(column('enabled'), true);
  whereJsonListHasAny(query, app.db.dialect, column('object_types'), [model.label]);
  applyOrdering(app.schema, links, new URLSearchParams(), query);
  const rows = (await query) as Record<string, unknown>[];
  const user = principalOf(res).user;
  const context = { object, user: user ? { id: user.id, username: user.username } : null };
  return rows.flatMap((row) => {
    const value = (field: string): unknown => row[links.fields.get(field)!.column!];
    const base = {
      name: String(value('name')),
      group: String(value('group_name') ?? ''),
      buttonClass: String(value('button_class') ?? 'default'),
      newWindow: value('new_window') === true || value('new_window') === 1,
    };
    try {
      const text = render(String(value('link_text')), context).trim();
      if (!text) return [];
      return [{ ...base, text, link: safeLink(render(String(value('link_url')), context).trim()) }];
    } catch (error) {
      return [{ ...base, text: '', link: '', error: compileMessage(error) }];
    }
  });
}

function render(text: string, context: unknown): string {
  const template = templateEnvironment.compile(text, TEMPLATE_COMPILE_OPTIONS);
  return run(DEFAULT_TEMPLATE_LIMITS, () => template(context, TEMPLATE_RUNTIME_OPTIONS));
}

/** NetBox's `urllib.parse.quote(link, safe='/:?&=%+[]@#,;!')`, then an empty link for a scheme not allowed. */
export function safeLink(link: string): string {
  const quoted = [...new TextEncoder().encode(link)]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9_.~\-/:?&=%+[\]@#,;!]/.test(c) && byte < 128
        ? c
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(quoted)?.[1];
  return scheme !== undefined && !ALLOWED_URL_SCHEMES.has(scheme.toLowerCase()) ? '' : quoted;
}
