import { definePortedSuite } from './run.js';
import { vpnCases } from './cases/vpn.js';

/** NetBox 4.6.8's vpn/tests/test_api.py, ported (see run.ts). */
definePortedSuite(vpnCases);
