import { definePortedSuite } from './run.js';
import { dcimMacCases } from './cases/dcim-mac.js';

/** NetBox 4.6.8's dcim/tests/test_api.py for MAC addresses, ported (see run.ts). */
definePortedSuite(dcimMacCases);
