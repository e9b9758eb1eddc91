import { BaseModel, Field, ForeignKey, Model } from '../../framework';
import { CablePath } from './cable-path';

/**
 * One node of one stored cable path: the index that finds every path through a cable, port or
 * circuit termination without reading every path's text. Written only together with its path
 * (cable-path-store.ts), so its rows are always the nodes of the path's `path` text.
 */
@Model({ path: null, display: 'node', uniqueTogether: [['node', 'cable_path']] })
export class CablePathNode extends BaseModel {
  @ForeignKey(() => CablePath, { onDelete: 'cascade', related: 'nodes' })
  cable_path!: CablePath;

  /** `label:id` as in CablePath.path: a content-type label (at most 100 characters) and a UUID. */
  @Field.String({ maxLength: 150 })
  node!: string;
}
