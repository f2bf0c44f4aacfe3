import { definePortedSuite } from './run.js';
import { wirelessCases } from './cases/wireless.js';

/** NetBox 4.6.8's wireless/tests/test_api.py, ported (see run.ts). */
definePortedSuite(wirelessCases);
