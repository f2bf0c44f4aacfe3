import { validateConditions } from '../events/conditions.js';
import { checkPayloadUrl, checkTemplate } from '../events/templates.js';
import type { DomainEntry, WriteItemContext } from './types.js';
import { caFileProblem, payloadUrlProblem } from './webhook-targets.js';

/** The event types an event rule may name. */
export const EVENT_TYPES = ['object_created', 'object_updated', 'object_deleted'] as const;

/**
 * Webhooks: a usable URL whose host neither is nor resolves to an address in WEBHOOK_DENIED_NETWORKS,
 * templates that compile, and a CA file only with SSL verification and only from WEBHOOK_CA_FILE_DIRS.
 */
async function validateWebhook(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const url =
    checkPayloadUrl(String(values.payload_url ?? '')) ??
    (await payloadUrlProblem(String(values.payload_url), item.settings));
  if (url) errors.add('payload_url', url);
  for (const name of ['additional_headers', 'body_template'] as const) {
    const problem = checkTemplate(String(values[name] ?? ''));
    if (problem) errors.add(name, problem);
  }
  if (values.ssl_verification === false && values.ca_file_path) {
    errors.add('ca_file_path', 'Do not specify a CA certificate file if SSL verification is disabled.');
  } else if (values.ca_file_path) {
    const problem = caFileProblem(String(values.ca_file_path), item.settings);
    if (problem) errors.add('ca_file_path', problem);
  }
}

/** Event rules: known event types, valid conditions, an action object, and action data that is an object. */
function validateEventRule(item: WriteItemContext): void {
  const { values, errors } = item;
  const types = (values.event_types as unknown[] | null) ?? [];
  if (types.length === 0) errors.add('event_types', 'This list may not be empty.');
  for (const type of types) {
    if (!(EVENT_TYPES as readonly unknown[]).includes(type))
      errors.add('event_types', `"${String(type)}" is not a valid choice.`);
  }
  if (((values.object_types as unknown[] | null) ?? []).length === 0)
    errors.add('object_types', 'This list may not be empty.');
  const problem = validateConditions(values.conditions ?? null);
  if (problem) errors.add('conditions', problem);
  if (values.action_object_id === null || values.action_object_id === undefined)
    errors.add('action_object_id', 'This field is required.');
  const data = values.action_data;
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data)))
    errors.add('action_data', 'Action data must be a JSON object.');
}

export const eventFunctions = {
  'extras.validateWebhook': { kind: 'validator', fn: validateWebhook, batch: true },
  'extras.validateEventRule': { kind: 'validator', fn: validateEventRule, batch: true },
} satisfies Record<string, DomainEntry>;
