import type { Executor } from '../store/executor';
import { planRowsById } from '../store/plan-rows';
import type { ModelMeta } from '../metadata/model-meta';
import type { ModelClass } from '../metadata/types';
import { DEFAULT_VERSION } from '../versioning/version';
import { renderContext } from './render-context';
import { displayEmitter } from './representation';
import { SelectBuilder, type Id } from './select';
import type { WriteContext } from './write-context';

/** `display` of objects by id (the text Nautobot's messages quote), in no particular order. */
export async function displayStrings(db: Executor, model: ModelMeta, ids: Id[]): Promise<Array<{ display: string; id: Id }>> {
  if (ids.length === 0) return [];
  const sb = new SelectBuilder(model, db.dialect);
  const display = displayEmitter(model, sb.root);
  const idIndex = sb.root.idIndex;
  const rows = await planRowsById(db, model, sb.selectFrom(), ids);
  const rc = renderContext('', DEFAULT_VERSION, db);
  return rows.map((r) => ({ display: String(display(r, rc)), id: r[idIndex] as Id }));
}

/** `display` of one object ('' when it does not exist). */
export async function displayOf(wc: WriteContext, cls: ModelClass, id: Id): Promise<string> {
  const [row] = await displayStrings(wc.tx, wc.registry.forClass(cls), [id]);
  return row?.display ?? '';
}
