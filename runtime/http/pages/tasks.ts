import { readContextFor } from '../app-context.js';
import type { Router } from 'express';
import type { Knex } from 'knex';
import type { AppContext } from '../app-context.js';
import type { Restriction } from '../../auth/principal.js';
import type { ROLE_CONTRACTS } from '../../role-contracts.js';
import { requeueTasks } from '../task-actions.js';
import { TASK_STATES } from '../../events/tasks.js';
import { baseQuery, loadObjects } from '../../rest/fetch.js';
import { applyFilters } from '../../rest/filters.js';
import { applyOrdering, parsePagination } from '../../rest/params.js';
import { stateOf } from '../request-state.js';
import { formBody } from '../request-checks.js';
import { csrfField, escapeHtml, formatTime } from './layout.js';
import { openSession, sendPage, type PageSession } from './session.js';

type Row = Record<string, unknown>;

/** Query parameters of the page itself, not filters. */
const PAGE_PARAMS = ['requeued', 'selected'];

/**
 * The task's record as the page shows it: its stored fields (the role's contract), not the API's
 * representation, which is NetBox's RQ task shape.
 */
const PAGE_KEYS = [
  'id',
  'state',
  'event',
  'event_rule',
  'object_type',
  'object_id',
  'object',
  'webhook',
  'target',
  'attempts',
  'enqueued_at',
  'started_at',
  'finished_at',
  'response_status',
  'error_log',
] as const satisfies readonly ('id' | keyof (typeof ROLE_CONTRACTS)['background_task'])[];

/**
 * The background-task page at the same path as its API list without `/api` (as in NetBox): counts per
 * state, the tasks (filtered like the API list, e.g. `?state=failed`), and requeueing failed tasks one at a
 * time or several at once, with the same permissions and effect as the API's requeue actions.
 */
export function mountTaskPages(router: Router, app: AppContext): void {
  const tasks = app.tasks;
  const page = tasks?.model.listPath;
  if (!tasks || !page) return;
  const model = tasks.model;
  const stateColumn = tasks.column('state');
  const form = formBody('64kb');
  const basePath = app.settings.BASE_PATH;

  const restricted = (q: Knex, session: PageSession, restriction: Restriction): Knex.QueryBuilder => {
    const query = baseQuery(q, model);
    app.permissions.apply(query, model, restriction, session.principal);
    return query;
  };

  router.get(page, async (req, res) => {
    const session = await openSession(app, req, res);
    if (!session) return;
    const restriction = app.permissions.require(session.principal, model, 'view');
    const q = app.db.knex;
    const state = stateOf(res);
    const params = new URLSearchParams(state.params);
    params.delete('start');
    for (const name of PAGE_PARAMS) params.delete(name);
    const counted = (await restricted(q, session, restriction)
      .select({ state: `t0.${stateColumn}` })
      .count({ n: '*' })
      .groupBy(`t0.${stateColumn}`)) as { state: string; n: number | string }[];
    const counts = new Map(counted.map((r) => [r.state, Number(r.n)]));

    const query = restricted(q, session, restriction);
    await applyFilters(
      q,
      { schema: app.schema, dialect: app.db.dialect, settings: app.settings, domain: app.domain },
      model,
      params,
      query,
    );
    const pagination = parsePagination(params, app.settings);
    const limit = pagination.limit ?? app.settings.PAGINATE_COUNT;
    const offset = pagination.mode === 'offset' ? pagination.offset : 0;
    const total = Number(((await query.clone().count({ n: '*' }).first()) as { n: number | string }).n);
    const rows = query.clone();
    applyOrdering(app.schema, model, params, rows);
    rows.limit(limit).offset(offset);
    const objects = await loadObjects(q, readContextFor(app, res), model, PAGE_KEYS, rows);

    const mayRequeue = app.permissions.allows(session.principal, model, 'change');
    const link = (changes: Record<string, string | null>): string => {
      const next = new URLSearchParams(params);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) next.delete(name);
        else next.set(name, value);
      }
      const text = next.toString();
      return `${basePath}${page}${text ? `?${text}` : ''}`;
    };
    const body = [
      requeueNotice(state.params),
      stateFilters(params, counts, link),
      `<p class="muted">${total === 0 ? 'No tasks.' : `Showing ${offset + 1}–${offset + objects.length} of ${total}.`}
        The same data as <a href="${escapeHtml(`${basePath}/api${page}${params.size ? `?${params.toString()}` : ''}`)}">the API list</a>.
        <a href="${escapeHtml(link({}))}">Refresh</a></p>`,
      taskTable(objects, session, mayRequeue, `${basePath}${page}requeue/`, new URL(link({}), state.url).search),
      pager(total, offset, limit, link),
    ].join('\n');
    sendPage(res, 200, session.frame, 'Background tasks', body, page);
  });

  router.post(`${page}requeue/`, form, async (req, res) => {
    const session = await openSession(app, req, res);
    if (!session) return;
    const restriction = app.permissions.require(session.principal, model, 'change');
    const body = (req.body ?? {}) as Record<string, unknown>;
    // A row's own button names its task; else the ticked boxes count.
    const raw = body.only !== undefined ? [body.only] : [body.ids ?? []].flat();
    let ids = [...new Set(raw.filter((v): v is string => typeof v === 'string' && /^\d{1,15}$/.test(v)).map(Number))];
    if (ids.length > 0 && !restriction.all) {
      const visible = restricted(app.db.knex, session, restriction).select('t0.id').whereIn('t0.id', ids);
      ids = ((await visible) as { id: number }[]).map((r) => Number(r.id));
    }
    const done = await requeueTasks(app, ids);
    const back = new URLSearchParams(typeof body.back === 'string' ? body.back : '');
    back.set('requeued', String(done.length));
    back.set('selected', String(raw.length));
    res.redirect(303, `${basePath}${page}?${back.toString()}`);
  });
}

