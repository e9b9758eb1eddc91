import type { AppDefinition, AppOptions } from '../metadata/registry';
import { declareApp } from '../metadata/registry';
import type { ModelClass } from '../metadata/types';
import type { ModelAction } from './declared-routes';

/** An application: its models for the registry, and the extra routes of those models for the router. */
export interface ApplicationDefinition extends AppDefinition {
  /** Extra routes of the application's models (defineActions). */
  readonly actions: readonly ModelAction[];
}

/**
 * Declares an application: its label and models, in order (each class gets its table
 * `<app>_<model>`), and the extra actions served under those models' endpoints.
 */
export function defineApp(label: string, models: ModelClass[], options: AppOptions & { actions?: readonly ModelAction[] } = {}): ApplicationDefinition {
  return { ...declareApp(label, models, options), actions: options.actions ?? [] };
}
