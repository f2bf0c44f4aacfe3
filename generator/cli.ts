import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { generateProject } from './project.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    models: { type: 'string', default: path.join(root, 'models') },
    out: { type: 'string', default: path.join(root, 'generated') },
  },
});

const outcome = await generateProject({
  root,
  modelsDir: path.resolve(values.models),
  outDir: path.resolve(values.out),
  check: values.check,
});
if (!outcome.ok) {
  console.error(
    values.check && outcome.messages.every((m) => /^(missing|differs|orphan):/.test(m))
      ? `generated/ is out of date; run npm run generate:\n  ${outcome.messages.join('\n  ')}`
      : `generation failed:\n  ${outcome.messages.join('\n  ')}`,
  );
  process.exitCode = 1;
} else if (values.check) {
  console.log('generated/ is up to date');
} else {
  console.log(
    outcome.written.length
      ? `wrote ${outcome.written.length} files:\n  ${outcome.written.join('\n  ')}`
      : 'generated/ is up to date',
  );
}
