import type { ModelClass } from '../metadata/types';
import { displayStrings } from './representation';
import type { Id } from '../query/id';
import type { WriteContext } from './write-context';

/** `display` of one object ('' when it does not exist). */
export async function displayOf(wc: WriteContext, cls: ModelClass, id: Id): Promise<string> {
  const [row] = await displayStrings(wc.tx, wc.registry.forClass(cls), [id]);
  return row?.display ?? '';
}
