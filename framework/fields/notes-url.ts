import { baseInfo } from './common';
import type { FieldKind } from './kind';

/**
 * `notes_url`: the absolute URL of the object's `/notes/` action, on models that serve one.
 * Computed from the id; never in brief or nested forms.
 */
export const notesUrlKind: FieldKind = {
  name: 'notes-url',
  databaseForm: 'omitted',
  decorate() {
    /* no column: built from the id */
  },
  column: () => null,
  reader(field, scope, mode) {
    if (mode.brief) return null;
    const idIndex = scope.idIndex;
    const listPath = field.model.listPath;
    return (row, rc) => `${rc.baseUrl}${listPath}${String(row[idIndex])}/notes/`;
  },
  info: (field) => ({ ...baseInfo(field, 'field'), read_only: true }),
  schema: () => ({ type: 'string', format: 'uri', readOnly: true }),
};
