import { definePortedSuite } from './run.js';
import { dcimChassisCases } from './cases/dcim-chassis.js';

/** NetBox 4.6.8's dcim/tests/test_api.py for virtual chassis, VDCs, MAC addresses and rack models, ported (see run.ts). */
definePortedSuite(dcimChassisCases);