function requeueNotice(params: URLSearchParams): string {
  const requeued = params.get('requeued');
  const selected = Number(params.get('selected') ?? 0);
  if (requeued === null || !/^\d+$/.test(requeued)) return '';
  const n = Number(requeued);
  if (selected === 0) return '<p class="notice error" role="alert">Select at least one failed task to requeue.</p>';
  if (n === 0)
    return '<p class="notice error" role="alert">Nothing was requeued: only failed tasks can be requeued.</p>';
  return `<p class="notice ok" role="status">Requeued ${n} task${n === 1 ? '' : 's'}${
    n < selected ? ` of the ${selected} selected (only failed tasks can be requeued)` : ''
  }.</p>`;
}

function stateFilters(
  params: URLSearchParams,
  counts: ReadonlyMap<string, number>,
  link: (changes: Record<string, string | null>) => string,
): string {
  const current = params.getAll('state');
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const item = (state: string | null, label: string, n: number): string => {
    const active = state === null ? current.length === 0 : current.length === 1 && current[0] === state;
    return `<a href="${escapeHtml(link({ state, offset: null }))}"${active ? ' aria-current="page"' : ''}>${escapeHtml(label)} <strong>${n}</strong></a>`;
  };
  const states = Object.values(TASK_STATES).map((s) =>
    item(s, s.charAt(0).toUpperCase() + s.slice(1), counts.get(s) ?? 0),
  );
  return `<nav class="filters" aria-label="Filter by state">${[item(null, 'All', total), ...states].join('\n  ')}</nav>`;
}

/** `{value, label}` of a choice, or the bare value. */
function choiceValue(value: unknown): string {
  if (value && typeof value === 'object' && 'value' in value) return String((value as { value: unknown }).value);
  return value === null || value === undefined ? '' : String(value);
}

/** A nested object as a link to its API URL, else its display text. */
function nestedLink(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const { url, display } = value as { url?: unknown; display?: unknown };
  const text = escapeHtml(String(display ?? ''));
  return typeof url === 'string' ? `<a href="${escapeHtml(url)}">${text}</a>` : text;
}

