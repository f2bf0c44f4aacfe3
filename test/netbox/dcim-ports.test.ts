import { definePortedSuite } from './run.js';
import { dcimPortsCases } from './cases/dcim-ports.js';

/** NetBox 4.6.8's dcim/tests/test_api.py for ports, power and their templates, ported (see run.ts). */
definePortedSuite(dcimPortsCases);
