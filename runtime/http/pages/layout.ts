import { CSRF_FIELD } from '../../auth/sessions.js';

/** What the top bar of a page shows. */
export interface PageFrame {
  /** BASE_PATH, prefixed to every link. */
  basePath: string;
  /** The signed-in user's name; null shows a sign-in link instead of the sign-out button. */
  username: string | null;
  /** The CSRF token the sign-out form echoes. */
  csrfToken: string | null;
  /** The background-task page, when the user may see it. */
  tasksPath: string | null;
}

/** The page of a user's API tokens (NetBox's path). */
export const TOKENS_PAGE = '/user/api-tokens/';

const STYLE = `
  :root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa; --accent: #0b5cad; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
  a { color: var(--accent); }
  header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1.25rem; padding: .6rem 1.25rem;
    background: #1f2d3d; color: #fff; }
  header.top a { color: #fff; text-decoration: none; }
  header.top a:hover, header.top a[aria-current] { text-decoration: underline; }
  header.top nav { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; }
  header.top .brand { font-weight: 700; margin-right: .5rem; }
  header.top .user { margin-left: auto; display: flex; align-items: center; gap: .75rem; }
  header.top form { margin: 0; }
  header.top button { background: transparent; color: #fff; border: 1px solid #8aa0b8; border-radius: 4px;
    padding: .2rem .7rem; cursor: pointer; font: inherit; }
  main { max-width: 84rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
  h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
  h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
  th, td { text-align: left; vertical-align: top; padding: .45rem .6rem; border-bottom: 1px solid var(--line); }
  th { background: var(--bg); font-weight: 600; white-space: nowrap; }
  td.num { text-align: right; }
  td.time { white-space: nowrap; }
  .scroll { overflow-x: auto; }
  table.tasks td { border-bottom: none; }
  table.tasks tbody tr:last-child td { border-bottom: 1px solid var(--line); }
  table.tasks tr.log td { padding-top: 0; }
  table.tasks tr.log pre { max-width: none; background: var(--bg); padding: .5rem .75rem; border-radius: 4px; }
  code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
  pre { white-space: pre-wrap; word-break: break-word; margin: .4rem 0 0; max-width: 40rem; }
  label { display: block; margin: 0 0 .9rem; font-weight: 600; }
  label .hint { display: block; font-weight: 400; color: var(--muted); font-size: .9em; }
  label.check { font-weight: 400; }
  input[type=text], input[type=datetime-local], textarea { display: block; width: 100%; max-width: 32rem;
    margin-top: .25rem; padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: 4px; font: inherit; }
  textarea { min-height: 4rem; }
  button { font: inherit; padding: .35rem .9rem; border-radius: 4px; border: 1px solid #8c959f; background: #f6f8fa;
    cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  button.danger { color: #a40e26; border-color: #d4a2ab; }
  fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; max-width: 40rem; }
  legend { font-weight: 600; padding: 0 .3rem; }
  .muted { color: var(--muted); }
  .notice { padding: .75rem 1rem; border-radius: 6px; margin: 0 0 1rem; border: 1px solid; max-width: 60rem; }
  .notice.ok { background: #dafbe1; border-color: #4ac26b; }
  .notice.error { background: #ffebe9; border-color: #ff8182; }
  .notice.secret { background: #fff8c5; border-color: #d4a72c; }
  .notice.secret code { display: block; font-size: 1rem; padding: .5rem; margin: .5rem 0; background: #fff;
    border: 1px solid var(--line); border-radius: 4px; word-break: break-all; user-select: all; }
  .errors { color: #a40e26; margin: .2rem 0 0; padding-left: 1.1rem; font-weight: 400; }
  .state { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-size: .85em; font-weight: 600; }
  .state-queued { background: #ddf4ff; color: #0a3069; }
  .state-running { background: #fff8c5; color: #4d2d00; }
  .state-succeeded { background: #dafbe1; color: #116329; }
  .state-failed { background: #ffebe9; color: #82071e; }
  nav.filters { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0 0 1rem; }
  nav.filters a { padding: .25rem .75rem; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; }
  nav.filters a[aria-current] { background: var(--accent); border-color: var(--accent); color: #fff; }
  .pager { display: flex; gap: 1rem; align-items: center; }
  .actions { display: flex; gap: .75rem; align-items: center; margin: .5rem 0; }
`;

/** A complete HTML page: the top bar, then the title and the body (already escaped HTML). */
export function renderPage(frame: PageFrame, title: string, body: string, currentPath = ''): string {
  const link = (path: string, label: string): string =>
    `<a href="${escapeHtml(frame.basePath + path)}"${path === currentPath ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>`;
  const links = [
    link('/api/', 'API'),
    link('/api/schema/swagger-ui/', 'API documentation'),
    frame.username ? link(TOKENS_PAGE, 'API tokens') : '',
    frame.tasksPath ? link(frame.tasksPath, 'Background tasks') : '',
  ].filter(Boolean);
  const user = frame.username
    ? `<span class="user"><span>Signed in as <strong>${escapeHtml(frame.username)}</strong></span>
    <form method="post" action="${escapeHtml(`${frame.basePath}/logout/`)}">
      <input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(frame.csrfToken ?? '')}">
      <button type="submit">Sign out</button>
    </form></span>`
    : `<span class="user"><a href="${escapeHtml(`${frame.basePath}/login/`)}">Sign in</a></span>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>${STYLE}</style>
</head>
<body>
  <header class="top">
    <span class="brand">NetBox API</span>
    <nav>${links.join('\n    ')}</nav>
    ${user}
  </header>
  <main>
    <h1>${escapeHtml(title)}</h1>
    ${body}
  </main>
</body>
</html>
`;
}

/** A hidden CSRF field for a form. */
export function csrfField(token: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">`;
}

/** A stored timestamp as `YYYY-MM-DD HH:MM:SS UTC` (without the zone when the page says it); `—` for none. */
export function formatTime(value: unknown, withZone = true): string {
  if (typeof value !== 'string' || value === '') return '—';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(value);
  const zoned = /(Z|[+-]00:00)$/.test(value);
  return match ? `${match[1]} ${match[2]}${zoned && withZone ? ' UTC' : ''}` : value;
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
