import { BaseModel, Field, GenericForeignKey, Model } from '../../framework';

/**
 * The traced path of one cabled endpoint (Nautobot's CablePath): kept by the cable hooks in the
 * transaction of the change that alters it, so that reads never walk cables.
 * `path` lists the intermediate nodes (cables, ports, circuit terminations) as `label:id`
 * separated by commas (cable-path-text.ts), origin and destination excluded. The paths through a
 * node are found through CablePathNode, which holds each of those nodes as a row of its own.
 */
// Paths ending at an object (a circuit termination saved, an endpoint's connections) are found by
// their destination.
@Model({ path: null, display: 'id', uniqueTogether: [['origin_type', 'origin_id']], indexTogether: [['destination_type', 'destination_id']] })
export class CablePath extends BaseModel {
  /** A generic relation, so that endpoints can filter on their own path (`connected`). */
  @GenericForeignKey({ forFeature: 'cable_terminations', required: true, indexed: false })
  origin!: unknown;

  @Field.String({ maxLength: 100, blank: true })
  destination_type!: string;

  @Field.UUID({ nullable: true })
  destination_id!: string | null;

  @Field.Text()
  path!: string;

  @Field.Boolean({ default: true })
  is_active!: boolean;

  @Field.Boolean({ default: false })
  is_split!: boolean;
}
