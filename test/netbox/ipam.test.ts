import { definePortedSuite } from './run.js';
import { ipamCases } from './cases/ipam.js';

/** NetBox 4.6.8's ipam/tests/test_api.py, ported (see run.ts). */
definePortedSuite(ipamCases);
