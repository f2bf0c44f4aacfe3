// Import rules, checked by `npm run lint` (dependency-cruiser): no import cycles, and dependencies that point
// one way. models → generator → generated → runtime (a plugin's own functions.ts: generated → it →
// runtime/plugin-api.ts); inside the runtime, from the bottom up:
//   base   errors, spec (the types generated code fills in), config, and three leaves of auth: principal
//          (who a request acts for), passwords (hashing) and networks (an address in a list of networks, also
//          what webhooks may reach); the model language's runtime half, which the
//          generator shares: kinds/ (one module per field kind), expression (rule expressions),
//          role-contracts, display-template; and the pure leaves they use, db/clock (timestamps), db/regex
//          (linear-time patterns) and rest/ip (addresses).
//          These import nothing else of the runtime
//   db     connections, dialect SQL, transactions, migrations, signals
//   rest   the generic REST algorithms (read, write, filters, custom fields), with domain/types.ts: the
//          interface they call domain functions through
//   auth | events   permissions, tokens, sessions | event rules, queues, the worker (neither imports the other)
//   domain the model-specific functions that YAML names
//   http   Express: middleware, handlers, pages, the app context
//   app    the composition root: app.ts, serve.ts, cli.ts, superuser.ts, plugins.ts (the only runtime modules that may
//          import generated/), and import/ (svc import-netbox, which writes through the app's context)
// A module may import from its own layer and those below it; type-only imports count as much as values.

/** Runtime layers, bottom first; layers that share a rank are siblings that must not import each other. */
const LAYERS = [
  {
    name: 'base',
    rank: 0,
    path: [
      '^runtime/(errors|spec|config|expression|role-contracts|display-template)\\.ts$',
      '^runtime/kinds/',
      '^runtime/auth/(principal|passwords|networks)\\.ts$',
      '^runtime/db/(clock|regex)\\.ts$',
      '^runtime/rest/ip\\.ts$',
    ],
  },
  { name: 'db', rank: 1, path: ['^runtime/db/'] },
  { name: 'rest', rank: 2, path: ['^runtime/rest/', '^runtime/domain/types\\.ts$'] },
  { name: 'auth', rank: 3, path: ['^runtime/auth/'] },
  { name: 'events', rank: 3, path: ['^runtime/events/'] },
  { name: 'domain', rank: 4, path: ['^runtime/domain/', '^runtime/plugin-api\\.ts$'] },
  { name: 'http', rank: 5, path: ['^runtime/http/'] },
  { name: 'app', rank: 6, path: ['^runtime/(app|serve|cli|superuser|plugins)\\.ts$', '^runtime/import/'] },
];

/**
 * The files of a layer: its paths minus those claimed by an earlier (lower) layer.
 * @param {(typeof LAYERS)[number]} layer
 */
function filesOf(layer) {
  const lower = LAYERS.slice(0, LAYERS.indexOf(layer)).flatMap((l) => l.path);
  return lower.length > 0 ? { path: layer.path, pathNot: lower } : { path: layer.path };
}

const layerRules = LAYERS.map((layer) => ({
  name: `layer-${layer.name}`,
  severity: 'error',
  comment: `The runtime's ${layer.name} layer imports only from its own layer and the layers below it.`,
  from: filesOf(layer),
  to: {
    path: '^runtime/',
    pathNot: LAYERS.filter((l) => l.rank < layer.rank || l === layer).flatMap((l) => l.path),
  },
}));

// Files every layer must be assigned to: a new runtime folder or top-level file needs a place above.
const unassigned = {
  name: 'layer-unassigned',
  severity: 'error',
  comment: 'Every runtime module belongs to a layer (add its folder to LAYERS in .dependency-cruiser.js).',
  from: { path: '^runtime/', pathNot: LAYERS.flatMap((l) => l.path) },
  to: {},
};

export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included: shared types belong in a leaf module.',
      from: { path: '^(runtime|generator|bench|test|bin)/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-generated',
      severity: 'error',
      comment:
        "Generated model modules refer to each other's nested types (a site names its ASNs and an ASN its " +
        'sites), so type-only cycles between them are the data model itself; any value import in a cycle is not.',
      from: { path: '^generated/' },
      to: { circular: true, via: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'generator-is-below-generated',
      severity: 'error',
      comment:
        'The generator reads YAML and writes generated/; it imports no generated module and of the ' +
        'runtime only the model language it shares with it: the spec types it fills in, the field kinds, ' +
        'rule expressions, role contracts, display templates and the shape of a domain function entry.',
      from: { path: '^generator/' },
      to: {
        path: '^(generated|runtime)/',
        pathNot: [
          '^runtime/(spec|expression|role-contracts|display-template)\\.ts$',
          '^runtime/kinds/',
          '^runtime/domain/types\\.ts$',
        ],
      },
    },
    {
      name: 'generated-imports-runtime-types-only',
      severity: 'error',
      comment:
        'Generated code names runtime types (the spec it fills in, domain function names) but loads no runtime code.',
      from: { path: '^generated/' },
      to: { path: '^(runtime|generator)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'plugin-functions-use-the-plugin-api',
      severity: 'error',
      comment:
        "A plugin's own functions (models/plugins/<name>/functions.ts) use the runtime through runtime/plugin-api.ts " +
        'alone, so that the inside of the runtime may change without breaking plugins.',
      from: { path: '^models/' },
      to: { path: '^(runtime|generator|generated)/', pathNot: '^runtime/plugin-api\\.ts$' },
    },
    {
      name: 'generated-imports-plugin-functions-only',
      severity: 'error',
      comment: "Of the model folders, generated code loads only the plugins' own functions.",
      from: { path: '^generated/' },
      to: { path: '^models/', pathNot: '^models/plugins/[^/]+/functions\\.ts$' },
    },
    {
      name: 'runtime-imports-generated-at-the-root',
      severity: 'error',
      comment: 'The runtime receives the generated registry at its composition root (the CLI) and nowhere else.',
      from: { path: '^runtime/', pathNot: '^runtime/cli\\.ts$' },
      to: { path: '^generated/' },
    },
    {
      name: 'runtime-is-not-the-generator',
      severity: 'error',
      comment: 'The runtime serves generated code; it imports nothing of the generator.',
      from: { path: '^runtime/' },
      to: { path: '^generator/' },
    },
    ...layerRules,
    unassigned,
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are dependencies too (a cycle of types is still a cycle).
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|\\.node)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
