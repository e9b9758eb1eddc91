import { and, defineActions, fieldTest, notesUrlKind, TRUE, type ActionRequest, type FieldMeta, type ModelMeta } from '../../framework';
import { Note } from './note';

function notesOf(req: ActionRequest, model: ModelMeta) {
  const note = req.meta(Note);
  return and([
    fieldTest(note.field('assigned_object_type') as FieldMeta, 'exact', [model.label]),
    fieldTest(note.field('assigned_object_id') as FieldMeta, 'exact', [req.id]),
  ]);
}

/** The object's notes, oldest first, paginated. An object the caller cannot see is a 404. */
async function listNotes(req: ActionRequest) {
  await req.object(req.ctx.db.reader, await req.restrict(req.model.cls, 'view'));
  return req.list(Note, notesOf(req, req.model));
}

/**
 * `{"note": "…"}` attaches a note to the object, authored by the requester. As in Nautobot the
 * parent model's permissions decide (the route requires `add` on it), not the note model's.
 */
async function addNote(req: ActionRequest) {
  await req.object(req.ctx.db.reader, await req.restrict(req.model.cls, 'view'));
  const body = req.body();
  const item = body !== null && typeof body === 'object' && !Array.isArray(body)
    ? { ...(body as Record<string, unknown>), assigned_object_type: req.model.label, assigned_object_id: req.id }
    : body;
  const ids = await req.transaction(Note, (tx) => req.create(tx, Note, [item], false, TRUE));
  return { status: 201, body: await req.render(Note, ids, false) };
}

/** `notes/` under every model that declares `notes_url` (the catalogue's models with notes). */
export const noteActions = defineActions({ withField: notesUrlKind }, {
  notes: {
    detail: true,
    GET: { action: 'view', handler: listNotes },
    POST: { action: 'add', handler: addNote },
  },
});
