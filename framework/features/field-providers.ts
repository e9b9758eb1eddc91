import type { ComputedProvider as ComputedFieldProvider, ComputedValueProvider as ComputedValueSource } from '../fields/computed';
import type { CustomFieldValues } from '../fields/custom-fields';
import type { RenderContext } from '../serializer/render-context';
import type { WriteContext } from '../serializer/write-context';
import type { FeatureProvider } from './registry';

/*
 * The providers applications contribute for computed and custom fields, as they implement them:
 * the field kinds call them with the request's full render and write contexts, of which the
 * kinds themselves only see the part declared in framework/fields/.
 */

/** Values of a read-only computed key (`config_context`) for a page of objects. */
export type ComputedValueProvider = ComputedValueSource<RenderContext>;

/** A feature computed field (`relationships`, `computed_fields`): per-request values, optionally writable. */
export type ComputedProvider = ComputedFieldProvider<RenderContext, WriteContext>;

/** The custom-field feature: definitions per request, representation, parsing and validation of values. */
export interface CustomFieldProvider extends FeatureProvider, CustomFieldValues<RenderContext, WriteContext> {}
