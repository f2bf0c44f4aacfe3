import { TOKENS_PAGE } from './pages/layout.js';
import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { principalOf } from './app-context.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import type { RequestState } from './request-state.js';
import type { RenderedLink } from './custom-links.js';

/** The query line's field: a GET of the page with it is redirected to the page with its text as query. */
export const QUERY_LINE_FIELD = '_query';

/** Parameters every detail takes, and every list, shown in the query line's hint. */
const DETAIL_PARAMETERS = ['brief=1', 'fields=id,name', 'omit=tags'];
const LIST_PARAMETERS = [...DETAIL_PARAMETERS, 'limit=50', 'offset=50', 'ordering=-name'];

/** Header names as HTTP spells them (Node keeps them in lower case). */
const HEADER_NAMES: Record<string, string> = {
  'api-version': 'API-Version',
  etag: 'ETag',
  'x-request-id': 'X-Request-ID',
};

/**
 * Where a submitted query line leads: the same API path with the line's text as query string (without the
 * field itself, so that it never loops); null when the request is not such a submission.
 */
export function queryLineTarget(url: URL, apiPrefix: string): string | null {
  const line = url.searchParams.get(QUERY_LINE_FIELD);
  if (line === null || !url.pathname.startsWith(apiPrefix)) return null;
  const query = line
    .trim()
    .replace(/^\?/, '')
    .replace(/#.*$/, '')
    .split('&')
    .filter((pair) => pair !== '' && decodeName(pair) !== QUERY_LINE_FIELD)
    .join('&');
  return query ? `${url.pathname}?${query}` : url.pathname;
}

function decodeName(pair: string): string {
  const name = pair.split('=')[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * Sends the browsable API's page for a JSON body: the body pretty-printed with this site's URLs as links,
 * the status line and headers the JSON response has, pagination links, the editable query line and the
 * signed-in user. No script: links and a GET form do everything.
 */
export function sendBrowsable(res: Response, state: RequestState, body: unknown): void {
  const headers = shownHeaders(res);
  const html = renderPage({
    state,
    status: res.statusCode,
    body: normalize(body),
    headers,
    username: principalOf(res).user?.username ?? null,
    links: (res.locals.customLinks as RenderedLink[] | undefined) ?? [],
  });
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(html);
}

interface PageInput {
  state: RequestState;
  status: number;
  body: unknown;
  /** The headers of the JSON response, in display order. */
  headers: [string, string][];
  username: string | null;
  /** The object's custom links (a detail page). */
  links: readonly RenderedLink[];
}

/** The page's HTML; every value that comes from the request or the data is escaped. */
function renderPage({ state, status, body, headers, username, links }: PageInput): string {
  const { url } = state;
  const basePath = state.siteRoot.slice(url.origin.length);
  const apiPath = url.pathname.startsWith(`${basePath}/api/`) ? url.pathname.slice(`${basePath}/api`.length) : null;
  const place = apiPath === null ? null : locate(state.schema, apiPath);
  const title = titleOf(state.schema, apiPath, place, body, status);
  const isLink = (text: string): boolean =>
    text.startsWith(`${state.siteRoot}/`) && /^https?:\/\/[^\s"'<>\\]+$/.test(text);
  const here = `${url.pathname}${url.search}`;
  const asJson = new URLSearchParams(url.searchParams);
  asJson.set('format', 'json');
  const user = username
    ? `<span>Signed in as <strong>${escapeHtml(username)}</strong></span> <a href="${escapeHtml(`${basePath}/logout/`)}">Sign out</a>`
    : `<a href="${escapeHtml(`${basePath}/login/?next=${encodeURIComponent(here)}`)}">Sign in</a>`;
  const statusText = `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim();
  const statusLines = [statusText, ...headers.map(([name, value]) => `${name}: ${value}`)];
  const signInHint =
    status === 403 && !username
      ? `<p class="notice">You are not signed in. <a href="${escapeHtml(`${basePath}/login/?next=${encodeURIComponent(here)}`)}">Sign in</a> to browse the API.</p>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – NetBox REST API</title>
<style>${STYLE}</style>
</head>
<body>
<header><a class="brand" href="${escapeHtml(`${state.apiRoot}/`)}">NetBox REST API</a><nav><a href="${escapeHtml(`${state.siteRoot}/api/schema/swagger-ui/`)}">API documentation</a><a href="${escapeHtml(`${state.siteRoot}${TOKENS_PAGE}`)}">API tokens</a></nav><span class="user">${user}</span></header>
<main>
${apiPath === null ? '' : breadcrumbs(state.apiRoot, apiPath)}
<h1>${escapeHtml(title)}</h1>
${customLinks(links)}
${signInHint}
${apiPath === null ? '' : queryLine(url, apiPath, place, asJson.toString())}
${pagination(body, isLink)}
<pre class="response ${status < 400 ? 'ok' : 'failed'}" aria-label="Response">${statusLines
    .map((line, i) => (i === 0 ? `<strong>${escapeHtml(line)}</strong>` : escapeHtml(line)))
    .join('\n')}

${renderJson(body, 0, isLink)}</pre>
</main>
</body>
</html>
`;
}

/** The endpoint a path under the API root belongs to, and whether it is its list or one of its details. */
interface Place {
  model: ModelInfo;
  kind: 'list' | 'detail';
}

function locate(schema: Schema | undefined, apiPath: string): Place | null {
  for (const model of schema?.endpoints() ?? []) {
    for (const path of [model.listPath!, ...model.spec.aliases.map((alias) => `/${alias}/`)]) {
      if (apiPath === path) return { model, kind: 'list' };
      if (apiPath.startsWith(path) && /^\d+\/$/.test(apiPath.slice(path.length))) return { model, kind: 'detail' };
    }
  }
  return null;
}

function titleOf(
  schema: Schema | undefined,
  apiPath: string | null,
  place: Place | null,
  body: unknown,
  status: number,
): string {
  if (apiPath === '/') return 'API Root';
  if (place?.kind === 'list') return capitalize(place.model.spec.verboseNamePlural);
  const display = status < 400 ? (body as { display?: unknown } | null)?.display : undefined;
  if (place?.kind === 'detail') {
    const name = capitalize(place.model.spec.verboseName);
    return typeof display === 'string' ? `${name}: ${display}` : name;
  }
  if (typeof display === 'string') return display;
  const segments = (apiPath ?? '').split('/').filter(Boolean);
  const app = schema?.registry.apps.find((a) => segments.length === 1 && a.name === segments[0]);
  if (app) return app.verboseName;
  const last = segments.at(-1);
  return last ? capitalize(last.replace(/[-_]/g, ' ')) : (STATUS_CODES[status] ?? 'Response');
}

function breadcrumbs(apiRoot: string, apiPath: string): string {
  const segments = apiPath.split('/').filter(Boolean);
  const crumbs = [`<a href="${escapeHtml(`${apiRoot}/`)}">API Root</a>`];
  segments.forEach((segment, i) => {
    const href = `${apiRoot}/${segments.slice(0, i + 1).join('/')}/`;
    crumbs.push(
      i === segments.length - 1
        ? `<span aria-current="page">${escapeHtml(segment)}</span>`
        : `<a href="${escapeHtml(href)}">${escapeHtml(segment)}</a>`,
    );
  });
  return `<nav class="crumbs" aria-label="Breadcrumbs">${crumbs.join(' <span class="sep">/</span> ')}</nav>`;
}

/** The editable query line (a GET form with one text field) and what it accepts. */
function queryLine(url: URL, apiPath: string, place: Place | null, jsonQuery: string): string {
  const filters = place?.kind === 'list' ? [...place.model.filters.keys()] : [];
  // Without the models, the path tells: `/<app>/<endpoint>/` is a list, a number after it a detail.
  const segments = apiPath.split('/').filter(Boolean);
  const kind = place?.kind ?? (segments.length < 2 ? null : /^\d+$/.test(segments.at(-1)!) ? 'detail' : 'list');
  const parameters = kind === 'list' ? LIST_PARAMETERS : kind === 'detail' ? DETAIL_PARAMETERS : [];
  const parameterHint =
    parameters.length > 0
      ? `<p class="hint">Parameters: ${parameters.map((p) => `<code>${escapeHtml(p)}</code>`).join(' ')}</p>`
      : '';
  const filterHint =
    filters.length > 0
      ? `<p class="hint">Filters: ${filters.map((name) => `<code>${escapeHtml(name)}</code>`).join(' ')}<br>
Most take lookups such as <code>__n</code> (not), <code>__ic</code> (contains), <code>__gte</code>; repeat a filter to match any of its values.</p>`
      : '';
  return `<form class="query" method="get" action="${escapeHtml(url.pathname)}">
<label for="query-line">Query</label>
<span class="mark">?</span><input id="query-line" name="${QUERY_LINE_FIELD}" value="${escapeHtml(url.search.slice(1))}" placeholder="${kind === 'list' ? 'brief=1&amp;limit=10' : kind === 'detail' ? 'brief=1' : 'format=json'}" spellcheck="false" autocomplete="off">
<button type="submit">Apply</button>
<a class="format" href="${escapeHtml(`${url.pathname}?${jsonQuery}`)}">JSON</a>
</form>
${parameterHint}
${filterHint}`;
}

/** Custom links as buttons; the links of a group in one `<details>` menu under the group's name. */
function customLinks(links: readonly RenderedLink[]): string {
  if (links.length === 0) return '';
  const anchor = (link: RenderedLink): string => {
    if (link.error) return `<span class="error">${escapeHtml(link.name)}: ${escapeHtml(link.error)}</span>`;
    const target = link.newWindow ? ' target="_blank" rel="noopener noreferrer"' : '';
    return `<a class="button ${escapeHtml(link.buttonClass)}" href="${escapeHtml(link.link)}"${target}>${escapeHtml(link.text)}</a>`;
  };
  const parts: string[] = [];
  const groups = new Map<string, RenderedLink[]>();
  for (const link of links) {
    if (!link.group) parts.push(anchor(link));
    else if (groups.has(link.group)) groups.get(link.group)!.push(link);
    else {
      const group = [link];
      groups.set(link.group, group);
      parts.push(`\u0000${link.group}`);
    }
  }
  const html = parts.map((part) => {
    if (!part.startsWith('\u0000')) return part;
    const group = groups.get(part.slice(1))!;
    return `<details class="group ${escapeHtml(group[0]!.buttonClass)}"><summary>${escapeHtml(part.slice(1))}</summary>${group.map(anchor).join('')}</details>`;
  });
  return `<nav class="custom-links" aria-label="Custom links">${html.join(' ')}</nav>`;
}

/** The count and the previous/next links of a paginated list. */
function pagination(body: unknown, isLink: (text: string) => boolean): string {
  if (!body || typeof body !== 'object' || !('count' in body) || !('results' in body)) return '';
  const { count, next, previous } = body as { count: unknown; next?: unknown; previous?: unknown };
  const link = (target: unknown, label: string, rel: string): string =>
    typeof target === 'string' && isLink(target)
      ? `<a rel="${rel}" href="${escapeHtml(target)}">${label}</a>`
      : `<span class="disabled">${label}</span>`;
  return `<nav class="pages" aria-label="Pagination">${link(previous, '&laquo; Previous', 'prev')} <span>${escapeHtml(String(count))} ${count === 1 ? 'object' : 'objects'}</span> ${link(next, 'Next &raquo;', 'next')}</nav>`;
}

/** JSON as `JSON.stringify(…, null, 2)` would print it, as HTML, with this site's URLs as links. */
function renderJson(value: unknown, depth: number, isLink: (text: string) => boolean): string {
  const inner = '  '.repeat(depth + 1);
  const outer = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => inner + renderJson(item, depth + 1, isLink));
    return `[\n${items.join(',\n')}\n${outer}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const items = entries.map(
      ([key, item]) =>
        `${inner}<span class="key">${escapeHtml(JSON.stringify(key))}</span>: ${renderJson(item, depth + 1, isLink)}`,
    );
    return `{\n${items.join(',\n')}\n${outer}}`;
  }
  if (typeof value === 'string') {
    const text = escapeHtml(JSON.stringify(value));
    return isLink(value) ? `<a href="${escapeHtml(value)}">${text}</a>` : `<span class="str">${text}</span>`;
  }
  return `<span class="lit">${escapeHtml(JSON.stringify(value))}</span>`;
}

/** The body exactly as the JSON response would carry it (dates as strings, undefined keys dropped). */
function normalize(body: unknown): unknown {
  const text = JSON.stringify(body);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

/** The response's headers as the JSON response would have them (cookies left out), sorted by name. */
function shownHeaders(res: Response): [string, string][] {
  const shown: [string, string][] = [['Content-Type', 'application/json']];
  for (const name of res.getHeaderNames()) {
    if (name === 'set-cookie' || name === 'content-type') continue;
    const value = res.getHeader(name);
    const spelled =
      HEADER_NAMES[name] ?? name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
    shown.push([spelled, Array.isArray(value) ? value.join(', ') : String(value)]);
  }
  return shown.sort(([a], [b]) => a.toLowerCase().localeCompare(b.toLowerCase()));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #fff; }
header { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: .6rem 1.5rem; background: #1b3a57; color: #fff; }
header a { color: #fff; }
header .brand { font-weight: 600; text-decoration: none; }
header .user { display: flex; gap: 1rem; }
header nav { display: flex; gap: 1.2rem; margin-right: auto; margin-left: 1.5rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
a { color: #0a58ca; }
h1 { font-size: 1.6rem; margin: .6rem 0 1rem; }
.crumbs { font-size: .95rem; color: #57606a; }
.crumbs .sep { margin: 0 .2rem; }
.query { display: flex; align-items: center; gap: .5rem; flex-wrap: wrap; }
.query label { font-weight: 600; }
.query .mark { font-family: ui-monospace, monospace; color: #57606a; }
.query input { flex: 1 1 24rem; font: 15px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: 4px; }
.query button { padding: .4rem 1rem; font: inherit; border: 1px solid #1b3a57; border-radius: 4px; background: #1b3a57; color: #fff; cursor: pointer; }
.hint { margin: .4rem 0; font-size: .85rem; color: #57606a; }
.hint code { background: #f2f4f7; padding: 0 .25rem; border-radius: 3px; margin-right: .1rem; }
.notice { padding: .6rem .8rem; background: #fff8c5; border: 1px solid #d4a72c; border-radius: 4px; }
.pages { display: flex; gap: 1.5rem; margin: .8rem 0; }
.pages .disabled { color: #8c959f; }
pre.response { margin: 1rem 0; padding: 1rem; background: #f6f8fa; border: 1px solid #d0d7de; border-left: 4px solid #1a7f37; border-radius: 4px; overflow-x: auto; font: 14px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; }
pre.response.failed { border-left-color: #cf222e; }
pre.response.failed strong { color: #cf222e; }
.custom-links { display: flex; gap: .5rem; flex-wrap: wrap; align-items: flex-start; margin: 0 0 .8rem; }
.custom-links a.button { padding: .25rem .7rem; border: 1px solid #8c959f; border-radius: 4px; text-decoration: none; }
.custom-links details { border: 1px solid #8c959f; border-radius: 4px; padding: .25rem .7rem; }
.custom-links details a.button { display: block; border: 0; padding: .2rem 0; }
.custom-links .error { color: #cf222e; }
.key { color: #8250df; }
.str { color: #0a3069; }
.lit { color: #953800; }
`;
