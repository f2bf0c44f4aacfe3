import { definePortedSuite } from './run.js';
import { dcimModulesCases } from './cases/dcim-modules.js';

/** NetBox 4.6.8's dcim/tests/test_api.py for modules, bays and inventory items, ported (see run.ts). */
definePortedSuite(dcimModulesCases);
