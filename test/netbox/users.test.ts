import { definePortedSuite } from './run.js';
import { usersCases } from './cases/users.js';

/** NetBox 4.6.8's users/tests/test_api.py, ported (see run.ts). */
definePortedSuite(usersCases);
