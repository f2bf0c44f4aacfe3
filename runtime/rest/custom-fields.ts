import type { CustomFieldLayer } from '../app-context.js';

/**
 * Custom fields before any are defined: `custom_fields` renders as `{}` and a body may only send an empty
 * object (every name is unknown).
 */
export const noCustomFields: CustomFieldLayer = {
  validate: async (_q, _model, input, existing, errors) => {
    if (input === undefined || input === null) return existing ?? {};
    if (typeof input !== 'object' || Array.isArray(input)) {
      errors.add(
        'custom_fields',
        'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.',
      );
      return null;
    }
    const unknown = Object.keys(input);
    if (unknown.length > 0) {
      errors.set(
        'custom_fields',
        Object.fromEntries(
          unknown.map((name) => [name, `Custom field '${name}' does not exist for this object type.`]),
        ),
      );
      return null;
    }
    return existing ?? {};
  },
  renderer: async () => () => ({}),
};
