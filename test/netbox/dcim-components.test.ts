import { definePortedSuite } from './run.js';
import { dcimComponentsCases } from './cases/dcim-components.js';

/** NetBox 4.6.8's dcim/tests/test_api.py for device components and their templates, ported (see run.ts). */
definePortedSuite(dcimComponentsCases);
