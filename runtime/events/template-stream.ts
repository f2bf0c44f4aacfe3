import Handlebars from 'handlebars';
import {
  describeError,
  renderWithin as run,
  templateEnvironment,
  TemplateRenderError,
  TEMPLATE_COMPILE_OPTIONS,
  TEMPLATE_RUNTIME_OPTIONS,
  type TemplateLimits,
} from './templates.js';

export { TemplateRenderError, type TemplateLimits };

/**
 * Export templates render a list of objects that may be long (10,000 devices), so they are rendered in parts
 * rather than over one array held in memory. A template of the usual shape
 *
 *     header {{#each queryset}} one object {{else}} nothing {{/each}} footer
 *
 * (the `each` over `queryset` at the top level, `queryset` named nowhere else) is split at that block: the
 * header and footer render once, the block once per chunk of objects, with `@index`, `@first`, `@last` and
 * block parameters numbered across chunks as one `each` would. Any other template is `whole`: it renders once
 * over every object (the caller bounds how many). Every render call runs under a time limit (a template's
 * loops cannot hold the server) and its output under a size limit.
 */

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = { timeoutMs: 10_000, maxOutput: 64 * 1024 * 1024 };

/** A compiled list template: streamed in parts, or whole. */
export type ListTemplate =
  | {
      streamed: true;
      /** The text before the block, rendered over the root context (without `queryset`). */
      head: (root: Record<string, unknown>) => string;
      /** The block over one chunk: `offset` is the chunk's first index, `final` whether it is the last chunk. */
      rows: (root: Record<string, unknown>, chunk: readonly unknown[], offset: number, final: boolean) => string;
      tail: (root: Record<string, unknown>) => string;
    }
  | { streamed: false; whole: (root: Record<string, unknown>, items: readonly unknown[]) => string };

type Program = hbs.AST.Program;
type Statement = hbs.AST.Statement;
type Block = hbs.AST.BlockStatement;

/** The name of the list in the context, as NetBox's export templates name their queryset. */
const LIST = 'queryset';

/**
 * Compiles an export template's text for rendering over a list. Throws TemplateRenderError with Handlebars'
 * message (naming the line) when the text does not compile.
 */
export function compileListTemplate(text: string, limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS): ListTemplate {
  let ast: Program;
  try {
    ast = templateEnvironment.parse(text);
    templateEnvironment.precompile(ast, TEMPLATE_COMPILE_OPTIONS);
  } catch (error) {
    throw new TemplateRenderError(compileMessage(error));
  }
  const index = streamedBlockIndex(ast);
  if (index === null) {
    const whole = compileProgram(ast.body);
    return {
      streamed: false,
      whole: (root, items) => run(limits, () => whole({ ...root, [LIST]: items }, TEMPLATE_RUNTIME_OPTIONS)),
    };
  }
  const head = compileProgram(ast.body.slice(0, index));
  const block = compileProgram([ast.body[index]!], true);
  const tail = compileProgram(ast.body.slice(index + 1));
  return {
    streamed: true,
    head: (root) => run(limits, () => head(root, TEMPLATE_RUNTIME_OPTIONS)),
    tail: (root) => run(limits, () => tail(root, TEMPLATE_RUNTIME_OPTIONS)),
    rows: (root, chunk, offset, final) => {
      const marked = [...chunk];
      const each = chunkEach(marked, offset, final);
      return run(limits, () => block({ ...root, [LIST]: marked }, { ...TEMPLATE_RUNTIME_OPTIONS, helpers: { each } }));
    },
  };
}

/** Handlebars' message with the place it names as `line L, column C` (a parse error names its line itself). */
export function compileMessage(error: unknown): string {
  const message = describeError(error);
  const at = / - (\d+):(\d+)$/.exec(message);
  return at ? `${message.slice(0, at.index)} (line ${at[1]}, column ${at[2]})` : message;
}

/**
 * The index of the top-level `{{#each queryset}}` block when the template may be streamed: exactly one such
 * block, no hash or other parameters, and `queryset` named nowhere else (the parts would see only a chunk).
 */
function streamedBlockIndex(ast: Program): number | null {
  const candidates = ast.body.flatMap((statement, i) => (isListEach(statement) ? [i] : []));
  if (candidates.length !== 1) return null;
  const index = candidates[0]!;
  const own = (ast.body[index] as Block).params[0];
  return countListPaths(ast, own) === 0 ? index : null;
}

function isListEach(statement: Statement): boolean {
  if (statement.type !== 'BlockStatement') return false;
  const block = statement as Block;
  const path = block.path as hbs.AST.PathExpression;
  if (path.type !== 'PathExpression' || path.original !== 'each' || block.hash) return false;
  const [param, ...rest] = block.params;
  if (!param || rest.length > 0 || param.type !== 'PathExpression') return false;
  const list = param as hbs.AST.PathExpression;
  return !list.data && list.depth === 0 && list.parts.length === 1 && list.parts[0] === LIST;
}

/** Path expressions other than `except` that name the list anywhere (`queryset.length`, `@root.queryset`, `../queryset`). */
function countListPaths(node: unknown, except: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, item) => n + countListPaths(item, except), 0);
  if (node === null || typeof node !== 'object') return 0;
  const record = node as Record<string, unknown>;
  if (record.type === 'PathExpression' && node !== except) {
    return (record.parts as unknown[]).includes(LIST) ? 1 : 0;
  }
  let count = 0;
  for (const [key, value] of Object.entries(record)) if (key !== 'loc') count += countListPaths(value, except);
  return count;
}

/**
 * Compiles statements of a parsed template as a template of their own. Whitespace control already ran on
 * the whole text; the guards keep it from treating a split point as a line start or end a second time.
 */
function compileProgram(body: Statement[], guarded = false): HandlebarsTemplateDelegate {
  const guard = (): hbs.AST.ContentStatement =>
    ({ type: 'ContentStatement', value: '', original: 'x', loc: body[0]?.loc }) as unknown as hbs.AST.ContentStatement;
  const program: Program = {
    type: 'Program',
    body: guarded ? [guard(), ...body, guard()] : body,
    blockParams: [],
    loc: body[0]?.loc ?? { source: '', start: { line: 1, column: 0 }, end: { line: 1, column: 0 } },
  };
  return templateEnvironment.compile(program, TEMPLATE_COMPILE_OPTIONS);
}

/**
 * `each` for the rows part: over the chunk, it numbers items from `offset` and sets `@last` only on the final
 * chunk's last item; `{{else}}` renders when the whole list is empty. Every other `each` (inside an object) is
 * Handlebars' own.
 */
function chunkEach(chunk: readonly unknown[], offset: number, final: boolean): Handlebars.HelperDelegate {
  const builtin = templateEnvironment.helpers.each!;
  return function (this: unknown, context: unknown, options: Handlebars.HelperOptions): string {
    if (context !== chunk) return builtin.call(this, context, options) as string;
    if (chunk.length === 0) return offset === 0 && final ? options.inverse(this) : '';
    let out = '';
    const data = options.data ? (Handlebars.createFrame(options.data) as Record<string, unknown>) : {};
    chunk.forEach((item, i) => {
      const index = offset + i;
      data.key = index;
      data.index = index;
      data.first = index === 0;
      data.last = final && i === chunk.length - 1;
      out += options.fn(item, { data, blockParams: [item, index] });
    });
    return out;
  };
}
