import { definePortedSuite } from './run.js';
import { dcimCases } from './cases/dcim.js';

/** NetBox 4.6.8's dcim/tests/test_api.py, ported (see run.ts). */
definePortedSuite(dcimCases);
