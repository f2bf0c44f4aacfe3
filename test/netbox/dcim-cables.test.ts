import { definePortedSuite } from './run.js';
import { dcimCablesCases } from './cases/dcim-cables.js';

/** NetBox 4.6.8's dcim/tests/test_api.py for cable bundles, cables and cable terminations, ported (see run.ts). */
definePortedSuite(dcimCablesCases);
