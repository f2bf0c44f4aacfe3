import { definePortedSuite } from './run.js';
import { virtualizationCases } from './cases/virtualization.js';

/** NetBox 4.6.8's virtualization/tests/test_api.py, ported (see run.ts). */
definePortedSuite(virtualizationCases);
