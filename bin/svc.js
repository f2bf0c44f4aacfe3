#!/usr/bin/env node
// The operators' CLI runs the compiled JavaScript in dist/ (`npm run build`, which `npm install` runs when the dev
// dependencies are installed): no TypeScript loader. First of all, a Node.js too old stops it with one line.
import './check-node.cjs';
import fs from 'node:fs';

const entry = new URL('../dist/runtime/cli.js', import.meta.url);
if (!fs.existsSync(entry)) {
  console.error("svc: dist/ is missing: run 'npm run build' (it needs the dev dependencies: 'npm install') first.");
  process.exit(1);
}
await import(entry.href);
