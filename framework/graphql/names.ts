import type { ModelMeta } from '../metadata/model-meta';

/** Names GraphQL accepts for fields, arguments and types. */
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export function isGraphQLName(name: string): boolean {
  return NAME.test(name);
}

/** Nautobot names a model's type after its class: `Device` → `DeviceType`, `DeviceType` → `DeviceTypeType`. */
export function typeName(model: ModelMeta): string {
  return `${model.cls.name}Type`;
}

/**
 * Root field names from verbose names as graphene-django derives them: lower-cased, characters
 * other than letters, digits, `_`, `-` and space dropped, spaces and dashes turned into `_`.
 */
export function rootFieldName(verboseName: string): string {
  return verboseName
    .toLowerCase()
    .replace(/[^a-z0-9_\- ]/g, '')
    .replace(/[ -]/g, '_');
}

/**
 * The enum member name of a stored choice value (graphene's V3 enum naming): ASCII, each run of
 * non-word characters turned into `_`, upper-cased, `A_` before a leading digit.
 */
export function enumMemberName(value: string | number): string {
  const ascii = String(value)
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '');
  const name = ascii.replace(/\W+/g, '_').toUpperCase();
  return /^[0-9]/.test(name) ? `A_${name}` : name || 'A_';
}

/** `<AppLabel><ModelClass><FieldName>Choices`, as graphene-django names a column's enum. */
export function enumTypeName(model: ModelMeta, field: string): string {
  const camel = (s: string) => s.split('_').filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return `${camel(model.app.label)}${model.cls.name}${camel(field)}Choices`;
}
