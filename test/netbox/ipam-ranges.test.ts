import { definePortedSuite } from './run.js';
import { ipamRangeCases } from './cases/ipam-ranges.js';

/** NetBox 4.6.8's ipam/tests/test_api.py for IP ranges, ASN ranges and FHRP groups, ported (see run.ts). */
definePortedSuite(ipamRangeCases);
