import type { Factory } from './index';
import { dcimFactories, extrasFactories, tenancyFactories, usersFactories } from './core';
import { extrasDefinitionFactories } from './extras';
import { ipamFactories } from './ipam';
import { deviceFactories, virtualizationFactories } from './dcim';
import { pluginFactories } from './plugins';
import { jobFactories } from './jobs';

/** One factory per routed model: a model without one fails the contract suite. */
export const FACTORIES: Record<string, Factory> = {
  ...extrasFactories,
  ...extrasDefinitionFactories,
  ...tenancyFactories,
  ...dcimFactories,
  ...deviceFactories,
  ...virtualizationFactories,
  ...usersFactories,
  ...ipamFactories,
  ...pluginFactories,
  ...jobFactories,
};
