#!/usr/bin/env node
// The operators' CLI: runs the TypeScript runtime through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../runtime/cli.ts');
