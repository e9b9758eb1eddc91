import type { Factory } from './index';
import { dcimFactories, extrasFactories, tenancyFactories, usersFactories } from './core';
import { extrasDefinitionFactories } from './extras';
import { ipamFactories } from './ipam';
import { deviceFactories, virtualizationFactories } from './dcim';
import { pluginFactories } from './plugins';
import { circuitsFactories } from './circuits';
import { rackFactories } from './dcim-racks';
import { componentFactories } from './dcim-components';
import { jobFactories } from './jobs';
import { powerFactories } from './dcim-power';

/** One factory per routed model: a model without one fails the contract suite. */
export const FACTORIES: Record<string, Factory> = {
  ...extrasFactories,
  ...extrasDefinitionFactories,
  ...tenancyFactories,
  ...dcimFactories,
  ...deviceFactories,
  ...rackFactories,
  ...componentFactories,
  ...powerFactories,
  ...virtualizationFactories,
  ...usersFactories,
  ...ipamFactories,
  ...pluginFactories,
  ...circuitsFactories,
  ...jobFactories,
};
