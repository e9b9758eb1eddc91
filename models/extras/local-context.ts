import { ValidationError, type Values, type WriteContext } from '../../framework';
import { ConfigContextSchema } from './config-context';
import { schemaErrors } from './json-schema';

/**
 * Nautobot's ConfigContextModel.clean for devices and VMs: a local context schema needs local
 * context data, and the data must satisfy it.
 */
export async function checkLocalContext(values: Values, wc: WriteContext): Promise<void> {
  if (!values.local_context_schema) return;
  if (values.local_context_data === null || values.local_context_data === undefined) {
    throw ValidationError.field('local_context_schema', 'Local context data must exist for a schema to be applied.');
  }
  const schema = await wc.store.get(ConfigContextSchema, values.local_context_schema as string);
  const errors = schema ? schemaErrors(schema.data_schema, values.local_context_data) : [];
  if (errors.length) {
    throw new ValidationError({ local_context_data: [`Validation using the JSON Schema ${String(schema?.name)} failed.`, ...errors] });
  }
}
