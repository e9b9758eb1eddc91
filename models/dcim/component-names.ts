import type { Values } from '../../framework';

/** A component's text in messages and `display`: its name, with the label in parentheses when there is one. */
export function describeComponent(values: Values): string {
  return values.label ? `${String(values.name)} (${String(values.label)})` : String(values.name);
}

/** The `display` declaration shared by components and their templates. */
export const COMPONENT_DISPLAY = { fields: ['name', 'label'], render: (v: Values) => describeComponent(v) };
