// Imports nothing: the query layer names a generic relation's fields without loading its kind.
/** The names of a generic relation's type and id fields, from the options of any of its three fields. */
export function genericNames(options: object, fallback = ''): { type: string; id: string } {
  const o = options as { relation?: string; typeField?: string; idField?: string };
  const relation = o.relation ?? fallback;
  return { type: o.typeField ?? `${relation}_type`, id: o.idField ?? `${relation}_id` };
}
