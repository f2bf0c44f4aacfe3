/**
 * What a plugin's own functions (`models/plugins/<name>/functions.ts`) may use of the runtime: the types of the
 * domain function kinds and the contexts they run in, and the helpers a write hook needs. A plugin imports
 * nothing else of the runtime, so that the runtime's inside may change without breaking plugins.
 */
export type {
  BatchContext,
  ComputeFunction,
  CreatedContext,
  CreatedFunction,
  DisplayFunction,
  DomainEntry,
  FilterFunction,
  PrepareFunction,
  UpdatedFunction,
  ValidatorFunction,
  WriteItemContext,
} from './domain/types.js';
export type { ModelInfo } from './rest/schema.js';
export type { ManyToManyField } from './spec.js';
export { linkedIds } from './rest/changelog.js';
