import { definePortedSuite } from './run.js';
import { coreCases } from './cases/core.js';
import { coreDataCases } from './cases/core-data.js';

/** NetBox 4.6.8's core/tests/test_api.py, ported (see run.ts): its background tasks are webhook deliveries here. */
definePortedSuite([...coreDataCases, ...coreCases]);