function taskTable(
  tasks: readonly Row[],
  session: PageSession,
  mayRequeue: boolean,
  action: string,
  back: string,
): string {
  if (tasks.length === 0) return '';
  const rows = tasks.map((t) => {
    const id = escapeHtml(String(t.id));
    const state = choiceValue(t.state);
    const failed = state === TASK_STATES.failed;
    const log = typeof t.error_log === 'string' ? t.error_log : '';
    const lines = log ? log.split('\n').length : 0;
    const object = nestedLink(t.object) || '<span class="muted">(deleted)</span>';
    const rule = nestedLink(t.event_rule);
    const times = (
      [
        ['Enqueued', t.enqueued_at],
        ['Started', t.started_at],
        ['Finished', t.finished_at],
      ] as const
    )
      .map(([label, value]) => `<span class="muted">${label}</span> ${escapeHtml(formatTime(value, false))}`)
      .join('<br>');
    // The error log gets a row of its own, as wide as the table.
    const logRow = log
      ? `<tr class="log"><td></td><td colspan="9"><details><summary>Error log (${lines} line${lines === 1 ? '' : 's'})</summary><pre>${escapeHtml(log)}</pre></details></td></tr>`
      : '';
    return `<tbody class="task" data-task-id="${id}" data-state="${escapeHtml(state)}">
    <tr>
      <td>${failed && mayRequeue ? `<input type="checkbox" name="ids" value="${id}" aria-label="Select task ${id}">` : ''}</td>
      <td class="num">${id}</td>
      <td><span class="state state-${escapeHtml(state)}">${escapeHtml(state)}</span></td>
      <td>${escapeHtml(String(t.event ?? ''))}${rule ? `<br><span class="muted">rule</span> ${rule}` : ''}</td>
      <td><span class="mono">${escapeHtml(String(t.object_type ?? ''))} #${escapeHtml(String(t.object_id ?? ''))}</span><br>${object}</td>
      <td>${nestedLink(t.webhook) || '<span class="muted">—</span>'}${t.target ? `<br><span class="mono">${escapeHtml(String(t.target))}</span>` : ''}</td>
      <td class="num">${escapeHtml(String(t.attempts ?? 0))}</td>
      <td class="time">${times}</td>
      <td class="num response">${t.response_status === null || t.response_status === undefined ? '—' : escapeHtml(String(t.response_status))}</td>
      <td>${failed && mayRequeue ? `<button type="submit" name="only" value="${id}">Requeue</button>` : ''}</td>
    </tr>
    ${logRow}
  </tbody>`;
  });
  const table = `<div class="scroll"><table class="tasks">
  <thead><tr><th></th><th>ID</th><th>State</th><th>Event</th><th>Object</th><th>Webhook / target</th><th>Attempts</th>
    <th>Times (UTC)</th><th>Response</th><th></th></tr></thead>
  ${rows.join('\n  ')}
</table></div>`;
  const anyFailed = tasks.some((t) => choiceValue(t.state) === TASK_STATES.failed);
  if (!mayRequeue || !anyFailed) return table;
  // One form: each row's button submits its own id (`only`), the bottom button the ticked boxes.
  return `<form method="post" action="${escapeHtml(action)}">
  ${csrfField(session.csrfToken)}
  <input type="hidden" name="back" value="${escapeHtml(back.replace(/^\?/, ''))}">
  ${table}
  <div class="actions"><button type="submit" class="primary">Requeue selected</button>
    <span class="muted">Only failed tasks can be requeued; they run again from their first attempt.</span></div>
</form>`;
}

function pager(
  total: number,
  offset: number,
  limit: number,
  link: (changes: Record<string, string | null>) => string,
): string {
  if (total <= limit && offset === 0) return '';
  const previous =
    offset > 0
      ? `<a href="${escapeHtml(link({ offset: offset - limit > 0 ? String(offset - limit) : null }))}" rel="prev">← Previous</a>`
      : '<span class="muted">← Previous</span>';
  const next =
    offset + limit < total
      ? `<a href="${escapeHtml(link({ offset: String(offset + limit) }))}" rel="next">Next →</a>`
      : '<span class="muted">Next →</span>';
  const pageNumber = Math.floor(offset / limit) + 1;
  return `<nav class="pager" aria-label="Pages">${previous}<span>Page ${pageNumber} of ${Math.max(1, Math.ceil(total / limit))}</span>${next}</nav>`;
}
