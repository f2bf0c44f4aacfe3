import { definePortedSuite } from './run.js';
import { extrasCases } from './cases/extras.js';

/** NetBox 4.6.8's extras/tests/test_api.py, ported (see run.ts). */
definePortedSuite(extrasCases);
