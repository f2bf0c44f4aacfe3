#!/usr/bin/env node
// The operators' CLI runs the compiled JavaScript in dist/ (`npm run build`): no TypeScript loader.
import fs from 'node:fs';

const entry = new URL('../dist/runtime/cli.js', import.meta.url);
if (!fs.existsSync(entry)) {
  console.error("svc: dist/ is missing: run 'npm run build' first.");
  process.exit(1);
}
await import(entry.href);
