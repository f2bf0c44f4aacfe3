import { definePortedSuite } from './run.js';
import { tenancyCases } from './cases/tenancy.js';

/** NetBox 4.6.8's tenancy/tests/test_api.py, ported (see run.ts). */
definePortedSuite(tenancyCases);
