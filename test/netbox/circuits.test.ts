import { definePortedSuite } from './run.js';
import { circuitsCases } from './cases/circuits.js';

/** NetBox 4.6.8's circuits/tests/test_api.py, ported (see run.ts). */
definePortedSuite(circuitsCases);
